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
mod config;
mod confirmer;
mod counts;
mod delivery;
mod error;
mod forward;
pub mod guard;
mod lost;
mod mcp;
mod pages;
mod presence;
mod probe;
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
pub mod timeline;
pub mod tls;
pub mod wire;
mod writers;

use std::sync::Arc;

use axum::Router;
use axum::routing::{any, get, post, put};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use config::{HubConfig, MAX_SERVICE_WAIT};
pub use error::HubError;
pub use state::HubState;

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
        tokio::spawn(probe::run(state.clone())),
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
        .route("/hub/v1/counts", get(counts::counts).post(counts::counts_of))
        .route("/hub/v1/report", post(report::report))
        .route("/hub/v1/presence", post(presence::post))
        .route("/hub/v1/audit", get(audit::get))
        .route("/hub/v1/timeline/{contact}", get(timeline::get))
        .route("/hub/v1/snippets", get(snippets::get))
        .route("/hub/v1/snoozes", get(snoozes::list))
        .route("/hub/v1/snoozes/{contact}", put(snoozes::set).delete(snoozes::wake))
        .route_service("/mcp", mcp::service(state.clone(), router))
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
