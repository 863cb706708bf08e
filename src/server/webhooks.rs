//! Webhook events. Every recorded event carries the receiver's answer: the
//! real one when the account has a subscription (POST /webhooks/subscribe,
//! or `--webhook-url`; see [`delivery`]), otherwise a simulated receiver's
//! that fails deterministically now and then.

pub mod checks;
pub mod delivery;
pub mod health;
pub mod hooks;
pub mod log;
pub mod loopback;
pub mod payloads;

use serde_json::{Value, json};

use super::state::Shared;
use hooks::Enqueued;
use log::{insert, record_simulated};

/// An event that happened: deliver it (really or simulated) and log it.
pub struct Event {
    pub kind: &'static str,
    /// `message_object`, `contact_object` or `user_object`.
    pub payload: &'static str,
    pub data: Value,
}

impl Event {
    pub fn message(kind: &'static str, data: Value) -> Self {
        Event {
            kind,
            payload: "message_object",
            data,
        }
    }
    /// An agent's availability or custom status, with the user.
    pub fn user(kind: &'static str, data: Value) -> Self {
        Event {
            kind,
            payload: "user_object",
            data,
        }
    }
    pub fn contact(kind: &'static str, data: Value) -> Self {
        Event {
            kind,
            payload: "contact_object",
            data,
        }
    }
}

/// Deliver events: queued for the subscriber when the account has a
/// webhook (only the kinds it subscribed to); otherwise logged right away
/// with the simulated receiver's answer. Never waits for a receiver.
pub async fn emit(state: &Shared, events: Vec<Event>) {
    if events.is_empty() {
        return;
    }
    let mut simulated = Vec::new();
    let mut lost = Vec::new();
    for e in events {
        match state.hooks.enqueue(e.kind, e.payload, &e.data) {
            Enqueued::NoWebhook => simulated.push(e),
            Enqueued::Full => lost.push(e),
            Enqueued::Waiting | Enqueued::NotSubscribed => {}
        }
    }
    if simulated.is_empty() && lost.is_empty() {
        return;
    }
    let logged = state
        .db_now(move |conn, now| {
            for e in &simulated {
                record_simulated(conn, e.kind, e.payload, now)?;
            }
            let full = json!({ "body": { "error": "delivery queue full" }, "code": 0, "headers": {} });
            for e in &lost {
                insert(conn, e.kind, e.payload, &full, false, now)?;
            }
            Ok(())
        })
        .await;
    if let Err(e) = logged {
        tracing::warn!(error = ?e, "could not log webhook events");
    }
}

#[cfg(test)]
mod tests;
