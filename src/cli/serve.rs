//! `frontdesk serve`'s command line. The clap definition lives here, with
//! the rest of the CLI, so the server module does not depend on clap: the
//! server takes a plain [`ServeOptions`].

use std::path::PathBuf;
use std::time::Duration;

use crate::server::{FaultKnobs, Paging, ServeOptions, ServerConfig};

/// `frontdesk serve` command-line options.
#[derive(Clone, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free one.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// SQLite file (created owner-only); seeded only when new, kept across restarts. In memory when absent.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Number of demo contacts to seed.
    #[arg(long, default_value_t = 300)]
    pub contacts: usize,
    /// Seed of the demo data: the same seed gives the same account.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// API key to accept. Without it every start issues a new key (only its hash is stored).
    #[arg(long, env = "FRONTDESK_SERVE_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,
    /// Write a JSON description of the seeded account (with the key) to this new file
    /// before the ready line; an existing file or link is refused.
    #[arg(long)]
    pub manifest: Option<PathBuf>,
    /// Loopback URL subscribed at start to every webhook event kind (as POST /webhooks/subscribe would).
    #[arg(long)]
    pub webhook_url: Option<String>,
    /// Sign every delivery (header X-Callbell-Signature, HMAC-SHA256). The documented service signs
    /// nothing, so deliveries are unsigned unless this is given. The secret comes from
    /// FRONTDESK_WEBHOOK_SECRET or --webhook-secret-file.
    #[arg(long)]
    pub sign_webhooks: bool,
    /// File whose first line is the signing secret (with --sign-webhooks).
    #[arg(long, value_name = "PATH")]
    pub webhook_secret_file: Option<PathBuf>,
    /// Signing secret (with --sign-webhooks); read from the environment only, never a flag.
    #[arg(skip = std::env::var("FRONTDESK_WEBHOOK_SECRET").ok())]
    pub webhook_secret: Option<String>,
    /// Seconds between two connection checks (GET) of the subscribed receiver.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub webhook_check_secs: u64,
    /// Paging of GET /contacts and GET /contacts/:uuid/messages: `reference` (page or `after`
    /// cursor, with `meta`) or `docs` (page only, no `meta`, as the documentation's examples).
    #[arg(long, value_enum, default_value_t = PagingArg::Reference)]
    pub paging: PagingArg,
    /// Share of webhook deliveries (0.0 to 1.0) dropped before they reach the receiver; the event log still
    /// records them, as failed. For testing a receiver's reconciliation.
    #[arg(long, default_value_t = 0.0)]
    pub drop_webhooks: f64,
    /// Milliseconds before a failed delivery's second attempt; the pause doubles after each failure.
    #[arg(long, default_value_t = 250)]
    pub webhook_backoff_ms: u64,
    /// Attempts per webhook delivery before it is given up.
    #[arg(long, default_value_t = 6)]
    pub webhook_attempts: u32,
    /// Turn off the simulated customer and bot activity.
    #[arg(long)]
    pub no_activity: bool,
    /// Added latency per request, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub latency_ms: u64,
    /// Share of requests (0.0 to 1.0) that answer 500.
    #[arg(long, default_value_t = 0.0)]
    pub fail_rate: f64,
    /// Requests per second accepted; beyond it 429 with Retry-After.
    #[arg(long)]
    pub rate_limit: Option<u32>,
    /// Seconds a client has to send a request's headers before it is disconnected.
    #[arg(long, default_value_t = 10)]
    pub header_timeout_secs: u64,
    /// Most connections served at once; more wait until one ends.
    #[arg(long, default_value_t = 256)]
    pub max_connections: usize,
    /// Stop when standard input reaches its end (a parent holding the pipe has gone).
    #[arg(long, hide = true)]
    pub exit_with_stdin: bool,
    /// Share of writes (0.0 to 1.0) that are carried out and then answer 500.
    #[arg(long, value_name = "P", default_value_t = 0.0)]
    pub apply_then_fail: f64,
    /// Hold each matching read's answer this long after computing it (a slow answer carrying old state).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub hold_ms: u64,
    /// The paths --hold-ms holds, under /v1, `*` for one segment (default: the contact list, /contacts).
    #[arg(long, value_name = "PATTERN")]
    pub hold_path: Option<String>,
}

/// `--paging`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PagingArg {
    Reference,
    Docs,
}

impl ServeArgs {
    pub fn options(&self) -> ServeOptions {
        ServeOptions {
            addr: self.addr.clone(),
            manifest: self.manifest.clone(),
            exit_with_stdin: self.exit_with_stdin,
            sign_webhooks: self.sign_webhooks,
            webhook_secret_file: self.webhook_secret_file.clone(),
            config: ServerConfig {
                db: self.db.clone(),
                contacts: self.contacts,
                seed: self.seed,
                api_key: self.api_key.clone(),
                webhook_url: self.webhook_url.clone(),
                webhook_secret: self.webhook_secret.clone().filter(|_| self.sign_webhooks),
                paging: match self.paging {
                    PagingArg::Reference => Paging::Reference,
                    PagingArg::Docs => Paging::Docs,
                },
                webhook_check_interval: Duration::from_secs(self.webhook_check_secs.max(1)),
                drop_webhooks: self.drop_webhooks,
                webhook_backoff_ms: self.webhook_backoff_ms,
                webhook_attempts: self.webhook_attempts.max(1),
                activity: !self.no_activity,
                latency_ms: self.latency_ms,
                fail_rate: self.fail_rate,
                rate_limit: self.rate_limit,
                header_timeout: Duration::from_secs(self.header_timeout_secs.max(1)),
                max_connections: self.max_connections.max(1),
                knobs: FaultKnobs {
                    apply_then_fail: self.apply_then_fail,
                    hold_ms: self.hold_ms,
                    hold_path: self.hold_path.clone(),
                    gate: None,
                },
                ..ServerConfig::default()
            },
        }
    }
}

impl std::fmt::Debug for ServeArgs {
    /// The key stays out of Debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServeArgs")
            .field("addr", &self.addr)
            .field("db", &self.db)
            .field("contacts", &self.contacts)
            .field("seed", &self.seed)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("manifest", &self.manifest)
            .field("webhook_url", &self.webhook_url)
            .field("webhook_secret", &self.webhook_secret.as_ref().map(|_| "<redacted>"))
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests;
