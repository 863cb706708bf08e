//! `frontdesk hub`'s flags and subcommands.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use crate::hub::agents;

/// `frontdesk hub [OPTIONS] [COMMAND]`.
#[derive(Clone, Args)]
pub struct HubArgs {
    #[command(subcommand)]
    pub command: Option<HubCmd>,
    /// Where the hub keeps its agents, audit log and index [env: FRONTDESK_HUB_DATA_DIR]
    #[arg(long, global = true, env = "FRONTDESK_HUB_DATA_DIR", hide_env = true)]
    pub data_dir: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Options of the running hub.
#[derive(Clone, Args)]
pub struct RunArgs {
    /// host:port (plain http on loopback only) or unix:/path (a socket, mode 0660)
    #[arg(long, default_value = "127.0.0.1:8900")]
    pub addr: String,
    /// Write {"url", "pid"} to this new file once listening
    #[arg(long)]
    pub manifest: Option<PathBuf>,
    /// The hub's address as the service reaches it (the hook URL is made from it)
    #[arg(long, value_name = "URL", global = true)]
    pub public_url: Option<String>,
    /// Subscribe the account's webhook to the hub on start: this REPLACES the account's one webhook
    #[arg(long, requires = "public_url")]
    pub subscribe: bool,
    /// Do not subscribe the webhook (the default; kept for older scripts)
    #[arg(long, conflicts_with = "subscribe")]
    pub no_subscribe: bool,
    /// Pass every delivery on to this URL (the account's previous webhook receiver)
    #[arg(long, value_name = "URL")]
    pub forward_to: Option<String>,
    /// Verify X-Callbell-Signature (a signing proxy in front) with this secret [env: FRONTDESK_WEBHOOK_SECRET]
    #[arg(long, env = "FRONTDESK_WEBHOOK_SECRET", hide_env_values = true)]
    pub webhook_secret: Option<String>,
    /// Read the X-Callbell-Signature secret from this file (first line)
    #[arg(long, value_name = "PATH", conflicts_with = "webhook_secret")]
    pub webhook_secret_file: Option<PathBuf>,
    /// Requests per second to the service for the whole team's reconciliation
    #[arg(long, default_value_t = crate::index::sync::DEFAULT_SYNC_RATE)]
    pub budget: f64,
    /// Seconds between two reconciliations by REST
    #[arg(long, default_value_t = 120)]
    pub reconcile_secs: u64,
    /// TLS certificate chain (PEM): serve https, on any address
    #[arg(long)]
    pub tls_cert: Option<PathBuf>,
    /// TLS private key (PEM) of --tls-cert
    #[arg(long)]
    pub tls_key: Option<PathBuf>,
}

impl std::fmt::Debug for HubArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HubArgs")
            .field("command", &self.command)
            .field("data_dir", &self.data_dir)
            .field("addr", &self.run.addr)
            .field(
                "webhook_secret",
                &self.run.webhook_secret.as_ref().map(|_| "<redacted>"),
            )
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, Subcommand)]
pub enum HubCmd {
    /// Add, list and remove the agents allowed to use the hub
    #[command(subcommand)]
    Agents(AgentsCmd),
    /// Live collaboration in two commands: a demo server and a hub wired by webhook, the TUI as dana
    Demo {
        /// Where the demo hub listens (plain http on loopback)
        #[arg(long, default_value = "127.0.0.1:8900")]
        addr: String,
        /// No TUI: run until Ctrl-C (agents join with `frontdesk hub join`)
        #[arg(long)]
        headless: bool,
    },
    /// Join the running demo as another agent (bea, or dana): opens the TUI
    Join {
        #[arg(default_value = "bea")]
        name: String,
        /// Print FRONTDESK_HUB_URL and FRONTDESK_HUB_TOKEN instead of opening the TUI
        #[arg(long)]
        print: bool,
    },
    /// The hook URL the service delivers to (print it, or rotate its secret)
    #[command(subcommand)]
    Webhook(WebhookCmd),
    /// Which agent made which write, when
    Audit {
        /// Entries at or after this time (RFC 3339)
        #[arg(long)]
        since: Option<String>,
        /// At most this many entries
        #[arg(long, default_value_t = 100)]
        limit: usize,
    },
}

#[derive(Debug, Clone, Subcommand)]
pub enum WebhookCmd {
    /// Print the full delivery URL (with --public-url), for registering it by hand
    Url,
    /// A new secret hook path: the old one stops at once (register the new URL)
    Rotate,
}

#[derive(Debug, Clone, Subcommand)]
pub enum AgentsCmd {
    /// Add an agent with --email E; prints its token once (only its hash is kept)
    Add {
        name: String,
        /// The agent's user uuid in the service
        #[arg(long)]
        user_uuid: Option<String>,
        /// agent: what an agent does in the inbox; admin: also the account's settings
        #[arg(long, value_enum, default_value_t = agents::Role::Agent)]
        role: agents::Role,
        /// The token stops working after this long (30d, 12h, 90m)
        #[arg(long, value_name = "DURATION")]
        expires: Option<String>,
    },
    /// Change an agent's role (agent or admin)
    Role {
        name: String,
        #[arg(value_enum)]
        role: agents::Role,
    },
    /// Give an agent a new token (printed once): the old one is refused at once and its streams end
    Rotate {
        name: String,
        /// The new token stops working after this long (30d, 12h, 90m)
        #[arg(long, value_name = "DURATION")]
        expires: Option<String>,
    },
    /// List the agents
    List,
    /// Remove an agent: its token is refused at once, also on open streams
    Remove { name: String },
}

/// The reconciliation period from the flag (at least a second).
pub fn reconcile_every(args: &RunArgs) -> Duration {
    Duration::from_secs(args.reconcile_secs.max(1))
}
