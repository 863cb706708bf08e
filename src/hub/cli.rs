//! `frontdesk hub`'s command line: run the hub, manage its agents, read
//! its audit log. The account key and base URL come from the client's own
//! resolution (`--api-key`/`FRONTDESK_API_KEY`/config file, `--base-url`).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::{HubError, agents, audit, store::Store};
use crate::cli::{CliError, Ctx, sanitize};

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

/// The data dir in force: the flag, the env, or the platform's data dir.
pub fn data_dir(args: &HubArgs) -> Result<PathBuf, CliError> {
    if let Some(d) = &args.data_dir {
        return Ok(d.clone());
    }
    directories::BaseDirs::new()
        .map(|d| d.data_dir().join("frontdesk").join("hub"))
        .ok_or_else(|| CliError::usage("no home directory: pass --data-dir"))
}

fn hub_err(e: HubError) -> CliError {
    match e {
        HubError::Usage(m) | HubError::Config(m) => CliError::Usage(m),
        other => CliError::Other(other.to_string()),
    }
}

pub async fn run(ctx: &mut Ctx<'_>, args: HubArgs) -> Result<(), CliError> {
    match &args.command {
        Some(HubCmd::Demo { addr, headless }) => {
            return super::demo::run(ctx, addr, args.data_dir.as_deref(), *headless).await;
        }
        Some(HubCmd::Join { name, print }) => {
            return super::demo::join(ctx, name, args.data_dir.as_deref(), *print).await;
        }
        _ => {}
    }
    let dir = data_dir(&args)?;
    match args.command.clone() {
        None => super::process::run(ctx, &args, dir).await,
        Some(HubCmd::Demo { .. } | HubCmd::Join { .. }) => Ok(()),
        Some(HubCmd::Webhook(cmd)) => webhook_cmd(ctx, &args, &dir, cmd),
        Some(HubCmd::Agents(cmd)) => {
            let store = Store::open(&dir).map_err(hub_err)?;
            agents_cmd(ctx, &store, cmd)
        }
        Some(HubCmd::Audit { since, limit }) => {
            let since = match since.as_deref().map(chrono::DateTime::parse_from_rfc3339) {
                None => None,
                Some(Ok(t)) => Some(t.with_timezone(&chrono::Utc)),
                Some(Err(_)) => return Err(CliError::usage("--since must be an RFC 3339 time")),
            };
            let store = Store::open(&dir).map_err(hub_err)?;
            let mut entries = audit::read(&store, since, limit).map_err(hub_err)?;
            // The contacts' names from the hub's index, when it has one.
            let index = dir.join("index.sqlite");
            if index.exists()
                && let Ok(mut opened) = crate::index::Index::open(&index)
            {
                audit::name_contacts(&mut opened.index, &mut entries);
            }
            let mut doc = String::new();
            if ctx.format == crate::cli::Format::Table {
                for e in &entries {
                    let contact = match (&e.name, &e.contact) {
                        (Some(n), Some(u)) => format!("{n} ({u})"),
                        (None, Some(u)) => u.clone(),
                        _ => "-".into(),
                    };
                    doc.push_str(&format!(
                        "{}  {}  {} {}  {}  {}\n",
                        sanitize(&e.at),
                        sanitize(&e.agent),
                        sanitize(&e.method),
                        sanitize(&e.path),
                        e.status,
                        sanitize(&contact)
                    ));
                }
            } else {
                doc = json_doc(ctx.format, &entries)?;
            }
            ctx.emit(&doc)
        }
    }
}

fn json_doc<T: serde::Serialize>(format: crate::cli::Format, items: &[T]) -> Result<String, CliError> {
    let mut doc = String::new();
    if format == crate::cli::Format::Jsonl {
        for i in items {
            doc.push_str(&serde_json::to_string(i).map_err(|e| CliError::Other(e.to_string()))?);
            doc.push('\n');
        }
    } else {
        doc = serde_json::to_string_pretty(items).map_err(|e| CliError::Other(e.to_string()))?;
        doc.push('\n');
    }
    Ok(doc)
}

