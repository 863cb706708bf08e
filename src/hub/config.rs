//! What the hub runs with ([`HubConfig`]).

use std::path::PathBuf;
use std::time::Duration;

use crate::api::ApiKey;

/// Requests an agent may make: `rate` a second, `burst` at once.
#[derive(Debug, Clone, Copy)]
pub struct RateLimit {
    pub rate: f64,
    pub burst: f64,
}

/// The longest the hub waits for the service on one request: below the
/// listeners' 30 s idle limit.
pub const MAX_SERVICE_WAIT: Duration = Duration::from_secs(25);

/// Everything [`start`] needs. `HubConfig::new` gives the defaults the
/// command line uses; tests shorten the periods.
#[derive(Clone)]
pub struct HubConfig {
    pub data_dir: PathBuf,
    /// The service's base URL, ending in /v1.
    pub base_url: String,
    pub api_key: ApiKey,
    /// Verify `X-Callbell-Signature` with it when set.
    pub webhook_secret: Option<String>,
    /// Requests per second to the service for reconciliation (the whole team's).
    pub budget: f64,
    /// Time between two reconciliations.
    pub reconcile_every: Duration,
    /// Every this many reconciliations is a full walk (finds deletions).
    pub full_walk_every: u32,
    /// Between passes, the service's log of failed deliveries is read this
    /// often: a lost change that does not move its contact starts a full
    /// walk at once (see `lost`).
    pub lost_check_every: Duration,
    /// Events kept for `Last-Event-ID` replays.
    pub replay: usize,
    /// Undelivered events a client may have before it is told to resync.
    pub client_queue: usize,
    /// A reconciliation pass that changes more contacts than this
    /// announces them with one `resync`, not one event each.
    pub bulk: usize,
    /// A presence lasts this long after its last renewal.
    pub presence_ttl: Duration,
    /// A comment line on every stream this often.
    pub keep_alive: Duration,
    /// Request timeout to the service.
    pub timeout: Duration,
    /// `--forward-to`: every delivery is passed on there (`webhook::relay`).
    pub forward_to: Option<String>,
    /// Requests one agent may make through the hub (429 past it).
    pub agent_rate: RateLimit,
    /// Failed requests in a row before agents are told the service is
    /// down or limiting the hub.
    pub down_after: u32,
    /// The service is asked for `/plan` this often when nothing else was
    /// heard from it, or while it is down.
    pub probe_every: Duration,
    /// Header-read and idle timeouts and the connection cap of every listener.
    pub limits: crate::listen::Limits,
    /// The largest event the bus takes (bigger ones become `resync`).
    pub max_event_bytes: usize,
    /// The replay ring holds at most this many bytes of events.
    pub replay_bytes: usize,
}

impl std::fmt::Debug for HubConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HubConfig")
            .field("data_dir", &self.data_dir)
            .field("base_url", &self.base_url)
            .field("webhook_secret", &self.webhook_secret.as_ref().map(|_| "<redacted>"))
            .field("budget", &self.budget)
            .finish_non_exhaustive()
    }
}

impl HubConfig {
    pub fn new(data_dir: PathBuf, base_url: &str, api_key: ApiKey) -> HubConfig {
        HubConfig {
            data_dir,
            base_url: base_url.trim_end_matches('/').to_string(),
            api_key,
            webhook_secret: None,
            budget: crate::index::sync::DEFAULT_SYNC_RATE,
            reconcile_every: Duration::from_secs(120),
            full_walk_every: 15,
            lost_check_every: Duration::from_secs(10),
            replay: 10_000,
            client_queue: 1024,
            bulk: 200,
            presence_ttl: Duration::from_secs(30),
            keep_alive: Duration::from_secs(15),
            timeout: MAX_SERVICE_WAIT,
            forward_to: None,
            agent_rate: RateLimit {
                rate: 10.0,
                burst: 40.0,
            },
            down_after: 3,
            probe_every: Duration::from_secs(30),
            limits: crate::listen::Limits {
                header_timeout: Duration::from_secs(10),
                // Idle connections go within 30 s; above the service's
                // timeout ([`MAX_SERVICE_WAIT`]), so a forwarded request
                // that waits for the service is never cut first.
                idle_timeout: Some(Duration::from_secs(30)),
                max_connections: 4096,
            },
            max_event_bytes: 64 * 1024,
            replay_bytes: 16 * 1024 * 1024,
        }
    }
}
