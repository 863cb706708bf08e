//! `POST /hooks/service`: the service's webhook. It answers at once and
//! leaves the work to one task fed by a bounded queue (a full queue
//! answers 503, so the service retries later). The wrapped form
//! `{"event", "payload"}` and a bare payload are both accepted (and the
//! embedded server's `{"event", "payload": "<object kind>", "data"}`).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{SecondsFormat, Utc};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

use super::apply::{self, Applied};
use super::state::HubState;
use super::wire;
use crate::text::sanitize_line;
use crate::webhook;

/// One delivery waiting for the worker.
#[derive(Debug)]
pub struct Delivery {
    pub kind: String,
    pub payload: Value,
}

/// The kind and payload of a delivery body.
pub fn unwrap(body: Value) -> Option<Delivery> {
    let Value::Object(mut map) = body else {
        return None;
    };
    if let Some(Value::String(kind)) = map.get("event").cloned() {
        let payload = match map.remove("payload") {
            Some(p @ Value::Object(_)) => p,
            // The embedded server names the object kind and sends it as `data`.
            Some(Value::String(_)) | None => match map.remove("data") {
                Some(d @ Value::Object(_)) => d,
                _ => {
                    map.remove("event");
                    Value::Object(map)
                }
            },
            Some(_) => return None,
        };
        return Some(Delivery { kind, payload });
    }
    let payload = Value::Object(map);
    let has = |k: &str| payload.get(k).is_some();
    let kind = if has("closingReason") {
        "conversation_closed"
    } else if has("text") || (has("from") && has("to")) {
        "message_created"
    } else if has("uuid") && (has("phoneNumber") || has("name")) {
        "contact_updated"
    } else {
        "unknown"
    };
    Some(Delivery {
        kind: kind.to_string(),
        payload,
    })
}

pub async fn receive(State(st): State<Arc<HubState>>, headers: HeaderMap, body: Bytes) -> Response {
    st.counters.deliveries.fetch_add(1, Ordering::Relaxed);
    if let Some(secret) = &st.config.webhook_secret {
        let header = headers.get(webhook::SIGNATURE_HEADER).and_then(|v| v.to_str().ok());
        if let Err(e) = webhook::verify(header, &body, secret.as_bytes(), Utc::now().timestamp()) {
            let n = st.counters.bad_signatures.fetch_add(1, Ordering::Relaxed) + 1;
            tracing::warn!("webhook delivery refused: {e} ({n} refused so far)");
            return wire::error(StatusCode::UNAUTHORIZED, &e.to_string()).into_response();
        }
    }
    let Some(delivery) = serde_json::from_slice::<Value>(&body).ok().and_then(unwrap) else {
        return wire::error(StatusCode::BAD_REQUEST, "the body is not a JSON object").into_response();
    };
    let digest: [u8; 32] = Sha256::digest(&body).into();
    if !st.first_delivery(digest) {
        st.counters.redeliveries.fetch_add(1, Ordering::Relaxed);
        return Json(json!({ "ok": true, "duplicate": true })).into_response();
    }
    match st.hooks.try_send(delivery) {
        Ok(()) => Json(json!({ "ok": true })).into_response(),
        Err(_) => {
            st.forget_delivery(digest);
            wire::error(StatusCode::SERVICE_UNAVAILABLE, "the hub is busy: deliver again later").into_response()
        }
    }
}

/// Works off the queue until the hub stops.
pub async fn work(st: Arc<HubState>, mut rx: mpsc::Receiver<Delivery>) {
    while let Some(mut d) = rx.recv().await {
        if d.kind == "message_created" && !d.payload.get("contact").is_some_and(Value::is_object) {
            find_contact(&st, &mut d.payload).await;
        }
        let st = st.clone();
        // SQLite work off the async threads.
        let _ = tokio::task::spawn_blocking(move || handle(&st, d)).await;
    }
}

/// A message event without its contact (the published example has
/// none): the customer's side is `from` on a received message, `to` on
/// one sent; the contact is read once by REST, inside the budget.
async fn find_contact(st: &HubState, payload: &mut Value) {
    let received = payload.get("status").and_then(Value::as_str) == Some("received");
    let sides = if received { ["from", "to"] } else { ["to", "from"] };
    let keys: Vec<String> = std::iter::once(uuid_of(payload.get("contact")))
        .chain(
            sides
                .iter()
                .map(|k| payload.get(*k).and_then(Value::as_str).map(str::to_string)),
        )
        .flatten()
        .filter(|k| !k.is_empty())
        .collect();
    for key in keys {
        st.budget.take().await;
        let path = format!(
            "/contacts/{}",
            url::form_urlencoded::byte_serialize(key.as_bytes()).collect::<String>()
        );
        let answer = super::forward::upstream(st, axum::http::Method::GET, &path, None, Bytes::new()).await;
        if let Some(contact) = answer
            .ok()
            .filter(|a| a.status.is_success())
            .and_then(|a| serde_json::from_slice::<Value>(&a.body).ok())
            .and_then(|v| apply::contact_in(&v))
            && let (Ok(c), Value::Object(map)) = (serde_json::to_value(&contact), &mut *payload)
        {
            map.insert("contact".into(), c);
            return;
        }
    }
}

