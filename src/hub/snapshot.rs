//! `GET /hub/v1/snapshot` (the whole index as NDJSON, so a new agent has
//! complete views at once) and `GET /hub/v1/whoami`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::auth::Authed;
use super::state::HubState;
use super::wire;
use crate::index::{IndexAccess, Order, Preview, WaitingFacts, Who};

/// Contacts encoded per chunk of the body.
const CHUNK: usize = 500;

pub async fn snapshot(State(st): State<Arc<HubState>>) -> Response {
    // The cursor first: everything published up to it is in the index
    // already (changes are applied, then published), and what comes after
    // is replayed to a stream opened with it.
    let cursor = st.bus.last_id();
    let mut index = st.index.clone();
    let read = tokio::task::spawn_blocking(move || {
        index.with(|ix| -> Result<_, crate::index::IndexError> {
            Ok((
                ix.list(Order::Activity, usize::MAX, 0)?,
                ix.account()?,
                ix.all_previews()?,
                ix.waiting_facts()?,
                ix.sync_state()?.full_walk_finished_at.is_some(),
            ))
        })
    })
    .await;
    let (contacts, account, previews, mut facts, complete) = match read {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            tracing::error!("snapshot: {e}");
            return wire::error(StatusCode::SERVICE_UNAVAILABLE, "the hub's index cannot be read").into_response();
        }
        Err(e) => {
            tracing::error!("snapshot task: {e}");
            return wire::error(StatusCode::INTERNAL_SERVER_ERROR, "the snapshot failed").into_response();
        }
    };
    let account = account.unwrap_or_else(|| {
        Sha256::digest(st.config.base_url.as_bytes())
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect()
    });
    // `complete`: the hub has walked the whole account once (before, the
    // snapshot holds what it has read so far).
    let head = json!({ "cursor": cursor, "contacts": contacts.len(), "account": account,
                       "service": st.guard.health.status(), "complete": complete });
    let mut first = head.to_string();
    first.push('\n');
    let mut previews: HashMap<String, Preview> = previews.into_iter().collect();
    let chunks: Vec<Vec<Line>> = {
        let mut out = Vec::new();
        let mut it = contacts
            .into_iter()
            .map(|c| {
                // Only a last message as of the contact's activity now says
                // who wrote last.
                let p = previews.remove(&c.uuid).filter(|p| p.activity == c.last_activity());
                let f = p.as_ref().and_then(|_| facts.remove(&c.uuid)).unwrap_or_default();
                (c, p.map(|p| (p, f)))
            })
            .peekable();
        while it.peek().is_some() {
            out.push(it.by_ref().take(CHUNK).collect());
        }
        out
    };
    let body = futures::stream::iter(std::iter::once(Ok::<Bytes, std::io::Error>(Bytes::from(first))).chain(
        chunks.into_iter().map(|chunk| {
            let mut buf = Vec::with_capacity(chunk.len() * 512);
            for (c, p) in &chunk {
                write_line(&mut buf, c, p.as_ref().map(|(p, f)| (p, f))).map_err(std::io::Error::other)?;
            }
            Ok(Bytes::from(buf))
        }),
    ));
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(body),
    )
        .into_response()
}

/// A contact and the last message of its conversation with its waiting
/// facts, when the index holds a current one.
type Line = (crate::api::Contact, Option<(Preview, WaitingFacts)>);

/// One snapshot line: the contact as the service shows it and, when known,
/// the conversation's last message under `hubPreview`
/// (`{"status": "received|sent|note", "text", "createdAt", "activity",
/// "lastCustomerAt", "lastReplyAt"}`, `status` and `createdAt` absent for
/// a conversation without messages; `lastCustomerAt` and `lastReplyAt`
/// are the newest received and sent messages of the cached page, absent
/// when it has none). The contact carries its state (`closedAt`) and
/// owner (`assignedUser`): with these, who waits and since when is known
/// at once. A reader that does not know the key reads the contact alone.
fn write_line(
    buf: &mut Vec<u8>,
    c: &crate::api::Contact,
    p: Option<(&Preview, &WaitingFacts)>,
) -> serde_json::Result<()> {
    let start = buf.len();
    serde_json::to_writer(&mut *buf, c)?;
    if let Some(p) = p
        && buf.last() == Some(&b'}')
        && buf.len() > start + 2
    {
        buf.pop();
        buf.extend_from_slice(b",\"hubPreview\":");
        serde_json::to_writer(&mut *buf, &preview_json(p.0, p.1))?;
        buf.push(b'}');
    }
    buf.push(b'\n');
    Ok(())
}

pub(super) fn preview_json(p: &Preview, f: &WaitingFacts) -> serde_json::Value {
    let stamp =
        |t: Option<chrono::DateTime<chrono::Utc>>| t.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Micros, true));
    let status = p.who.map(|w| match w {
        Who::Customer => "received",
        Who::Agent => "sent",
        Who::Note => "note",
    });
    let mut v = json!({ "text": p.text, "activity": stamp(p.activity) });
    if let Some(s) = status {
        v["status"] = json!(s);
    }
    if let Some(at) = stamp(p.at) {
        v["createdAt"] = json!(at);
    }
    if let Some(at) = stamp(f.last_customer_at) {
        v["lastCustomerAt"] = json!(at);
    }
    if let Some(at) = stamp(f.last_reply_at) {
        v["lastReplyAt"] = json!(at);
    }
    // Who wrote the last reply and since when the customer waits, as the
    // hub's whole page says: from the three messages above alone, an
    // agent's reply within seconds of the customer read as a bot's (a new
    // agent's Waiting 4 over the service's), and the clock ran from the
    // customer's latest message instead of their first unanswered one.
    if let Some(by) = &f.last_reply_by {
        v["lastReplyBy"] = json!(by);
    }
    if let crate::index::Wait::Since { since: Some(since), .. } = p.wait {
        v["waitingSince"] = json!(stamp(Some(since)));
    }
    v
}

pub async fn whoami(State(st): State<Arc<HubState>>, Extension(who): Extension<Authed>) -> Response {
    Json(json!({
        "agent": who.agent.name,
        "email": who.agent.email,
        "user_uuid": who.agent.user_uuid,
        "role": who.agent.role,
        "expires_at": who.agent.expires_at,
        "service": st.guard.health.status(),
    }))
    .into_response()
}
