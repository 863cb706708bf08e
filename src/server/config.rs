//! What the server is started with: [`ServerConfig`] for [`start`](super::start),
//! and [`ServeOptions`] for `frontdesk serve`.

use std::path::PathBuf;
use std::time::Duration;

use super::clock::Clock;
use super::knobs::FaultKnobs;

/// How GET /contacts and GET /contacts/:uuid/messages page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Paging {
    /// As the reference: `page` or an `after` cursor, and `meta`
    /// (`page`, `pages`, `next`).
    #[default]
    Reference,
    /// As the documentation's examples: `page` only, and no `meta` at all.
    Docs,
}

/// What `frontdesk serve` runs: the server's configuration plus the
/// process-level choices (where to listen, where the manifest goes).
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub addr: String,
    pub manifest: Option<PathBuf>,
    /// End when standard input closes (the demo's parent holds the pipe).
    pub exit_with_stdin: bool,
    /// Sign deliveries (`--sign-webhooks`): the secret is `config`'s
    /// (from the environment) or else read from `webhook_secret_file`.
    /// Without it deliveries go unsigned, as the documented service's do.
    pub sign_webhooks: bool,
    pub webhook_secret_file: Option<PathBuf>,
    pub config: ServerConfig,
}

/// Everything `start` needs. `Default` is what tests want: seed 42, 300
/// contacts, in memory, no live activity (deterministic), bot enabled.
#[derive(Clone)]
pub struct ServerConfig {
    pub db: Option<PathBuf>,
    pub contacts: usize,
    pub seed: u64,
    pub api_key: Option<String>,
    /// Loopback receiver subscribed at start to every event kind (a
    /// shortcut for POST /webhooks/subscribe).
    pub webhook_url: Option<String>,
    /// Signs every delivery (`X-Callbell-Signature`) when set.
    pub webhook_secret: Option<String>,
    /// Share of deliveries (0.0..=1.0) dropped without reaching the receiver.
    pub drop_webhooks: f64,
    /// Pause before a failed delivery's second attempt; doubles each time.
    pub webhook_backoff_ms: u64,
    /// Attempts per delivery before it is given up.
    pub webhook_attempts: u32,
    /// Events waiting for delivery at most; past it an event is dropped
    /// (and logged as failed), so a dead receiver cannot grow memory.
    pub webhook_queue: usize,
    /// Time one delivery attempt may take.
    pub webhook_timeout: Duration,
    pub activity: bool,
    pub latency_ms: u64,
    pub fail_rate: f64,
    pub rate_limit: Option<u32>,
    /// Whether the seeded account has a bot (only read when seeding).
    pub bot_enabled: bool,
    /// Time a send-request spends in each delivery status.
    pub status_step_ms: u64,
    /// Pause between two live-activity ticks.
    pub activity_interval_ms: u64,
    /// Source of "now": the system clock, or a manual one in tests.
    pub clock: Clock,
    /// Time a client has to send a request's headers.
    pub header_timeout: Duration,
    /// Time a request may take from its headers to the answer.
    pub request_timeout: Duration,
    /// Most connections served at once; more wait in the accept queue.
    pub max_connections: usize,
    /// Writes applied then answered 500, answers held back.
    pub knobs: FaultKnobs,
    /// Paging of the contact and message lists.
    pub paging: Paging,
    /// Pause between two connection checks of the subscribed receiver.
    pub webhook_check_interval: Duration,
}

impl std::fmt::Debug for ServerConfig {
    /// The key stays out of Debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerConfig")
            .field("db", &self.db)
            .field("contacts", &self.contacts)
            .field("seed", &self.seed)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("webhook_url", &self.webhook_url)
            .field("webhook_secret", &self.webhook_secret.as_ref().map(|_| "<redacted>"))
            .field("drop_webhooks", &self.drop_webhooks)
            .field("activity", &self.activity)
            .field("paging", &self.paging)
            .field("clock", &self.clock)
            .finish_non_exhaustive()
    }
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            db: None,
            contacts: 300,
            seed: 42,
            api_key: None,
            webhook_url: None,
            webhook_secret: None,
            drop_webhooks: 0.0,
            webhook_backoff_ms: 250,
            webhook_attempts: 6,
            webhook_queue: 10_000,
            webhook_timeout: Duration::from_secs(2),
            activity: false,
            latency_ms: 0,
            fail_rate: 0.0,
            rate_limit: None,
            bot_enabled: true,
            status_step_ms: 2000,
            activity_interval_ms: 4000,
            clock: Clock::system(),
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_connections: 256,
            knobs: FaultKnobs::default(),
            paging: Paging::Reference,
            webhook_check_interval: Duration::from_secs(300),
        }
    }
}
