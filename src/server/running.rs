//! A started server: [`start`] and the handle it gives back.

use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::config::ServerConfig;
use super::error::ServerError;
use super::manifest::{self, Manifest};
use super::{activity, listen, routes, seed_docs, state, webhooks};

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

/// Start on an already-bound listener (tests bind 127.0.0.1:0).
pub async fn start(listener: TcpListener, config: ServerConfig) -> Result<RunningServer, ServerError> {
    let webhook_url = match &config.webhook_url {
        Some(u) => Some(webhooks::loopback::check_loopback(u).map_err(ServerError::Config)?),
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
