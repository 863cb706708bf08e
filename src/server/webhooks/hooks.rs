//! The account's one subscription, its queue and delivery settings: what
//! the state holds and requests enqueue to.

use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::health::Health;
use super::loopback::check_loopback;
use crate::server::config::ServerConfig;

/// Every kind the server emits, in the order a subscription lists them
/// when it takes them all.
pub const KINDS: [&str; 8] = [
    "message_created",
    "message_status_updated",
    "contact_created",
    "contact_updated",
    "contact_deleted",
    "conversation_opened",
    "conversation_closed",
    "agent_status_updated",
];

/// The account's one webhook. Kept in the server's database (setting
/// [`SETTING`]), so a `serve --db` restart still delivers to it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Subscription {
    pub url: String,
    pub kinds: Vec<String>,
}

/// The settings key the subscription is kept under.
pub const SETTING: &str = "webhook_subscription";

/// The subscription a previous run kept, if any (one that is no longer a
/// loopback URL is dropped with a warning).
pub fn load(conn: &rusqlite::Connection) -> Option<Subscription> {
    let text = crate::server::db::get_setting(conn, SETTING).ok().flatten()?;
    let sub: Subscription = match serde_json::from_str(&text) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!("the kept webhook subscription is unreadable and was ignored: {e}");
            return None;
        }
    };
    match check_loopback(&sub.url) {
        Ok(url) => Some(Subscription { url, ..sub }),
        Err(e) => {
            tracing::warn!("the kept webhook subscription was ignored: {e}");
            None
        }
    }
}

/// Keeps `sub` (or its absence) for the next run.
pub fn store(conn: &rusqlite::Connection, sub: Option<&Subscription>) -> rusqlite::Result<()> {
    match sub {
        Some(s) => {
            let text = serde_json::to_string(s).unwrap_or_default();
            crate::server::db::set_setting(conn, SETTING, &text)
        }
        None => conn
            .execute("DELETE FROM settings WHERE key = ?1", [SETTING])
            .map(|_| ()),
    }
}

impl Subscription {
    /// Every kind (what `--webhook-url` subscribes to).
    pub fn all(url: String) -> Self {
        Subscription {
            url,
            kinds: KINDS.iter().map(|k| k.to_string()).collect(),
        }
    }

    pub(super) fn takes(&self, kind: &str) -> bool {
        self.kinds.iter().any(|k| k == kind)
    }
}

/// One event on its way to a subscriber.
pub struct Job {
    pub kind: &'static str,
    /// `message_object` or `contact_object`, for the event log.
    pub payload: &'static str,
    /// The JSON body posted, `{"event", "payload"}`.
    pub body: String,
    /// The subscriber when the event happened; a later change of
    /// subscription ends the job's retries.
    pub url: String,
}

/// What became of an event handed to [`Hooks::enqueue`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enqueued {
    /// No webhook: the caller logs the simulated receiver's answer.
    NoWebhook,
    /// The webhook does not take this kind.
    NotSubscribed,
    /// In the queue, for the worker.
    Waiting,
    /// The queue is full: the event is lost (the caller logs it).
    Full,
}

/// Subscription, queue and delivery settings.
pub struct Hooks {
    sub: Mutex<Option<Subscription>>,
    tx: mpsc::Sender<Job>,
    pub(super) secret: Option<Vec<u8>>,
    pub(super) drop_rate: f64,
    pub(super) backoff: Duration,
    pub(super) attempts: u32,
    pub(super) timeout: Duration,
    /// What the connection checks found.
    pub health: Health,
}

impl Hooks {
    /// The hooks and the queue's receiving end, for [`run`].
    pub fn new(cfg: &ServerConfig, sub: Option<Subscription>) -> (Self, mpsc::Receiver<Job>) {
        let (tx, rx) = mpsc::channel(cfg.webhook_queue.max(1));
        let hooks = Hooks {
            sub: Mutex::new(sub),
            tx,
            secret: cfg.webhook_secret.as_ref().map(|s| s.as_bytes().to_vec()),
            drop_rate: cfg.drop_webhooks,
            backoff: Duration::from_millis(cfg.webhook_backoff_ms),
            attempts: cfg.webhook_attempts.max(1),
            timeout: cfg.webhook_timeout,
            health: Default::default(),
        };
        (hooks, rx)
    }

    /// Time one request to the receiver may take.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    pub fn subscription(&self) -> Option<Subscription> {
        self.sub.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Replace the account's subscription (`None` unsubscribes).
    pub fn set(&self, sub: Option<Subscription>) {
        *self.sub.lock().unwrap_or_else(|e| e.into_inner()) = sub;
    }

    /// Queue `kind` for the subscriber, if it subscribed to that kind.
    /// Never waits: a full queue loses the event.
    pub fn enqueue(&self, kind: &'static str, payload: &'static str, data: &Value) -> Enqueued {
        let Some(sub) = self.subscription() else {
            return Enqueued::NoWebhook;
        };
        if !sub.takes(kind) {
            return Enqueued::NotSubscribed;
        }
        let body = json!({ "event": kind, "payload": data }).to_string();
        match self.tx.try_send(Job {
            kind,
            payload,
            body,
            url: sub.url,
        }) {
            Ok(()) => Enqueued::Waiting,
            Err(mpsc::error::TrySendError::Full(_)) => Enqueued::Full,
            // The worker ended (the server is stopping): nobody is left to
            // deliver to.
            Err(mpsc::error::TrySendError::Closed(_)) => Enqueued::Waiting,
        }
    }

    pub(super) fn still_wanted(&self, job: &Job) -> bool {
        self.subscription()
            .is_some_and(|s| s.url == job.url && s.takes(job.kind))
    }
}
