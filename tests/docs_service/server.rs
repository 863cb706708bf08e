//! A small server that answers exactly as the service's public
//! documentation shows (`docs/api/reference/`): GET /contacts and GET
//! /contacts/:uuid/messages by `page` only, 20 a page, no `meta`; contacts
//! without `lastMessageAt` or `closedAt` (GET /contacts/:uuid carries
//! `closedAt`, as the Contact object type lists); GET /channels with `meta`;
//! POST /messages/send answering `{message: {uuid, status}}`. It records
//! what it was asked, on 127.0.0.1:0.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::{DateTime, Duration, SecondsFormat, Utc};
use serde_json::{Value, json};

/// The documentation's page size of GET /contacts.
pub const PAGE: usize = 20;

#[derive(Default)]
pub struct Docs {
    /// In the service's order: most recent conversation first.
    pub contacts: Vec<Value>,
    /// Each contact's thread, newest first.
    pub messages: HashMap<String, Vec<Value>>,
    pub channels: Vec<Value>,
    /// GET /contacts?page=N answers 400 for this N.
    pub fail_page: Option<u32>,
    /// POST /messages/send answers this status and body.
    pub refuse_send: Option<(u16, Value)>,
    /// Bodies POST /messages/send received.
    pub sends: Vec<Value>,
    /// Every request: method, path and query.
    pub requests: Vec<String>,
}

pub type Shared = Arc<Mutex<Docs>>;

pub struct DocsServer {
    pub base_url: String,
    pub state: Shared,
}

impl DocsServer {
    pub async fn start(docs: Docs) -> DocsServer {
        let state: Shared = Arc::new(Mutex::new(docs));
        let app = Router::new()
            .route("/contacts", get(contacts))
            .route("/contacts/{uuid}", get(one_contact))
            .route("/contacts/{uuid}/messages", get(messages))
            .route("/channels", get(channels))
            .route("/messages/send", post(send))
            .route("/auth/me", get(auth_me))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        DocsServer {
            base_url: format!("http://{addr}"),
            state,
        }
    }

    pub fn with<R>(&self, f: impl FnOnce(&mut Docs) -> R) -> R {
        f(&mut self.state.lock().unwrap())
    }

    pub fn client(&self) -> frontdesk::api::Client {
        frontdesk::api::Client::new(&self.base_url, "docs-key", std::time::Duration::from_secs(10))
            .unwrap()
            .with_retry(frontdesk::api::RetryPolicy {
                max_attempts: 1,
                base_delay: std::time::Duration::from_millis(5),
                max_delay: std::time::Duration::from_millis(5),
            })
    }

    /// A new message in `uuid`'s thread at `at`: the contact moves to the
    /// top of the list, as the service orders it.
    pub fn message(&self, uuid: &str, text: &str, at: DateTime<Utc>) {
        self.with(|d| {
            d.messages
                .entry(uuid.to_string())
                .or_default()
                .insert(0, message(text, "received", at));
            if let Some(i) = d.contacts.iter().position(|c| c["uuid"] == uuid) {
                let c = d.contacts.remove(i);
                d.contacts.insert(0, c);
            }
        });
    }
}

pub fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// A contact as GET /contacts' documented example shows one.
pub fn contact(uuid: &str, name: &str, created: DateTime<Utc>) -> Value {
    json!({
        "uuid": uuid,
        "name": name,
        "phoneNumber": format!("+39 {}", uuid.len() * 1111),
        "avatarUrl": null,
        "createdAt": stamp(created),
        "source": "whatsapp",
        "href": format!("https://dash.callbell.eu/contacts/{uuid}"),
        "conversationHref": "https://dash.callbell.eu/chat/f3670b13446b412796238b1cd78899f9",
        "assignedUser": null,
        "tags": ["sales"],
        "customFields": {"Billing Address": "3 Abbey Rd, London"}
    })
}

