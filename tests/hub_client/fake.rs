//! The fake hub: an axum router on 127.0.0.1:0 that speaks the hub's wire
//! protocol, recording what it was asked.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use frontdesk::hubclient::Backoff;
use serde_json::{Value, json};

/// A stream batch that sends a keep-alive and then nothing, never ending.
pub const HANG: &str = "HANG";

pub const TOKEN: &str = "agent-token-dana-0042";

#[derive(Default)]
pub struct Fake {
    /// Contacts of the snapshot, newest first.
    pub contacts: Vec<Value>,
    pub cursor: u64,
    pub account: String,
    /// What connection N of the event stream sends before it ends.
    pub streams: Vec<String>,
    /// Contacts the header promises beyond those sent (a cut-off snapshot).
    pub missing: usize,
    /// Bodies posted to /hub/v1/presence.
    pub presence: Vec<Value>,
    /// Every request: (path, Last-Event-ID).
    pub seen: Vec<(String, Option<String>)>,
}

pub type Shared = Arc<Mutex<Fake>>;

pub fn authorized(h: &HeaderMap) -> bool {
    h.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {TOKEN}"))
}

pub fn refused() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        axum::Json(json!({ "error": "unknown or removed agent token" })),
    )
        .into_response()
}

pub fn record(f: &Shared, path: &str, h: &HeaderMap) {
    let last = h.get("last-event-id").and_then(|v| v.to_str().ok()).map(str::to_string);
    f.lock().unwrap().seen.push((path.to_string(), last));
}

pub async fn snapshot(State(f): State<Shared>, h: HeaderMap) -> Response {
    record(&f, "/hub/v1/snapshot", &h);
    if !authorized(&h) {
        return refused();
    }
    let f = f.lock().unwrap();
    let mut body =
        json!({ "cursor": f.cursor, "contacts": f.contacts.len() + f.missing, "account": f.account }).to_string();
    for c in &f.contacts {
        body.push('\n');
        body.push_str(&c.to_string());
    }
    body.push('\n');
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

pub async fn events(State(f): State<Shared>, h: HeaderMap) -> Response {
    record(&f, "/hub/v1/events", &h);
    if !authorized(&h) {
        return refused();
    }
    let mut f = f.lock().unwrap();
    let body = if f.streams.is_empty() {
        String::new()
    } else {
        f.streams.remove(0)
    };
    if body == HANG {
        let alive = futures::stream::once(async { Ok::<_, std::convert::Infallible>(": keep-alive\n\n") });
        let stream = futures::StreamExt::chain(alive, futures::stream::pending());
        let body = axum::body::Body::from_stream(stream);
        return ([(header::CONTENT_TYPE, "text/event-stream")], body).into_response();
    }
    // The body ends after the batch: the client sees the stream drop.
    (
        [(header::CONTENT_TYPE, "text/event-stream")],
        format!(": keep-alive\n\n{body}"),
    )
        .into_response()
}

pub async fn one_contact(State(f): State<Shared>, Path(uuid): Path<String>, h: HeaderMap) -> Response {
    record(&f, &format!("/v1/contacts/{uuid}"), &h);
    if !authorized(&h) {
        return refused();
    }
    let f = f.lock().unwrap();
    match f.contacts.iter().find(|c| c["uuid"] == uuid.as_str()) {
        Some(c) => axum::Json(json!({ "contact": [c] })).into_response(),
        None => (StatusCode::NOT_FOUND, axum::Json(json!({ "error": "not found" }))).into_response(),
    }
}

pub async fn whoami(State(f): State<Shared>, h: HeaderMap) -> Response {
    record(&f, "/hub/v1/whoami", &h);
    if !authorized(&h) {
        return refused();
    }
    axum::Json(json!({ "agent": "dana", "email": "dana@example.com", "user_uuid": null })).into_response()
}

pub async fn presence(State(f): State<Shared>, h: HeaderMap, axum::Json(body): axum::Json<Value>) -> Response {
    record(&f, "/hub/v1/presence", &h);
    if !authorized(&h) {
        return refused();
    }
    f.lock().unwrap().presence.push(body);
    StatusCode::NO_CONTENT.into_response()
}

pub async fn fake_hub(fake: Fake) -> (String, Shared) {
    let shared: Shared = Arc::new(Mutex::new(fake));
    let app = axum::Router::new()
        .route("/hub/v1/snapshot", axum::routing::get(snapshot))
        .route("/hub/v1/events", axum::routing::get(events))
        .route("/hub/v1/whoami", axum::routing::get(whoami))
        .route("/hub/v1/presence", axum::routing::post(presence))
        .route("/v1/contacts/{uuid}", axum::routing::get(one_contact))
        .with_state(shared.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, shared)
}

pub fn contact(uuid: &str, name: &str, minute: u32) -> Value {
    json!({
        "uuid": uuid, "name": name, "phoneNumber": format!("+49151000{minute:04}"),
        "source": "whatsapp", "createdAt": "2026-01-01T00:00:00Z",
        "lastMessageAt": format!("2026-01-02T10:{minute:02}:00Z"), "tags": [], "customFields": {},
        "closedAt": null, "assignedUser": null
    })
}

pub fn fake_with(contacts: Vec<Value>) -> Fake {
    Fake {
        contacts,
        cursor: 41,
        account: "acct-hash-1".into(),
        ..Fake::default()
    }
}

pub fn quick() -> Backoff {
    Backoff {
        first: Duration::from_millis(1),
        max: Duration::from_millis(5),
    }
}

pub fn event(id: u64, kind: &str, data: Value) -> String {
    format!("id: {id}\nevent: {kind}\ndata: {data}\n\n")
}
