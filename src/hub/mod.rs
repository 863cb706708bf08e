//! `frontdesk hub`: one live inbox for a team (issue 20; see
//! `docs/hub.md` and the wire protocol in `wire`).
//!
//! The hub alone holds the account key and keeps one index of the account
//! (`index.sqlite` in its data dir). Agents talk to it with their own
//! tokens: the service's `/v1/...` paths (forwarded, writes recorded in
//! the audit log and broadcast), `/hub/v1/...` (events, snapshot,
//! presence, audit, whoami). The service's webhook arrives at
//! `/hooks/<secret>` (see `webhook::path`); reconciliation by REST
//! catches what webhooks miss.

pub mod agents;
mod apply;
pub mod audit;
mod auth;
pub mod bus;
pub mod cli;
mod counts;
mod demo;
mod forward;
pub mod guard;
mod lost;
mod pages;
mod presence;
mod process;
mod receiver;
mod reconcile;
mod report;
mod rich;
pub mod route;
pub mod sent;
mod snapshot;
pub mod snippets;
pub mod snoozes;
mod sse;
mod state;
pub mod store;
pub mod tls;
pub mod wire;
mod writers;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::{any, get, post, put};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::api::ApiKey;
pub use state::HubState;

/// What can stop the hub.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("{0}")]
    Config(String),
    #[error("{0}")]
    Usage(String),
    #[error("the hub's file failed: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("the hub's index failed: {0}")]
    Index(#[from] crate::index::IndexError),
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
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
    pub agent_rate: guard::RateLimit,
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
            agent_rate: guard::RateLimit {
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

/// Where the hub listens: a TCP listener (loopback unless TLS) or a Unix socket.
pub enum HubListener {
    Tcp(tokio::net::TcpListener),
    /// TLS with this certificate (see [`tls::config`]).
    Tls(tokio::net::TcpListener, Arc<tokio_rustls::rustls::ServerConfig>),
    #[cfg(unix)]
    Unix(tokio::net::UnixListener),
}

/// A hub started by [`start`].
pub struct RunningHub {
    /// `http://127.0.0.1:PORT` (or `unix:/path`).
    pub url: String,
    pub state: Arc<HubState>,
    shutdown: Option<oneshot::Sender<()>>,
    join: JoinHandle<()>,
    tasks: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for RunningHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningHub")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl RunningHub {
    /// The full delivery URL on the hub's own address (`hub webhook url`
    /// prints it on the public one).
    pub fn hook_url(&self) -> String {
        format!("{}{}", self.url, self.state.hook.path())
    }

    /// Stops serving and the background work; open streams end.
    pub async fn stop(mut self) {
        self.state.stopping.send_replace(true);
        for t in self.tasks.drain(..) {
            t.abort();
            let _ = t.await;
        }
        self.state.persist_event_floor();
        crate::server::stop_serving(self.shutdown.take(), &mut self.join).await;
    }
}

/// Opens the data dir, starts the background work (webhook queue,
/// presence expiry, reconciliation) and serves on `listener`.
pub async fn start(listener: HubListener, config: HubConfig) -> Result<RunningHub, HubError> {
    let (state, hooks) = HubState::open(config).await?;
    let state = Arc::new(state);
    let app = router(state.clone());
    let tasks = vec![
        tokio::spawn(receiver::work(state.clone(), hooks)),
        tokio::spawn(presence::sweep(state.clone())),
        tokio::spawn(state::watch_agents(state.clone())),
        tokio::spawn(reconcile::run(state.clone())),
        tokio::spawn(guard::probe(state.clone())),
    ];
    let (tx, rx) = oneshot::channel::<()>();
    let limits = state.config.limits;
    // Every listener goes through the shared accept loop (`crate::listen`):
    // header-read and idle timeouts, a cap on connections.
    let (url, join) = match listener {
        HubListener::Tcp(l) => {
            let url = format!("http://{}", l.local_addr()?);
            (url, tokio::spawn(crate::listen::serve(l, app, limits, rx)))
        }
        HubListener::Tls(l, tls) => {
            let l = tls::TlsListener::new(l, tls)?;
            let url = format!("https://{}", axum::serve::Listener::local_addr(&l)?);
            (url, tokio::spawn(crate::listen::serve(l, app, limits, rx)))
        }
        #[cfg(unix)]
        HubListener::Unix(l) => {
            let url = match l.local_addr()?.as_pathname() {
                Some(p) => format!("unix:{}", p.display()),
                None => "unix:".to_string(),
            };
            (url, tokio::spawn(crate::listen::serve(l, app, limits, rx)))
        }
    };
    Ok(RunningHub {
        url,
        state,
        shutdown: Some(tx),
        join,
        tasks,
    })
}

fn router(state: Arc<HubState>) -> Router {
    let agent_routes = Router::new()
        .route("/v1", any(forward::handle))
        .route("/v1/{*rest}", any(forward::handle))
        .route("/hub/v1/events", get(sse::events))
        .route("/hub/v1/snapshot", get(snapshot::snapshot))
        .route("/hub/v1/whoami", get(snapshot::whoami))
        .route("/hub/v1/counts", get(counts::counts))
        .route("/hub/v1/report", post(report::report))
        .route("/hub/v1/presence", post(presence::post))
        .route("/hub/v1/audit", get(audit::get))
        .route("/hub/v1/snippets", get(snippets::get))
        .route("/hub/v1/snoozes", get(snoozes::list))
        .route("/hub/v1/snoozes/{contact}", put(snoozes::set).delete(snoozes::wake))
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), auth::require_agent));
    Router::new()
        .route(
            "/hooks/{secret}",
            any(receiver::receive).layer(axum::extract::DefaultBodyLimit::disable()),
        )
        .route("/hooks", any(receiver::elsewhere))
        .route("/hooks/{secret}/{*rest}", any(receiver::elsewhere))
        .merge(agent_routes)
        .layer(axum::extract::DefaultBodyLimit::max(wire::MAX_BODY))
        .with_state(state)
}
