//! The embedded reference server, tested as a client sees it over HTTP.
//! Every test binds 127.0.0.1:0 and talks to the real server with reqwest.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use frontdesk::server::{Clock, RunningServer, ServerConfig, start};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

mod common;

struct Srv {
    s: RunningServer,
    raw: common::Raw,
    /// For requests the helpers cannot express (bad bodies, odd methods).
    c: reqwest::Client,
}

async fn spawn(cfg: ServerConfig) -> Srv {
    let s = common::spawn(cfg).await;
    let raw = common::Raw::new(&s);
    let c = raw.http.clone();
    Srv { s, raw, c }
}

async fn default_server() -> Srv {
    spawn(ServerConfig::default()).await
}

impl Srv {
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        self.raw.call(method, path, body).await
    }
    async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.call(Method::GET, path, None).await
    }
    async fn ok(&self, path: &str) -> Value {
        let (st, v) = self.get(path).await;
        assert_eq!(st, StatusCode::OK, "GET {path}: {v}");
        v
    }
    async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, Some(body)).await
    }
    async fn patch(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::PATCH, path, Some(body)).await
    }
    async fn put(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::PUT, path, Some(body)).await
    }
    /// First contact of the default list.
    async fn first_contact(&self) -> Value {
        self.ok("/contacts").await["contacts"][0].clone()
    }
    async fn contact(&self, uuid: &str) -> Value {
        let v = self.ok(&format!("/contacts/{uuid}")).await;
        assert_eq!(v["contact"].as_array().map(Vec::len), Some(1), "{v}");
        v["contact"][0].clone()
    }
    async fn create(&self, body: Value) -> (StatusCode, Value) {
        self.post("/contacts", body).await
    }
    /// Walk GET /contacts by cursor from the start; uuids in order.
    async fn walk(&self, filters: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let mut v = self.ok(&format!("/contacts?{filters}")).await;
        loop {
            out.extend(v["contacts"].as_array().unwrap().iter().cloned());
            match v["meta"]["next"].as_str() {
                None => break,
                Some(n) => v = self.ok(&format!("/contacts?{filters}&after={n}")).await,
            }
        }
        out
    }
}

fn uuids(list: &[Value]) -> Vec<String> {
    list.iter().map(|c| c["uuid"].as_str().unwrap().to_string()).collect()
}

fn new_contact(identifier: &str) -> Value {
    json!({ "identifier": identifier, "source": "messaging_app", "name": "Test Person" })
}

impl Srv {
    async fn walk_messages(&self, path: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let mut v = self.ok(path).await;
        loop {
            out.extend(v["messages"].as_array().unwrap().clone());
            match v["meta"]["next"].as_str() {
                Some(n) => v = self.ok(&format!("{path}?after={n}")).await,
                None => break,
            }
        }
        out
    }
}

#[path = "server/account.rs"]
mod account;
#[path = "server/connections.rs"]
mod connections;
#[path = "server/contacts_read.rs"]
mod contacts_read;
#[path = "server/contacts_write.rs"]
mod contacts_write;
#[path = "server/database.rs"]
mod database;
#[path = "server/documented.rs"]
mod documented;
#[path = "server/faults.rs"]
mod faults;
#[path = "server/messages.rs"]
mod messages;
#[path = "server/query.rs"]
mod query;
#[path = "server/runtime.rs"]
mod runtime;
#[path = "server/seed.rs"]
mod seed;
#[path = "server/send.rs"]
mod send;
#[path = "server/webhook_docs.rs"]
mod webhook_docs;
