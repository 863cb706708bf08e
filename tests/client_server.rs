//! Testing layer 2: the real client (`frontdesk::api::Client`) against the
//! real embedded server (`frontdesk::server`), both bound to 127.0.0.1.
//! Every endpoint round-trips with typed values checked against the
//! server's manifest; walks run to exhaustion; every error path is reached
//! through the client. Where a test checks what the server holds after a
//! write it reads the server with plain HTTP, not through the client under
//! test.

use std::time::Duration;

use chrono::{DateTime, Utc};
use frontdesk::api::{ApiError, Client, RetryPolicy};
use frontdesk::server::{RunningServer, ServerConfig};
use serde_json::Value;

mod common;

struct Env {
    srv: RunningServer,
    client: Client,
    raw: common::Raw,
}

fn fast_retry(max_attempts: u32) -> RetryPolicy {
    RetryPolicy {
        max_attempts,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(50),
    }
}

async fn spawn(cfg: ServerConfig) -> Env {
    let srv = common::spawn(cfg).await;
    let client = Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10))
        .unwrap()
        .with_retry(fast_retry(3));
    Env {
        client,
        raw: common::Raw::new(&srv),
        srv,
    }
}

async fn small(contacts: usize) -> Env {
    spawn(ServerConfig {
        contacts,
        ..Default::default()
    })
    .await
}

impl Env {
    /// A client for the same server with other settings.
    fn client_with(&self, key: &str, timeout: Duration, retry: RetryPolicy) -> Client {
        Client::new(&self.srv.base_url, key, timeout).unwrap().with_retry(retry)
    }

    /// GET with plain HTTP: the server's own view, independent of the client.
    async fn raw(&self, path: &str) -> (u16, Value) {
        let (status, v) = self.raw.get(path).await;
        (status.as_u16(), v)
    }

    async fn raw_ok(&self, path: &str) -> Value {
        let (st, v) = self.raw(path).await;
        assert_eq!(st, 200, "GET {path}: {v}");
        v
    }

    /// The contact as the server holds it (the one-element list unwrapped).
    async fn raw_contact(&self, uuid: &str) -> Value {
        let v = self.raw_ok(&format!("/contacts/{uuid}")).await;
        v["contact"][0].clone()
    }

    /// Uuids of a contact's whole thread, read page by page with plain HTTP.
    async fn raw_thread(&self, contact: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let mut page = 1;
        loop {
            let v = self.raw_ok(&format!("/contacts/{contact}/messages?page={page}")).await;
            out.extend(v["messages"].as_array().unwrap().iter().cloned());
            if page >= v["meta"]["pages"].as_u64().unwrap() {
                return out;
            }
            page += 1;
        }
    }
}

/// Parses a wire timestamp independently of the client's parser.
fn wire_time(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s)
        .or_else(|_| DateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S %z"))
        .unwrap_or_else(|e| panic!("{s:?}: {e}"))
        .to_utc()
}

/// True when `t` lies within `secs` seconds of now.
fn recent(t: Option<DateTime<Utc>>, secs: i64) -> bool {
    t.is_some_and(|t| (Utc::now() - t).num_seconds().abs() <= secs)
}

fn field_names(e: &ApiError) -> Vec<String> {
    match e {
        ApiError::Validation { fields, .. } => fields.keys().cloned().collect(),
        other => panic!("expected a validation error, got {other:?}"),
    }
}

#[path = "client_server/account.rs"]
mod account;
#[path = "client_server/contacts.rs"]
mod contacts;
#[path = "client_server/errors.rs"]
mod errors;
#[path = "client_server/messages.rs"]
mod messages;
#[path = "client_server/walks.rs"]
mod walks;
