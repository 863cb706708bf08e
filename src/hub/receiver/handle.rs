//! Working one delivery: what it claims is merged into the index (a short
//! contact never replaces the held one), confirmed by REST when the hub
//! cannot vouch for it (see `confirm`), and announced.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Map, Value, json};

use super::confirm::{self, Answer};
use crate::api::Contact;
use crate::hub::apply;
use crate::hub::delivery::Delivery;
use crate::hub::state::HubState;
use crate::hub::wire;
use crate::index::Merged;
use crate::text::sanitize_line;

/// Keys that change a contact's owner or state: a delivery's word on them
/// is confirmed by REST before it is stored.
const OWNER_OR_STATE: &[&str] = &["assignedUser", "closedAt", "team", "blockedAt", "funnelId"];

/// Runs `f` on a blocking thread (SQLite stays off the async threads).
async fn blocking<R: Send + 'static>(st: &Arc<HubState>, f: impl FnOnce(&HubState) -> R + Send + 'static) -> Option<R> {
    let st = st.clone();
    tokio::task::spawn_blocking(move || f(&st)).await.ok()
}

fn uuid_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        obj => obj.get("uuid").and_then(Value::as_str).map(str::to_string),
    }
}

fn time_of(v: Option<&Value>) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(v?.as_str()?)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// What merging a short contact came to.
enum Outcome {
    /// Merged (or the same as held); the contact as held now.
    Held(Box<Contact>),
    /// The index holds a newer state of it: left alone.
    Older,
    /// The hub cannot vouch for it: ask the service.
    Confirm { held: bool },
}

/// Merges the present keys of `partial` except owner and state; a claim
/// on those that differs from what is held asks for a confirmation.
fn merge_short(st: &HubState, partial: &Map<String, Value>) -> Outcome {
    let Some(uuid) = partial.get("uuid").and_then(Value::as_str) else {
        return Outcome::Confirm { held: false };
    };
    let Some(held) = apply::held(st, uuid) else {
        return Outcome::Confirm { held: false };
    };
    let mut safe = partial.clone();
    let mut claims = Map::new();
    for k in OWNER_OR_STATE {
        if let Some(v) = safe.remove(*k) {
            claims.insert((*k).to_string(), v);
        }
    }
    if crate::index::overlay(&held, &claims).is_some_and(|c| c != held) {
        // Nothing of it is stored before the service confirms it.
        return Outcome::Confirm { held: true };
    }
    if let Some(merged) = crate::index::overlay(&held, &safe)
        && held.last_activity() > merged.last_activity()
    {
        st.counters.stale_events.fetch_add(1, Ordering::Relaxed);
        return Outcome::Older;
    }
    Outcome::Held(match apply::merge(st, &safe) {
        Merged::Changed(c) => c,
        Merged::Same | Merged::NotHeld => Box::new(held),
    })
}

/// The contact a short contact names, merged, or confirmed by the
/// service first; `None` when the service does not vouch for it.
async fn vouched(st: &Arc<HubState>, partial: Map<String, Value>, key: Option<String>) -> Option<Contact> {
    let p = partial.clone();
    let outcome = if p.is_empty() {
        Outcome::Confirm { held: false }
    } else {
        blocking(st, move |st| merge_short(st, &p)).await?
    };
    match outcome {
        Outcome::Held(c) => Some(*c),
        Outcome::Older => None,
        Outcome::Confirm { held } => {
            let key = partial
                .get("uuid")
                .and_then(Value::as_str)
                .map(str::to_string)
                .or(key)?;
            match confirm::contact(st, &key, held).await {
                Answer::Exists(raw) => blocking(st, move |st| apply::confirmed(st, &raw)).await.flatten(),
                Answer::Gone => {
                    st.counters.refused.fetch_add(1, Ordering::Relaxed);
                    tracing::info!("a delivery named a contact the service does not know: ignored");
                    None
                }
                Answer::Unknown => None,
            }
        }
    }
}

