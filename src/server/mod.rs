//! The embedded reference server: a faithful implementation of
//! `spec/api.md` (plus `spec/extensions.md`) on axum and SQLite.
//!
//! It is the demo backend and the fixture the tests run against. It shares
//! nothing with the client in `src/api` but the wire format: all row and JSON
//! types here are its own.
//!
//! Decisions where the reference leaves room (clients must not depend on
//! more than extensions.md promises):
//! - Every list is 20 per page; events take `items` (1..=100, default 20).
//! - GET /contacts `tags=a,b` keeps contacts carrying *all* listed tags
//!   (ASCII case-insensitive); an unknown tag or team simply matches nothing.
//! - Order is the conversation's latest activity desc (kept internally, never
//!   shown: the service has no `lastMessageAt`), then id desc. Cursors are keyset
//!   positions plus the highest contact id at the walk's start. A contact
//!   whose activity changes during a walk may move out of its unread part.
//! - Contacts carry what the documentation's Contact object adds to the
//!   reference (`channel`, `bsuid` where known, `blockedAt`, `note`) and
//!   nothing of our own.
//! - POST /contacts and POST /custom_statuses answer 201, other writes 200,
//!   deletes of messages 204. Validation errors are keyed by body field, a
//!   custom field as `custom_fields.<name>`; the 24-hour rule under `content`.
//! - A send-request moves enqueued → sent → delivered → read, one step per
//!   `status_step_ms` (2 s) since it was made; computed from the server's
//!   [`Clock`], no timers.
//! - Limits, paging past the end, connection timeouts, the `--db` checks and
//!   the key's storage: `docs/server.md`.

mod activity;
mod clock;
mod cursor;
mod db;
mod error;
mod faults;
mod listen;
mod manifest;
mod process;
mod routes;
mod seed;
mod seed_docs;
mod seed_text;
mod state;
mod validate;
mod webhooks;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use clock::Clock;
pub use faults::{FaultKnobs, HoldGate};
pub use manifest::{Manifest, ManifestChannel, ManifestField, ManifestStatus, ManifestTeam, ManifestUser};
pub use process::run;

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

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    #[error("database error: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("invalid configuration: {0}")]
    Config(String),
    #[error("could not write the manifest: {0}")]
    Manifest(#[from] serde_json::Error),
}

/// A server started by [`start`]; call [`RunningServer::stop`] to end it.
pub struct RunningServer {
    /// `http://127.0.0.1:PORT/v1`
    pub base_url: String,
    pub api_key: String,
    pub manifest: Manifest,
    shutdown: Option<oneshot::Sender<()>>,
    join: JoinHandle<()>,
    activity: Option<JoinHandle<()>>,
    /// The webhook delivery worker (it holds the state, so it is ended here).
    deliveries: Option<JoinHandle<()>>,
    /// Reports delivery statuses to the webhook as they change.
    statuses: Option<JoinHandle<()>>,
    /// Checks the subscribed receiver's connection now and then.
    checks: Option<JoinHandle<()>>,
    state: state::Shared,
}

impl std::fmt::Debug for RunningServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key stays out of Debug output.
        f.debug_struct("RunningServer")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

impl RunningServer {
    /// Deletes a contact as the service's dashboard would (the API has no
    /// call for it): its messages go too, and `contact_deleted` is emitted.
    /// For tests of receivers and reconciliation. False when there was no
    /// such contact.
    pub async fn delete_contact(&self, uuid: &str) -> Result<bool, ServerError> {
        activity::delete_contact(&self.state, uuid)
            .await
            .map_err(|e| ServerError::Config(format!("could not delete the contact: {e:?}")))
    }

    /// The customer of `uuid` writes `text` now (a message for a test to
    /// see arrive). False when there is no such contact.
    pub async fn customer_writes(&self, uuid: &str, text: &str) -> Result<bool, ServerError> {
        activity::customer_writes_to(&self.state, uuid, text, None)
            .await
            .map_err(|e| ServerError::Config(format!("the customer could not write: {e:?}")))
    }

    /// As [`RunningServer::customer_writes`], the message also carrying
    /// one of the documented rich kinds (`attachments`, `messageLocation`,
    /// `messageContactCard`, `mesageContext`, `messageForward`,
    /// `messageReplyButton`, `messageInteractiveList`).
    pub async fn customer_sends_rich(&self, uuid: &str, text: &str, kind: &str) -> Result<bool, ServerError> {
        let kind = seed_docs::RICH_KINDS
            .iter()
            .find(|k| **k == kind)
            .ok_or_else(|| ServerError::Config(format!("unknown rich kind {kind:?}")))?;
        activity::customer_writes_to(&self.state, uuid, text, Some(kind))
            .await
            .map_err(|e| ServerError::Config(format!("the customer could not write: {e:?}")))
    }

