//! Connection checks: the documented service checks its subscribed
//! receiver periodically, and a receiver answers 200 (with `{"status":
//! "ok"}`) when healthy. The method is not documented; the server sends a
//! GET to the subscribed URL, unsigned, every `webhook_check_interval`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::server::state::Shared;

/// What the checks found so far.
#[derive(Debug, Default)]
pub struct Health {
    /// Checks sent since the server started.
    sent: AtomicU64,
    /// The last check's verdict (`None` before the first).
    healthy: Mutex<Option<bool>>,
}

impl Health {
    pub fn sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    pub fn healthy(&self) -> Option<bool> {
        *self.healthy.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn record(&self, ok: bool) {
        self.sent.fetch_add(1, Ordering::Relaxed);
        *self.healthy.lock().unwrap_or_else(|e| e.into_inner()) = Some(ok);
    }
}

/// Check the subscribed receiver every `every` (the first check one
/// interval after the start) while there is a subscription.
pub async fn run(state: Shared, every: Duration) {
    let client = reqwest::Client::builder()
        .timeout(state.hooks.timeout())
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default();
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tick.tick().await;
        let Some(sub) = state.hooks.subscription() else {
            continue;
        };
        let ok = match client.get(&sub.url).send().await {
            Ok(resp) => resp.status() == reqwest::StatusCode::OK,
            Err(_) => false,
        };
        if !ok {
            tracing::warn!("the webhook receiver failed its connection check");
        }
        state.hooks.health.record(ok);
    }
}
