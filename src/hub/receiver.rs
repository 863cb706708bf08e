//! The service's webhook, at `/hooks/<secret>` (see `webhook::path`):
//! every other path under `/hooks` is 404. It answers the documented
//! connection checks (GET, HEAD, or a POST without an event: 200
//! `{"status": "ok"}`), caps bodies at [`HOOK_BODY`] (413 past it, before
//! reading the rest), refuses timestamps in the future beyond [`SKEW`],
//! recognizes redeliveries across restarts (the hub's file keeps recent
//! deliveries' digests for `DEDUP_WINDOW`), and leaves the work to
//! [`WORKERS`] tasks, each fed by a bounded queue: deliveries about one
//! contact go to the same worker (in order), others in parallel. A full
//! queue answers 503, so the service retries later. The wrapped form
//! `{"event", "payload"}` and a bare payload are both accepted (and the
//! embedded server's older `{"event", "payload": "<object kind>", "data"}`).

mod confirm;
mod handle;

use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

use super::delivery::{Delivery, WORKERS};
use super::state::HubState;
use super::wire;
use crate::webhook;

/// The largest delivery body read: 256 KiB.
pub const HOOK_BODY: usize = 256 * 1024;
/// A delivery's time may be this far ahead of the hub's clock.
pub const SKEW: Duration = Duration::from_secs(5 * 60);

/// The kind and payload of a delivery body; `None` when it is not an object.
pub fn unwrap(body: Value) -> Option<Delivery> {
    let Value::Object(mut map) = body else {
        return None;
    };
    if let Some(Value::String(kind)) = map.get("event").cloned() {
        let payload = match map.remove("payload") {
            Some(p @ Value::Object(_)) => p,
            // The embedded server named the object kind and sent it as `data`.
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
    let kind = if has("closingReason") || (has("contact") && has("href") && !has("text")) {
        if payload.get("closedAt").is_some_and(|v| !v.is_null()) {
            "conversation_closed"
        } else {
            "conversation_opened"
        }
    } else if has("text") || (has("from") && has("to")) {
        "message_created"
    } else if has("uuid") && has("deleted") {
        "contact_deleted"
    } else if has("uuid") && (has("phoneNumber") || has("name")) {
        "contact_updated"
    } else if has("uuid") && has("status") {
        "message_status_updated"
    } else {
        "unknown"
    };
    Some(Delivery {
        kind: kind.to_string(),
        payload,
    })
}

/// A time the delivery claims beyond the allowed skew, if any.
fn from_the_future(d: &Delivery) -> Option<DateTime<Utc>> {
    let limit = Utc::now() + chrono::Duration::from_std(SKEW).unwrap_or_default();
    let p = &d.payload;
    let times = ["createdAt", "closedAt", "deleted"]
        .into_iter()
        .map(|k| p.get(k))
        .chain(
            ["createdAt", "closedAt"]
                .into_iter()
                .map(|k| p.get("contact").and_then(|c| c.get(k))),
        );
    times
        .flatten()
        .filter_map(Value::as_str)
        .filter_map(|s| DateTime::parse_from_rfc3339(s).ok())
        .map(|t| t.with_timezone(&Utc))
        .find(|t| *t > limit)
}

/// Which worker a delivery goes to: by the contact it concerns.
fn shard(d: &Delivery) -> usize {
    let p = &d.payload;
    let key = p
        .get("contact")
        .and_then(|c| c.as_str().or_else(|| c.get("uuid").and_then(Value::as_str)))
        .or_else(|| p.get("uuid").and_then(Value::as_str))
        .or_else(|| {
            let side = if p.get("status").and_then(Value::as_str) == Some("received") {
                "from"
            } else {
                "to"
            };
            p.get(side).and_then(Value::as_str)
        })
        .unwrap_or_default();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    usize::try_from(h.finish() % WORKERS as u64).unwrap_or(0)
}

fn ok() -> Response {
    Json(json!({ "status": "ok" })).into_response()
}

fn not_found() -> Response {
    wire::error(StatusCode::NOT_FOUND, "not found").into_response()
}

fn too_large() -> Response {
    wire::error(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("a delivery is at most {} KiB", HOOK_BODY / 1024),
    )
    .into_response()
}

/// Any path under `/hooks/` other than the hook path.
pub async fn elsewhere() -> Response {
    not_found()
}

/// `/hooks/{secret}`, any method.
pub async fn receive(
    State(st): State<Arc<HubState>>,
    Path(secret): Path<String>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if !st.hook.matches(&secret) {
        return not_found();
    }
    if method == Method::GET || method == Method::HEAD {
        return ok();
    }
    if method != Method::POST {
        return wire::error(StatusCode::METHOD_NOT_ALLOWED, "deliveries are POSTed").into_response();
    }
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > HOOK_BODY as u64) {
        return too_large();
    }
    let Ok(body) = axum::body::to_bytes(body, HOOK_BODY).await else {
        return too_large();
    };
    st.counters.deliveries.fetch_add(1, Ordering::Relaxed);
    if let Some(secret) = &st.config.webhook_secret {
        let header = headers.get(webhook::SIGNATURE_HEADER).and_then(|v| v.to_str().ok());
        if let Err(e) = webhook::verify(header, &body, secret.as_bytes(), Utc::now().timestamp()) {
            let n = st.counters.bad_signatures.fetch_add(1, Ordering::Relaxed) + 1;
            tracing::warn!("webhook delivery refused: {e} ({n} refused so far)");
            return wire::error(StatusCode::UNAUTHORIZED, &e.to_string()).into_response();
        }
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return ok();
    }
    if let Some(relay) = &st.relay {
        let ct = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        relay.pass(body.clone(), ct);
    }
    accept(&st, &body).await
}

/// A delivery's body, authenticated: checked, deduplicated and queued.
async fn accept(st: &Arc<HubState>, body: &Bytes) -> Response {
    let parsed = serde_json::from_slice::<Value>(body).ok();
    let evented = parsed.as_ref().is_some_and(|v| v.get("event").is_some());
    let Some(delivery) = parsed.and_then(unwrap) else {
        return wire::error(StatusCode::BAD_REQUEST, "the body is not a JSON object").into_response();
    };
    if !evented && delivery.kind == "unknown" {
        // A connection check: a POST without an event.
        return ok();
    }
    if let Some(t) = from_the_future(&delivery) {
        st.counters.refused.fetch_add(1, Ordering::Relaxed);
        tracing::info!("a delivery dated {t}, in the future, was refused");
        return wire::error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "a time in the delivery is in the future",
        )
        .into_response();
    }
    let digest: [u8; 32] = Sha256::digest(body).into();
    let st2 = st.clone();
    let first = tokio::task::spawn_blocking(move || st2.first_delivery(digest))
        .await
        .unwrap_or(true);
    if !first {
        st.counters.redeliveries.fetch_add(1, Ordering::Relaxed);
        return Json(json!({ "status": "ok", "duplicate": true })).into_response();
    }
    let Some(queue) = st.hooks.get(shard(&delivery)) else {
        return wire::error(StatusCode::SERVICE_UNAVAILABLE, "the hub is stopping").into_response();
    };
    match queue.try_send(delivery) {
        Ok(()) => ok(),
        Err(_) => {
            let st2 = st.clone();
            let _ = tokio::task::spawn_blocking(move || st2.forget_delivery(digest)).await;
            wire::error(StatusCode::SERVICE_UNAVAILABLE, "the hub is busy: deliver again later").into_response()
        }
    }
}