fn agents_cmd(ctx: &mut Ctx<'_>, store: &Store, cmd: AgentsCmd) -> Result<(), CliError> {
    match cmd {
        AgentsCmd::Add {
            name,
            user_uuid,
            role,
            expires,
        } => {
            // `--email` is the global flag (the agent's collaborator email).
            let Some(email) = ctx.global.user_email.clone() else {
                return Err(CliError::usage("an agent needs --email (its collaborator email)"));
            };
            let lifetime = expires
                .as_deref()
                .map(agents::parse_lifetime)
                .transpose()
                .map_err(hub_err)?;
            let token =
                agents::add_with(store, &name, &email, user_uuid.as_deref(), role, lifetime).map_err(hub_err)?;
            let doc = if ctx.format == crate::cli::Format::Table {
                format!("{token}\n# the token of agent {name}: shown once, keep it (the hub stores only its hash)\n")
            } else {
                format!("{}\n", serde_json::json!({ "agent": name, "token": token }))
            };
            ctx.emit(&doc)
        }
        AgentsCmd::List => {
            let list = agents::list(store).map_err(hub_err)?;
            let doc = if ctx.format == crate::cli::Format::Table {
                list.iter()
                    .map(|a| {
                        format!(
                            "{}  {}  {}  {}  {}  {}\n",
                            sanitize(&a.name),
                            sanitize(&a.email),
                            sanitize(a.user_uuid.as_deref().unwrap_or("-")),
                            sanitize(&a.created_at),
                            a.role.as_str(),
                            sanitize(a.expires_at.as_deref().unwrap_or("-"))
                        )
                    })
                    .collect()
            } else {
                json_doc(ctx.format, &list)?
            };
            ctx.emit(&doc)
        }
        AgentsCmd::Role { name, role } => {
            agents::set_role(store, &name, role).map_err(hub_err)?;
            ctx.emit(&format!("agent {name} is now {}\n", role.as_str()))
        }
        AgentsCmd::Rotate { name, expires } => {
            let lifetime = expires
                .as_deref()
                .map(agents::parse_lifetime)
                .transpose()
                .map_err(hub_err)?;
            let token = agents::rotate(store, &name, lifetime).map_err(hub_err)?;
            let doc = if ctx.format == crate::cli::Format::Table {
                format!("{token}\n# the new token of agent {name}: shown once; the old one is refused from now on\n")
            } else {
                format!("{}\n", serde_json::json!({ "agent": name, "token": token }))
            };
            ctx.emit(&doc)
        }
        AgentsCmd::Remove { name } => {
            agents::remove(store, &name).map_err(hub_err)?;
            ctx.emit(&format!("removed agent {name}: its token is refused from now on\n"))
        }
    }
}

fn webhook_cmd(ctx: &mut Ctx<'_>, args: &HubArgs, dir: &std::path::Path, cmd: WebhookCmd) -> Result<(), CliError> {
    use crate::webhook::path;
    crate::index::private::ensure_dir(dir).map_err(CliError::Usage)?;
    let io = |e: std::io::Error| CliError::Other(format!("the hook secret cannot be kept: {e}"));
    let secret = match cmd {
        WebhookCmd::Url => path::load_or_create(dir).map_err(io)?,
        WebhookCmd::Rotate => path::rotate(dir).map_err(io)?,
    };
    let shown = match &args.run.public_url {
        Some(public) => path::url(public, &secret),
        None => format!("{}{secret}", path::PREFIX),
    };
    let mut doc = format!("{shown}\n");
    if args.run.public_url.is_none() {
        doc.push_str("# the path only: pass --public-url URL for the full delivery URL\n");
    }
    if matches!(cmd, WebhookCmd::Rotate) {
        doc.push_str("# rotated: the old hook path is refused from now on; register this one with the service\n");
    }
    ctx.emit(&doc)
}

/// The reconciliation period from the flag (at least a second).
pub fn reconcile_every(args: &RunArgs) -> Duration {
    Duration::from_secs(args.reconcile_secs.max(1))
}