fn uuid_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        obj => obj.get("uuid").and_then(Value::as_str).map(str::to_string),
    }
}

fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn handle(st: &HubState, d: Delivery) {
    let p = &d.payload;
    let stale = |a: Applied| {
        if a == Applied::Older {
            st.counters.stale_events.fetch_add(1, Ordering::Relaxed);
        }
    };
    match d.kind.as_str() {
        "contact_created" | "contact_updated" => match apply::contact_in(p) {
            Some(c) => stale(apply::contact(st, &c)),
            None => tracing::info!("a {} event without a contact was ignored", d.kind),
        },
        "contact_deleted" => match uuid_of(p.get("contact")).or_else(|| uuid_of(Some(p))) {
            Some(uuid) => apply::deleted(st, &uuid),
            None => tracing::info!("a contact_deleted event without a uuid was ignored"),
        },
        "message_created" => {
            let contact = p
                .get("contact")
                .and_then(|c| apply::contact_in(&json!({ "contact": c })));
            let Some(contact) = contact else {
                tracing::info!("a message_created event without its contact was ignored");
                return;
            };
            stale(apply::contact(st, &contact));
            super::reconcile::keep_last_message(st, &contact, p);
            if let Some(m) = p.get("uuid").and_then(Value::as_str)
                && !st.remember_message(m, &contact.uuid)
            {
                // A send through the hub announced it already.
                return;
            }
            let agent = if p.get("status").and_then(Value::as_str) == Some("received") {
                None
            } else {
                let to = p.get("to").and_then(Value::as_str).unwrap_or_default();
                st.writers
                    .of(&contact.uuid)
                    .or_else(|| st.writers.of(&super::writers::send_key(to)))
            };
            let mut message = p.clone();
            if let Value::Object(m) = &mut message {
                m.remove("contact");
                m.remove(super::sent::FIELD);
                if let Some(agent) = &agent {
                    m.insert(super::sent::FIELD.into(), Value::String(agent.clone()));
                    // The webhook overtook the send's answer: its uuid is
                    // the listed message's, the surest match (see `sent`).
                    let send = super::sent::Send {
                        message: p.get("uuid").and_then(Value::as_str),
                        contact: Some(&contact.uuid),
                        to: p.get("to").and_then(Value::as_str).unwrap_or_default(),
                        text: p.get("text").and_then(Value::as_str),
                        agent,
                    };
                    if let Err(e) = super::sent::record(&st.store, send, chrono::Utc::now()) {
                        tracing::error!("who sent a message could not be kept: {e}");
                    }
                }
            }
            st.bus.publish(
                wire::kind::MESSAGE_CREATED,
                &json!({ "contact": contact.uuid, "message": message, "agent": agent }),
            );
        }
        "message_status_updated" => {
            let message = p.get("uuid").and_then(Value::as_str);
            let (Some(contact), Some(message), Some(status)) = (
                uuid_of(p.get("contact")).or_else(|| message.and_then(|m| st.contact_of_message(m))),
                message,
                p.get("status").and_then(Value::as_str),
            ) else {
                tracing::info!("a message_status_updated event without contact, uuid or status was ignored");
                return;
            };
            st.bus.publish(
                wire::kind::MESSAGE_STATUS,
                &json!({ "contact": contact, "message": message, "status": status }),
            );
        }
        "conversation_opened" | "conversation_closed" => {
            let Some(contact) = apply::contact_in(p) else {
                tracing::info!("a {} event without its contact was ignored", d.kind);
                return;
            };
            let applied = apply::contact(st, &contact);
            stale(applied);
            if applied != Applied::Stored {
                // Older, or the index holds it already: the write's own
                // answer (or an earlier delivery) announced this change.
                return;
            }
            let (kind, at) = if d.kind == "conversation_closed" {
                let at = contact
                    .closed_at
                    .map(|t| t.to_rfc3339_opts(SecondsFormat::Millis, true));
                (wire::kind::CONVERSATION_CLOSED, at)
            } else {
                (wire::kind::CONVERSATION_OPENED, None)
            };
            st.bus.publish(
                kind,
                &json!({ "contact": contact.uuid, "agent": st.writers.of(&contact.uuid),
                         "at": at.unwrap_or_else(now) }),
            );
        }
        "agent_status_updated" => {
            let agent = ["email", "name", "uuid", "user"]
                .iter()
                .find_map(|k| p.get(*k).and_then(Value::as_str))
                .unwrap_or_default();
            let status = p.get("status").cloned().unwrap_or_else(|| p.clone());
            st.bus
                .publish(wire::kind::AGENT_STATUS, &json!({ "agent": agent, "status": status }));
        }
        other => {
            let n = st.counters.unknown_kinds.fetch_add(1, Ordering::Relaxed) + 1;
            tracing::info!(
                "a webhook event of unknown kind {:?} was ignored ({n} so far)",
                sanitize_line(other)
            );
        }
    }
}
