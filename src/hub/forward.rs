//! The service's own `/v1/...` paths, so `api::Client` pointed at the hub
//! with an agent token works unchanged. A contact the index holds is
//! answered from it; everything else is forwarded with the account key.
//! A write is recorded in the audit log before its answer goes back and,
//! when it succeeded, applied to the index and broadcast at once.
//!
//! Only what the allowlist (`route`) admits is forwarded, on a path
//! rebuilt from its checked segments; an agent's token reaches only an
//! agent's routes (403, audited, otherwise), at its own rate (429).

use std::sync::Arc;

use axum::Extension;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use chrono::{SecondsFormat, Utc};
use serde_json::{Value, json};

use super::agents::Role;
use super::auth::Authed;
use super::guard::Outcome;
use super::route::{self, Access, Refused};
use super::state::HubState;
use super::{apply, audit, wire};
use crate::index::IndexAccess;

/// A service answer as the hub passes it on.
pub struct Upstream {
    pub status: StatusCode,
    pub content_type: Option<HeaderValue>,
    pub retry_after: Option<HeaderValue>,
    pub body: Bytes,
}

impl Upstream {
    fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }
}

/// One request to the service with the account key. `path_and_query`
/// starts after `/v1`.
pub async fn upstream(
    st: &HubState,
    method: Method,
    path_and_query: &str,
    content_type: Option<&HeaderValue>,
    body: Bytes,
) -> Result<Upstream, String> {
    let _fg = st.foreground.enter();
    let url = format!("{}{}", st.config.base_url, path_and_query);
    let mut req = st
        .http
        .request(method, &url)
        .bearer_auth(st.config.api_key.expose())
        .header(header::ACCEPT, "application/json");
    if let Some(ct) = content_type {
        req = req.header(header::CONTENT_TYPE, ct.clone());
    }
    if !body.is_empty() {
        req = req.body(body);
    }
    // The error's text names the URL (never the key), which is the
    // service's, not a secret; keep it short anyway.
    let resp = match req.send().await {
        Ok(r) => r,
        Err(e) => {
            observe(st, Outcome::Unreachable);
            return Err(if e.is_timeout() {
                "the service did not answer in time".to_string()
            } else {
                "the service could not be reached".to_string()
            });
        }
    };
    observe(st, Outcome::of_status(resp.status().as_u16()));
    let status = StatusCode::from_u16(resp.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
    let content_type = resp.headers().get(header::CONTENT_TYPE).cloned();
    let retry_after = resp.headers().get(header::RETRY_AFTER).cloned();
    let body = resp
        .bytes()
        .await
        .map_err(|_| "the service's answer was cut short".to_string())?;
    let body = redact_key(body, st.config.api_key.expose());
    let clean = |v: Option<HeaderValue>| v.filter(|v| !contains(v.as_bytes(), st.config.api_key.expose().as_bytes()));
    let (content_type, retry_after) = (clean(content_type), clean(retry_after));
    Ok(Upstream {
        status,
        content_type,
        retry_after,
        body,
    })
}

/// Notes what a request to the service came to; a change of the
/// service's state is announced to every agent (`service_status`).
pub fn observe(st: &HubState, outcome: Outcome) {
    if let Some(data) = st.guard.health.record(outcome) {
        tracing::warn!("the service is now {}", data["state"].as_str().unwrap_or("?"));
        st.bus.publish(super::guard::SERVICE_STATUS, &data);
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

/// An upstream that echoes the request (as TRACE does) must not hand the
/// agent the account key: any copy of it in a body is blanked.
fn redact_key(body: Bytes, key: &str) -> Bytes {
    if !contains(&body, key.as_bytes()) {
        return body;
    }
    let text = String::from_utf8_lossy(&body).replace(key, "[redacted]");
    Bytes::from(text.into_bytes())
}

/// 403 (audited) when `who` may not use `route`.
fn refuse(st: &HubState, who: &Authed, method: &Method, route: &route::Route) -> Option<Response> {
    let why = match route.access {
        _ if who.agent.role == Role::Admin => return None,
        Access::Agent => return None,
        Access::OwnUser => match (&who.agent.user_uuid, &route.user) {
            (Some(mine), Some(asked)) if mine.eq_ignore_ascii_case(asked) => return None,
            (None, _) => "the hub knows no user uuid for this agent: an admin sets it (hub agents add --user-uuid)",
            _ => "an agent may change only its own user's status",
        },
        Access::Admin => "this needs an admin's token (frontdesk hub agents role NAME admin)",
    };
    record(st, who, method, &route.path, StatusCode::FORBIDDEN, None);
    Some(wire::error(StatusCode::FORBIDDEN, why).into_response())
}

/// An agent deletes only a message it sent through the hub (the `sent`
/// table names the sender); an admin any.
fn refuse_delete(st: &HubState, who: &Authed, method: &Method, path: &str, body: &Bytes) -> Option<Response> {
    if *method != Method::DELETE || who.agent.role == Role::Admin {
        return None;
    }
    let id = match path.strip_prefix("/messages") {
        Some("") => serde_json::from_slice::<Value>(body)
            .ok()
            .and_then(|v| v.get("uuid").and_then(Value::as_str).map(str::to_string)),
        Some(rest) => rest.strip_prefix('/').map(str::to_string),
        None => return None,
    };
    let own = id.is_some_and(|id| {
        st.store
            .conn()
            .query_row(
                "SELECT 1 FROM sent WHERE (message = ?1 OR listed = ?1) AND agent = ?2 LIMIT 1",
                [id.as_str(), who.agent.name.as_str()],
                |_| Ok(()),
            )
            .is_ok()
    });
    if own {
        return None;
    }
    record(st, who, method, path, StatusCode::FORBIDDEN, None);
    Some(
        wire::error(
            StatusCode::FORBIDDEN,
            "an agent may delete only a message it sent through the hub",
        )
        .into_response(),
    )
}

/// The contact uuid a path names (`/contacts/:uuid/...`, `/contact/:uuid`).
fn contact_in_path(path: &str) -> Option<&str> {
    let mut parts = path.trim_start_matches('/').split('/');
    match (parts.next(), parts.next()) {
        (Some("contacts" | "contact"), Some(id)) if super::presence::valid_uuid(id) => Some(id),
        _ => None,
    }
}

pub async fn handle(
    State(st): State<Arc<HubState>>,
    Extension(who): Extension<Authed>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let route = match route::parse(&method, &uri) {
        Ok(r) => r,
        Err(Refused::Bad(why)) => return wire::error(StatusCode::BAD_REQUEST, why).into_response(),
        Err(Refused::Unknown) => {
            return wire::error(StatusCode::NOT_FOUND, "the hub does not forward this method and path").into_response();
        }
    };
    if let Some(refused) = refuse(&st, &who, &method, &route) {
        return refused;
    }
    if let Some(refused) = refuse_delete(&st, &who, &method, &route.path, &body) {
        return refused;
    }
    if let Err(wait) = st.guard.limiter.take(&who.agent.name) {
        let mut resp = wire::error(
            StatusCode::TOO_MANY_REQUESTS,
            "too many requests from this agent: slow down",
        )
        .into_response();
        resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(wait));
        return resp;
    }
    let path_and_query = route.path_and_query();
    let path = route.path;
    if method == Method::GET
        && route.query.is_none()
        && let Some(resp) = from_index(&st, &path)
    {
        return resp;
    }
    if method == Method::GET
        && path == "/contacts"
        && let Some(resp) = super::pages::answer(&st, route.query.as_deref())
    {
        return resp;
    }
    let write = !matches!(method, Method::GET | Method::HEAD | Method::OPTIONS);
    let writing = write.then(|| writing_key(&path, &body)).flatten();
    let mut in_flight = writing.as_deref().map(|key| st.writers.start(key, &who.agent.name));
    let asked_at = Utc::now();
    let answer = upstream(
        &st,
        method.clone(),
        &path_and_query,
        headers.get(header::CONTENT_TYPE),
        body.clone(),
    )
    .await;
    let answer = match answer {
        Ok(a) => a,
        Err(why) => {
            if write {
                record(
                    &st,
                    &who,
                    &method,
                    &path,
                    StatusCode::BAD_GATEWAY,
                    contact_in_path(&path),
                );
            }
            return wire::error(StatusCode::BAD_GATEWAY, &why).into_response();
        }
    };
    if write {
        let json = answer.json();
        let mut contact = contact_in_path(&path)
            .map(str::to_string)
            .or_else(|| json.as_ref().and_then(apply::contact_in).map(|c| c.uuid));
        if answer.status.is_success() {
            // Kept before it is broadcast: a reader the event sends to the
            // timeline finds it there.
            super::timeline::note(&st.store, &who.agent.name, &method, &path, &body, contact.as_deref());
            // Another write to this contact overlapped: whichever answer
            // came last need not be the service's last state, so the
            // contact is read back once neither is in flight, and that is
            // what the index keeps (before this agent hears, so its own
            // read-back through the hub finds it).
            let contended = in_flight.as_ref().is_some_and(super::writers::Writing::contended);
            let json = match contact_in_path(&path) {
                Some(uuid) if contended => {
                    drop(in_flight.take());
                    read_back(&st, uuid).await.or(json)
                }
                _ => json,
            };
            // A send's contact is known once it is fetched again.
            let sent_to = after_write(&st, &who, &method, &path, &body, json.as_ref(), asked_at).await;
            contact = contact.or(sent_to);
        }
        record(&st, &who, &method, &path, answer.status, contact.as_deref());
    }
    let mut answer = answer;
    if method == Method::GET
        && answer.status.is_success()
        && let Some(contact) = super::sent::messages_path(&path)
    {
        name_senders(&st, contact, &mut answer);
    }
    let mut resp = Response::builder().status(answer.status);
    if let Some(ct) = answer.content_type {
        resp = resp.header(header::CONTENT_TYPE, ct);
    }
    if let Some(ra) = answer.retry_after {
        resp = resp.header(header::RETRY_AFTER, ra);
    }
    resp.body(Body::from(answer.body))
        .unwrap_or_else(|_| StatusCode::BAD_GATEWAY.into_response())
}

/// A contact's message list: each message an agent sent through the hub
/// names the agent (`sentBy`, see `sent`).
fn name_senders(st: &HubState, contact: &str, answer: &mut Upstream) {
    let Some(mut body) = answer.json() else { return };
    if let Err(e) = super::rich::attach(&st.store, contact, &mut body) {
        tracing::warn!("what the webhooks carried could not be read: {e}");
    }
    match super::sent::annotate(&st.store, contact, &mut body) {
        Ok(_) => {
            if let Ok(bytes) = serde_json::to_vec(&body) {
                answer.body = Bytes::from(bytes);
            }
        }
        Err(e) => tracing::warn!("who sent which message could not be read: {e}"),
    }
}

fn record(st: &HubState, who: &Authed, method: &Method, path: &str, status: StatusCode, contact: Option<&str>) {
    if let Err(e) = audit::record(
        &st.store,
        &who.agent.name,
        method.as_str(),
        path,
        status.as_u16(),
        contact,
    ) {
        tracing::error!("the audit log could not be written: {e}");
    }
}

/// The longest a contended write waits for the others to its contact.
const CONTENDED_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The contact as the service holds it once no write to it is in flight
/// (`None`: it could not be read; the write's own answer stands then).
async fn read_back(st: &HubState, uuid: &str) -> Option<Value> {
    if !st.writers.settled(uuid, CONTENDED_WAIT).await {
        tracing::warn!("writes to one contact still in flight after {CONTENDED_WAIT:?}: reading it back anyway");
    }
    let got = upstream(st, Method::GET, &format!("/contacts/{uuid}"), None, Bytes::new()).await;
    match got {
        Ok(u) if u.status.is_success() => u.json(),
        _ => None,
    }
}

/// What a write is registered under while in flight (see `writers`):
/// the contact its path names, or the phone number a send goes to.
fn writing_key(path: &str, body: &Bytes) -> Option<String> {
    if let Some(uuid) = contact_in_path(path) {
        return Some(uuid.to_string());
    }
    if path.trim_end_matches('/') != "/messages/send" {
        return None;
    }
    let req = serde_json::from_slice::<Value>(body).ok()?;
    Some(super::writers::send_key(req.get("to")?.as_str()?))
}

/// `GET /contacts/:uuid` from the index, when it holds the contact.
fn from_index(st: &HubState, path: &str) -> Option<Response> {
    let uuid = contact_in_path(path)?;
    if path.trim_end_matches('/').split('/').count() != 3 {
        return None;
    }
    let mut index = st.index.clone();
    let contact = index.with(|ix| ix.get(uuid)).ok().flatten()?;
    Some(axum::Json(json!({ "contact": [contact] })).into_response())
}

/// A write succeeded: the index learns its result and everyone hears of it.
/// A send answers the contact it went to, for the audit log.
async fn after_write(
    st: &HubState,
    who: &Authed,
    method: &Method,
    path: &str,
    sent: &Bytes,
    answer: Option<&Value>,
    asked_at: chrono::DateTime<Utc>,
) -> Option<String> {
    let now = Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true);
    if let Some(contact) = answer.and_then(apply::contact_in) {
        if apply::contact(st, &contact) != apply::Applied::Stored {
            // The service's webhook got here first and announced the
            // change, naming this agent (see `writers`); or nothing changed.
            return None;
        }
        let kind = if path.ends_with("/conversation/close") {
            Some(wire::kind::CONVERSATION_CLOSED)
        } else if path.ends_with("/conversation/open") {
            Some(wire::kind::CONVERSATION_OPENED)
        } else {
            None
        };
        if let Some(kind) = kind {
            let at = contact
                .closed_at
                .filter(|_| kind == wire::kind::CONVERSATION_CLOSED)
                .map(|t| t.to_rfc3339_opts(SecondsFormat::Millis, true))
                .unwrap_or(now);
            st.bus.publish(
                kind,
                &json!({ "contact": contact.uuid, "agent": who.agent.name, "at": at }),
            );
        }
        return None;
    }
    if *method == Method::POST && path.trim_end_matches('/') == "/messages/send" {
        // The service's answer carries no time: the message is dated
        // when the send went (to the millisecond, as the service dates
        // it), never after the service's own `createdAt`. Dated when the
        // answer came, it was newer than the message the service lists,
        // so every agent's copy of that last message read as stale for
        // good (Waiting `≥` on both TUIs of a shift).
        let sent_at = asked_at.to_rfc3339_opts(SecondsFormat::Millis, true);
        return message_sent(st, who, sent, answer, sent_at).await;
    }
    None
}

/// After a send: the contact (fetched again: its activity moved) and a
/// `message_created` naming the agent.
async fn message_sent(
    st: &HubState,
    who: &Authed,
    sent: &Bytes,
    answer: Option<&Value>,
    now: String,
) -> Option<String> {
    let Ok(req) = serde_json::from_slice::<Value>(sent) else {
        return None;
    };
    let to = req.get("to").and_then(Value::as_str)?;
    // The documented lookup by number, on the send's channel (a contact's
    // own path takes only its uuid).
    let encoded: String = url::form_urlencoded::byte_serialize(to.as_bytes()).collect();
    let mut lookup = format!("/contacts/phone/{encoded}");
    if let Some(channel) = req.get("channel_uuid").and_then(Value::as_str) {
        let channel: String = url::form_urlencoded::byte_serialize(channel.as_bytes()).collect();
        lookup.push_str(&format!("?channel_uuid={channel}"));
    }
    let fetched = upstream(st, Method::GET, &lookup, None, Bytes::new()).await;
    let contact = fetched.ok().and_then(|u| u.json()).as_ref().and_then(apply::contact_in);
    let sent_message = answer.and_then(|a| a.get("message"));
    // A template's text is the service's to fill: matched by uuid only.
    let text = req
        .get("content")
        .and_then(|c| c.get("text"))
        .and_then(Value::as_str)
        .filter(|_| req.get("template_uuid").is_none_or(Value::is_null));
    let send = super::sent::Send {
        message: sent_message.and_then(|m| m.get("uuid")).and_then(Value::as_str),
        contact: contact.as_ref().map(|c| c.uuid.as_str()),
        to,
        text,
        agent: &who.agent.name,
    };
    if let Err(e) = super::sent::record(&st.store, send, Utc::now()) {
        tracing::error!("who sent a message could not be kept: {e}");
    }
    let contact = contact?;
    // The hub's own read of the conversation may have come first.
    super::reconcile::name_agents(st, &mut st.index.clone(), &contact.uuid);
    apply::contact(st, &contact);
    if let Some(m) = sent_message.and_then(|m| m.get("uuid")).and_then(Value::as_str)
        && !st.remember_message(m, &contact.uuid)
    {
        // The service's webhook announced it already, naming this agent.
        return Some(contact.uuid);
    }
    let message = json!({
        "uuid": sent_message.and_then(|m| m.get("uuid")),
        // Whose side wrote it, as `message_created` says it (`received`
        // or `sent`); how far it got is `message_status`'s to tell. The
        // send's answer says "enqueued", which read as neither: the
        // customer it answered stayed waiting on every agent's screen.
        "status": "sent",
        "text": text,
        "to": to,
        "createdAt": now,
        "sentBy": who.agent.name,
    });
    st.bus.publish(
        wire::kind::MESSAGE_CREATED,
        &json!({ "contact": contact.uuid, "message": message, "agent": who.agent.name }),
    );
    Some(contact.uuid)
}
