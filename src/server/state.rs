//! Shared server state: one SQLite connection behind a mutex, and the few
//! settings every handler needs.

use std::sync::{Arc, Mutex};

use rusqlite::Connection;

use super::clock::Clock;
use super::config::{Paging, ServerConfig};
use super::error::ServerError;
use super::error::{ApiError, ApiResult};
use super::webhooks::hooks::{self, Hooks, Job, Subscription};
use super::{db, seed};
use tokio::sync::mpsc::Receiver;

/// Base of `href` and `conversationHref`.
pub const DASHBOARD: &str = "https://app.example.com";

pub struct AppState {
    conn: Mutex<Connection>,
    /// SHA-256 of the accepted key; the key itself is not kept.
    pub key_hash: [u8; 32],
    pub bot_enabled: bool,
    pub status_step_ms: i64,
    pub paging: Paging,
    /// Every reading of "now" goes through this clock.
    pub clock: Clock,
    /// The account's webhook subscription and its delivery queue.
    pub hooks: Hooks,
    /// Requests received so far (every path, answered or refused).
    pub requests: std::sync::atomic::AtomicU64,
    /// The same by method and path, each id in the path as `:id`.
    pub requests_by_path: std::sync::Mutex<std::collections::BTreeMap<String, u64>>,
}

pub type Shared = Arc<AppState>;

impl AppState {
    /// The state and the receiving end of its webhook queue (for
    /// the delivery worker).
    pub fn new(
        conn: Connection,
        api_key: &str,
        cfg: &ServerConfig,
        webhook_url: Option<String>,
    ) -> (Self, Receiver<Job>) {
        let bot_enabled = db::get_setting(&conn, "bot_enabled").ok().flatten().as_deref() == Some("true");
        // `--webhook-url` subscribes (and is kept); without it, the
        // subscription a previous run kept in the database holds.
        let sub = match webhook_url {
            Some(url) => {
                let sub = Subscription::all(url);
                if let Err(e) = hooks::store(&conn, Some(&sub)) {
                    tracing::warn!("the webhook subscription could not be kept: {e}");
                }
                Some(sub)
            }
            None => hooks::load(&conn),
        };
        let (hooks, queue) = Hooks::new(cfg, sub);
        let state = AppState {
            conn: Mutex::new(conn),
            key_hash: db::key_hash(api_key),
            bot_enabled,
            status_step_ms: cfg.status_step_ms.max(1) as i64,
            paging: cfg.paging,
            clock: cfg.clock.clone(),
            hooks,
            requests: std::sync::atomic::AtomicU64::new(0),
            requests_by_path: Default::default(),
        };
        (state, queue)
    }

    /// Run blocking database work off the async threads. The lock is held
    /// for the closure only, and a poisoned lock is recovered (SQLite keeps
    /// its own consistency; a panicking handler must not take the server down).
    pub async fn db<T, F>(self: &Arc<Self>, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> ApiResult<T> + Send + 'static,
    {
        self.db_now(move |conn, _| f(conn)).await
    }

    /// [`AppState::db`] with "now" read once the lock is held, so that
    /// timestamps follow the order in which writes commit. (Read before
    /// waiting for the lock, a write could commit after a walk started with
    /// a time from before it, and a walk that ends at its start time would
    /// miss it.)
    pub async fn db_now<T, F>(self: &Arc<Self>, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection, i64) -> ApiResult<T> + Send + 'static,
    {
        let st = self.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = st.conn.lock().unwrap_or_else(|e| e.into_inner());
            let now = st.clock.now_ms();
            f(&mut conn, now)
        })
        .await
        .map_err(|_| ApiError::Internal("request task failed".into()))?
    }
}

/// Open (and seed, when new) the database; decide the API key. Only the
/// key's hash is stored, so a restart cannot recover an old key: the
/// operator's key (`--api-key`) is used when given, otherwise a new one is
/// issued and replaces the stored hash.
pub fn prepare_db(cfg: &ServerConfig) -> Result<(Connection, String), ServerError> {
    let (mut conn, fresh) = db::open(cfg.db.as_deref())?;
    if fresh {
        seed::seed(&mut conn, cfg)?;
    }
    conn.execute_batch(db::INDEXES)?;
    let key = match &cfg.api_key {
        Some(k) => k.clone(),
        None => format!("fd_{}", db::hex32(&mut rand::rng())),
    };
    if key.trim().is_empty() {
        return Err(ServerError::Config("the API key must not be empty".into()));
    }
    let hash: String = db::key_hash(&key).iter().map(|b| format!("{b:02x}")).collect();
    db::set_setting(&conn, "api_key_sha256", &hash)?;
    // Databases written before the hash kept the key in clear.
    conn.execute("DELETE FROM settings WHERE key = 'api_key'", [])?;
    Ok((conn, key))
}