    /// Ends the live activity (customers writing), if it runs: a bench's
    /// traffic stops while the server goes on answering.
    pub async fn pause_activity(&mut self) {
        if let Some(task) = self.activity.take() {
            task.abort();
            let _ = task.await;
        }
    }

    /// Connection checks sent to the subscribed receiver so far, and the
    /// last one's verdict (a 200 is healthy).
    pub fn webhook_checks(&self) -> (u64, Option<bool>) {
        (self.state.hooks.health.sent(), self.state.hooks.health.healthy())
    }

    /// Requests the server received since it started (every path).
    pub fn requests(&self) -> u64 {
        self.state.requests.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Requests the server received since it started, by method and path
    /// (each id in the path as `:id`): `"GET /v1/contacts"`, ...
    pub fn requests_by_path(&self) -> std::collections::BTreeMap<String, u64> {
        self.state
            .requests_by_path
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Stop serving and release the database.
    pub async fn stop(mut self) {
        let tasks = [
            self.activity.take(),
            self.deliveries.take(),
            self.statuses.take(),
            self.checks.take(),
        ];
        for task in tasks.into_iter().flatten() {
            task.abort();
            let _ = task.await;
        }
        stop_serving(self.shutdown.take(), &mut self.join).await;
    }
}

/// Tells an axum server to shut down gracefully and waits for it, at most
/// 3 s: graceful shutdown waits for open connections (an SSE stream never
/// ends by itself), so after that it is aborted. The embedded server and
/// the hub stop this way.
pub(crate) async fn stop_serving(shutdown: Option<oneshot::Sender<()>>, join: &mut JoinHandle<()>) {
    if let Some(tx) = shutdown {
        let _ = tx.send(());
    }
    if tokio::time::timeout(Duration::from_secs(3), &mut *join).await.is_err() {
        join.abort();
        let _ = join.await;
    }
}

/// Log lines go to stderr, without colour; `var` or `RUST_LOG` choose the
/// level, `default` otherwise. Used by `serve` and `hub`.
pub(crate) fn init_stderr_logging(var: &str, default: &str) {
    let filter = std::env::var(var)
        .or_else(|_| std::env::var("RUST_LOG"))
        .unwrap_or_else(|_| default.into());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}

/// Start on an already-bound listener (tests bind 127.0.0.1:0).
pub async fn start(listener: TcpListener, config: ServerConfig) -> Result<RunningServer, ServerError> {
    let webhook_url = match &config.webhook_url {
        Some(u) => Some(webhooks::check_loopback(u).map_err(ServerError::Config)?),
        None => None,
    };
    if !(0.0..=1.0).contains(&config.fail_rate) {
        return Err(ServerError::Config("fail rate must lie between 0 and 1".into()));
    }
    if !(0.0..=1.0).contains(&config.knobs.apply_then_fail) {
        return Err(ServerError::Config(
            "the apply-then-fail rate must lie between 0 and 1".into(),
        ));
    }
    if !(0.0..=1.0).contains(&config.drop_webhooks) {
        return Err(ServerError::Config("--drop-webhooks must lie between 0 and 1".into()));
    }
    let addr = listener.local_addr()?;
    let base_url = format!("http://{addr}/v1");
    let cfg = config.clone();
    let (conn, api_key) = tokio::task::spawn_blocking(move || state::prepare_db(&cfg))
        .await
        .map_err(|e| ServerError::Config(format!("seeding task failed: {e}")))??;
    let manifest = manifest::build(&conn, &base_url, &api_key)?;
    let (state, queue) = state::AppState::new(conn, &api_key, &config, webhook_url);
    let state = Arc::new(state);
    let deliveries = tokio::spawn(webhooks::delivery::run(state.clone(), queue));
    // Half a step: a status is reported at most half a step late.
    let statuses = tokio::spawn(activity::statuses(
        state.clone(),
        Duration::from_millis((config.status_step_ms / 2).max(10)),
    ));
    let checks = tokio::spawn(webhooks::checks::run(state.clone(), config.webhook_check_interval));
    let app = routes::router(state.clone(), &config);

    let limits = listen::Limits {
        header_timeout: config.header_timeout,
        max_connections: config.max_connections,
    };
    let (tx, rx) = oneshot::channel::<()>();
    let join = tokio::spawn(listen::serve(listener, app, limits, rx));
    let activity = config.activity.then(|| {
        tokio::spawn(activity::run(
            state.clone(),
            config.seed,
            Duration::from_millis(config.activity_interval_ms.max(50)),
        ))
    });
    Ok(RunningServer {
        base_url,
        api_key,
        manifest,
        shutdown: Some(tx),
        join,
        activity,
        deliveries: Some(deliveries),
        statuses: Some(statuses),
        checks: Some(checks),
        state,
    })
}
