//! Connection checks: the documented service checks its subscribed
//! receiver periodically, and a receiver answers 200 (with `{"status":
//! "ok"}`) when healthy. The method is not documented; the server sends a
//! GET to the subscribed URL, unsigned, every `webhook_check_interval`.

use std::time::Duration;

use crate::server::state::Shared;

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
