//! Real deliveries: the account's one subscription, a queue in the order
//! events were emitted, and one worker that posts each event to the
//! subscriber, retrying a failure with a doubling pause. Requests only
//! enqueue; they never wait for a receiver.

use rand::Rng;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::hooks::Job;
use super::log::insert;
use crate::server::state::Shared;
use crate::webhook;

/// The delivery worker: one job at a time, so a subscriber sees events in
/// the order they were queued. Ends when the queue's sender is dropped.
pub async fn run(state: Shared, mut rx: mpsc::Receiver<Job>) {
    let client = reqwest::Client::builder()
        .timeout(state.hooks.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default();
    while let Some(job) = rx.recv().await {
        let hooks = &state.hooks;
        if hooks.drop_rate > 0.0 && rand::rng().random::<f64>() < hooks.drop_rate {
            // Lost on the way: the receiver never hears of it and nothing
            // retries it; the log says it failed, as a lost delivery would.
            let response = json!({ "body": { "error": "dropped" }, "code": 0, "headers": {} });
            log(&state, &job, response, false).await;
            continue;
        }
        let mut pause = hooks.backoff;
        for attempt in 1..=hooks.attempts {
            if !hooks.still_wanted(&job) {
                break;
            }
            let t = state.clock.now_ms().div_euclid(1000);
            let signature = hooks
                .secret
                .as_deref()
                .map(|s| webhook::sign(s, t, job.body.as_bytes()));
            let (response, success) = deliver(&client, &job, signature).await;
            log(&state, &job, response, success).await;
            if success {
                break;
            }
            if attempt < hooks.attempts {
                tokio::time::sleep(pause).await;
                pause = pause.saturating_mul(2);
            }
        }
    }
}

async fn log(state: &Shared, job: &Job, response: Value, success: bool) {
    let (kind, payload) = (job.kind, job.payload);
    let logged = state
        .db_now(move |conn, now| Ok(insert(conn, kind, payload, &response, success, now)?))
        .await;
    if let Err(e) = logged {
        tracing::warn!(error = ?e, "could not log a webhook delivery");
    }
}

async fn deliver(client: &reqwest::Client, job: &Job, signature: Option<String>) -> (Value, bool) {
    let mut req = client
        .post(&job.url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(job.body.clone());
    if let Some(s) = signature {
        req = req.header(webhook::SIGNATURE_HEADER, s);
    }
    match req.send().await {
        Ok(resp) => {
            let code = resp.status().as_u16();
            let headers: serde_json::Map<String, Value> = resp
                .headers()
                .iter()
                .map(|(k, v)| {
                    (
                        k.to_string(),
                        Value::String(String::from_utf8_lossy(v.as_bytes()).into_owned()),
                    )
                })
                .collect();
            let text = resp.text().await.unwrap_or_default();
            let body = match serde_json::from_str::<Value>(&text) {
                Ok(v @ Value::Object(_)) => v,
                Ok(other) => json!({ "value": other }),
                Err(_) => json!({ "text": text }),
            };
            (
                json!({ "body": body, "code": code, "headers": headers }),
                (200..300).contains(&code),
            )
        }
        Err(e) => {
            let reason = if e.is_timeout() { "timeout" } else { "connection failed" };
            (json!({ "body": { "error": reason }, "code": 0, "headers": {} }), false)
        }
    }
}