/// A message as GET /contacts/:uuid/messages' documented example shows one.
pub fn message(text: &str, status: &str, at: DateTime<Utc>) -> Value {
    json!({
        "text": text,
        "createdAt": stamp(at),
        "uuid": format!("m{}", at.timestamp_micros()),
        "status": status,
        "channel": "whatsapp",
        "from": "390987654321",
        "to": "391234567890"
    })
}

/// `n` contacts created a year ago, a minute apart, newest first.
pub fn many(n: usize) -> Vec<Value> {
    let base = Utc::now() - Duration::days(365);
    (0..n)
        .map(|i| {
            contact(
                &format!("c{i:04}"),
                &format!("Contact {i}"),
                base - Duration::minutes(i as i64),
            )
        })
        .collect()
}

fn page_of(q: &HashMap<String, String>) -> u32 {
    q.get("page").and_then(|p| p.parse().ok()).unwrap_or(1).max(1)
}

fn slice(items: &[Value], page: u32) -> Vec<Value> {
    items
        .iter()
        .skip((page as usize - 1) * PAGE)
        .take(PAGE)
        .cloned()
        .collect()
}

fn note(s: &Shared, what: String) {
    s.lock().unwrap().requests.push(what);
}

async fn contacts(State(s): State<Shared>, Query(q): Query<HashMap<String, String>>) -> Response {
    let page = page_of(&q);
    note(&s, format!("GET /contacts?page={page}"));
    let d = s.lock().unwrap();
    if d.fail_page == Some(page) {
        return (StatusCode::BAD_REQUEST, Json(json!({"error": "Bad request"}))).into_response();
    }
    Json(json!({ "contacts": slice(&d.contacts, page) })).into_response()
}

async fn one_contact(State(s): State<Shared>, Path(uuid): Path<String>) -> Response {
    note(&s, format!("GET /contacts/{uuid}"));
    let d = s.lock().unwrap();
    match d.contacts.iter().find(|c| c["uuid"] == uuid.as_str()) {
        // The Contact object type lists `closedAt` (the GET example leaves
        // it out): one contact's answer carries it, null when open, so the
        // state the list does not give is learned here.
        Some(c) => {
            let mut c = c.clone();
            if c.get("closedAt").is_none() {
                c["closedAt"] = Value::Null;
            }
            Json(json!({ "contact": [c] })).into_response()
        }
        None => (StatusCode::NOT_FOUND, Json(json!({"error": "Contact not found"}))).into_response(),
    }
}

async fn messages(
    State(s): State<Shared>,
    Path(uuid): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let page = page_of(&q);
    note(&s, format!("GET /contacts/{uuid}/messages?page={page}"));
    let d = s.lock().unwrap();
    let all = d.messages.get(&uuid).cloned().unwrap_or_default();
    Json(json!({ "messages": slice(&all, page) })).into_response()
}

async fn channels(State(s): State<Shared>) -> Response {
    note(&s, "GET /channels".into());
    let d = s.lock().unwrap();
    Json(json!({ "channels": d.channels, "meta": {"page": 1, "pages": 1} })).into_response()
}

async fn send(State(s): State<Shared>, Json(body): Json<Value>) -> Response {
    note(&s, "POST /messages/send".into());
    let mut d = s.lock().unwrap();
    d.sends.push(body);
    match d.refuse_send.clone() {
        Some((status, answer)) => (
            StatusCode::from_u16(status).unwrap_or(StatusCode::UNPROCESSABLE_ENTITY),
            Json(answer),
        )
            .into_response(),
        None => {
            Json(json!({"message": {"uuid": "adf3d1216d4c4dcd908199d6700f2381", "status": "enqueued"}})).into_response()
        }
    }
}

async fn auth_me(State(s): State<Shared>) -> Response {
    note(&s, "GET /auth/me".into());
    Json(json!({"status": "ok", "user_email": "john_doe@email.com", "user_name": "John Doe", "api_key": "test_1234567890"}))
        .into_response()
}