pub(super) async fn handle(st: &Arc<HubState>, d: Delivery) {
    let p = d.payload;
    match d.kind.as_str() {
        "contact_created" | "contact_updated" => match p {
            Value::Object(map) if map.contains_key("uuid") => {
                vouched(st, map, None).await;
            }
            _ => tracing::info!("a {} event without a contact was ignored", d.kind),
        },
        "contact_deleted" => match uuid_of(p.get("contact")).or_else(|| uuid_of(Some(&p))) {
            Some(uuid) => deleted(st, uuid).await,
            None => tracing::info!("a contact_deleted event without a uuid was ignored"),
        },
        "message_created" => message(st, p).await,
        "message_status_updated" => status(st, &p),
        "conversation_opened" | "conversation_closed" => conversation(st, d.kind == "conversation_closed", p).await,
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

/// `{uuid, deleted}`: removed once the service says it is gone.
async fn deleted(st: &Arc<HubState>, uuid: String) {
    let u = uuid.clone();
    if blocking(st, move |st| apply::held(st, &u)).await.flatten().is_none() {
        return;
    }
    if confirm::contact(st, &uuid, true).await == Answer::Gone {
        let _ = blocking(st, move |st| apply::deleted(st, &uuid)).await;
    } else {
        st.counters.refused.fetch_add(1, Ordering::Relaxed);
        tracing::info!("a contact_deleted event the service does not confirm was ignored");
    }
}

fn status(st: &HubState, p: &Value) {
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

/// The customer's side of a message: `from` on a received one, `to` on
/// one sent (the key a message without its contact is looked up by).
fn customer_side(p: &Value) -> Option<String> {
    let received = p.get("status").and_then(Value::as_str) == Some("received");
    let key = if received { "from" } else { "to" };
    p.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

async fn message(st: &Arc<HubState>, p: Value) {
    let partial = match p.get("contact") {
        Some(Value::Object(m)) => m.clone(),
        Some(Value::String(uuid)) => Map::from_iter([("uuid".to_string(), Value::String(uuid.clone()))]),
        _ => Map::new(),
    };
    let older_ok = partial.clone();
    let contact = match vouched(st, partial, customer_side(&p).map(|n| confirm::phone_key(&n))).await {
        Some(c) => Some(c),
        // A message older than what is held still belongs to the contact.
        None => {
            let uuid = older_ok.get("uuid").and_then(Value::as_str).map(str::to_string);
            match uuid {
                Some(u) => blocking(st, move |st| apply::held(st, &u)).await.flatten(),
                None => None,
            }
        }
    };
    let Some(contact) = contact else {
        tracing::info!("a message_created event for a contact the hub cannot vouch for was ignored");
        return;
    };
    // The message is the conversation's newest activity the hub knows of.
    // Agents learn it from the `message_created` event itself, so the hub
    // keeps it without a `contact_changed` as well: at 200 streams, a
    // second event per message was what pushed a burst's p99 past 500 ms.
    if let Some(at) = time_of(p.get("createdAt"))
        && contact.last_activity().is_none_or(|held| held < at)
    {
        let mut moved = contact.clone();
        moved.activity_at = Some(at);
        let _ = blocking(st, move |st| apply::activity(st, &moved)).await;
    }
    let (c, payload) = (contact.clone(), p.clone());
    let _ = blocking(st, move |st| crate::hub::reconcile::keep_last_message(st, &c, &payload)).await;
    let (c, payload) = (contact.uuid.clone(), p.clone());
    if let Some(Err(e)) = blocking(st, move |st| crate::hub::rich::keep(&st.store, &c, &payload)).await {
        tracing::warn!("what a message's webhook carried could not be kept: {e}");
    }
    if let Some(m) = p.get("uuid").and_then(Value::as_str)
        && !st.remember_message(m, &contact.uuid)
    {
        // A send through the hub announced it already.
        return;
    }
    if p.get("uuid").is_none() && p.get("status").and_then(Value::as_str) != Some("received") {
        // The documented payload has no uuid: a send through the hub is
        // matched by contact, direction, text and time, and was announced.
        let (u, to) = (
            contact.uuid.clone(),
            p.get("to").and_then(Value::as_str).unwrap_or_default().to_string(),
        );
        let text = p.get("text").and_then(Value::as_str).map(str::to_string);
        let created = time_of(p.get("createdAt")).unwrap_or_else(Utc::now);
        let echoed = blocking(st, move |st| {
            crate::hub::sent::echo(&st.store, &u, &to, text.as_deref(), created)
        })
        .await;
        match echoed {
            Some(Ok(Some(_))) => return,
            Some(Err(e)) => tracing::warn!("matching a message to a send failed: {e}"),
            _ => {}
        }
    }
    let agent = if p.get("status").and_then(Value::as_str) == Some("received") {
        None
    } else {
        let to = p.get("to").and_then(Value::as_str).unwrap_or_default();
        st.writers
            .of(&contact.uuid)
            .or_else(|| st.writers.of(&crate::hub::writers::send_key(to)))
    };
    let mut message = p.clone();
    if let Value::Object(m) = &mut message {
        m.remove("contact");
        m.remove(crate::hub::sent::FIELD);
        if let Some(agent) = &agent {
            m.insert(crate::hub::sent::FIELD.into(), Value::String(agent.clone()));
            // The webhook overtook the send's answer: its uuid (when the
            // service gives one) is the listed message's (see `sent`).
            let send = crate::hub::sent::Send {
                message: p.get("uuid").and_then(Value::as_str),
                contact: Some(&contact.uuid),
                to: p.get("to").and_then(Value::as_str).unwrap_or_default(),
                text: p.get("text").and_then(Value::as_str),
                agent,
            };
            if let Err(e) = crate::hub::sent::record(&st.store, send, Utc::now()) {
                tracing::error!("who sent a message could not be kept: {e}");
            }
        }
    }
    st.bus.publish(
        wire::kind::MESSAGE_CREATED,
        &json!({ "contact": contact.uuid, "message": message, "agent": agent }),
    );
}

/// A Conversation `{source, href, contact, closingReason, createdAt,
/// closedAt}` (or, from older servers, the contact itself): the state it
/// claims is stored once the service confirms it, with the reason.
async fn conversation(st: &Arc<HubState>, closed: bool, p: Value) {
    let (mut partial, top) = match p.get("contact") {
        Some(Value::Object(m)) => (m.clone(), true),
        _ => match &p {
            Value::Object(m) => (m.clone(), false),
            _ => (Map::new(), false),
        },
    };
    let Some(uuid) = partial.get("uuid").and_then(Value::as_str).map(str::to_string) else {
        tracing::info!("a conversation event without its contact was ignored");
        return;
    };
    let closed_at = if closed {
        let at = if top {
            p.get("closedAt")
        } else {
            partial.get("closedAt")
        };
        Some(time_of(at).unwrap_or_else(Utc::now))
    } else {
        None
    };
    partial.insert(
        "closedAt".into(),
        closed_at.map_or(Value::Null, |t| Value::String(stamp(t))),
    );
    let reason = p
        .get("closingReason")
        .and_then(Value::as_str)
        .map(|r| sanitize_line(r).chars().take(200).collect::<String>());
    let u = uuid.clone();
    let before = blocking(st, move |st| apply::held(st, &u)).await.flatten();
    let Some(now) = vouched(st, partial, None).await else {
        return;
    };
    if now.is_open() == closed {
        tracing::info!("a conversation event the service does not confirm was ignored");
        st.counters.refused.fetch_add(1, Ordering::Relaxed);
        return;
    }
    if closed {
        let (u, r, at) = (uuid.clone(), reason.clone(), now.closed_at);
        let _ = blocking(st, move |st| {
            if let Err(e) = st.store.set_closing(&u, at, r.as_deref()) {
                tracing::warn!("a closing reason could not be kept: {e}");
            }
        })
        .await;
    }
    if before.is_some_and(|b| b.is_open() != closed) {
        // The index held it so already: the write's own answer (or an
        // earlier delivery) announced this change.
        return;
    }
    let (kind, at) = if closed {
        (wire::kind::CONVERSATION_CLOSED, now.closed_at.map(stamp))
    } else {
        (wire::kind::CONVERSATION_OPENED, None)
    };
    st.bus.publish(
        kind,
        &json!({ "contact": uuid, "agent": st.writers.of(&uuid),
                 "at": at.unwrap_or_else(|| stamp(Utc::now())), "reason": reason }),
    );
}