/// Works off the queues until the hub stops: one task a queue.
pub async fn work(st: Arc<HubState>, queues: Vec<mpsc::Receiver<Delivery>>) {
    // Dropped with this task when the hub stops: every worker ends too.
    let mut workers = tokio::task::JoinSet::new();
    for mut rx in queues {
        let st = st.clone();
        workers.spawn(async move {
            while let Some(d) = rx.recv().await {
                handle::handle(&st, d).await;
            }
        });
    }
    while workers.join_next().await.is_some() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(v: Value) -> String {
        unwrap(v).map(|d| d.kind).unwrap_or_default()
    }

    #[test]
    fn bare_documented_payloads_are_told_apart() {
        let contact = json!({ "uuid": "c", "name": "John Doe", "phoneNumber": "331122334455" });
        assert_eq!(kind(contact.clone()), "contact_updated");
        assert_eq!(
            kind(json!({ "uuid": "c", "deleted": "2022-10-17T15:15:06.095Z" })),
            "contact_deleted"
        );
        assert_eq!(
            kind(
                json!({ "source": "whatsapp", "href": "h", "contact": contact, "closingReason": "issue_resolved",
                         "createdAt": "2023-11-20T17:14:22Z", "closedAt": "2023-11-20T17:14:22Z" })
            ),
            "conversation_closed"
        );
        assert_eq!(
            kind(
                json!({ "source": "whatsapp", "href": "h", "contact": contact, "closingReason": null,
                         "createdAt": "2023-11-20T17:14:22Z", "closedAt": null })
            ),
            "conversation_opened"
        );
        assert_eq!(
            kind(json!({ "to": "1", "from": "2", "text": "Hello", "status": "received" })),
            "message_created"
        );
        assert_eq!(kind(json!({ "uuid": "m", "status": "read" })), "message_status_updated");
        assert_eq!(kind(json!({})), "unknown");
        assert!(unwrap(json!([1])).is_none());
        let wrapped = unwrap(json!({ "event": "contact_created", "payload": contact })).expect("wrapped");
        assert_eq!(
            (wrapped.kind.as_str(), wrapped.payload["uuid"].as_str()),
            ("contact_created", Some("c"))
        );
    }

    #[test]
    fn a_time_past_the_skew_is_from_the_future_and_one_contact_goes_to_one_worker() {
        let soon = (Utc::now() + chrono::Duration::minutes(4)).to_rfc3339();
        let later = (Utc::now() + chrono::Duration::minutes(6)).to_rfc3339();
        let d = |at: &str| Delivery {
            kind: "message_created".into(),
            payload: json!({ "createdAt": at, "contact": { "uuid": "c" } }),
        };
        assert!(from_the_future(&d(&soon)).is_none(), "inside the skew");
        assert!(from_the_future(&d(&later)).is_some());
        let closed = Delivery {
            kind: "conversation_closed".into(),
            payload: json!({ "closedAt": later, "contact": { "uuid": "c" } }),
        };
        assert!(from_the_future(&closed).is_some());
        assert_eq!(shard(&d(&soon)), shard(&closed), "the same contact, the same worker");
    }
}
