//! A hub on 127.0.0.1:0 in front of the embedded server, and headless
//! agents: plain reqwest clients with their tokens.
#![allow(dead_code)]

use std::path::Path;
use std::time::Duration;

use frontdesk::api::ApiKey;
use frontdesk::hub::store::Store;
use frontdesk::hub::{HubConfig, HubListener, RunningHub, agents, start};
use frontdesk::server::{RunningServer, ServerConfig};
use reqwest::StatusCode;
use serde_json::Value;

use super::common;

/// Longest any test waits for something to happen.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub struct Team {
    pub server: RunningServer,
    pub hub: RunningHub,
    pub dir: tempfile::TempDir,
    pub dana: Agent,
    pub lee: Agent,
}

pub struct Agent {
    pub name: &'static str,
    pub token: String,
    pub url: String,
    pub http: reqwest::Client,
}

impl Agent {
    /// `GET /hub/v1/snapshot`'s body, whole.
    pub async fn snapshot_text(&self) -> String {
        let resp = self.get("/hub/v1/snapshot").send().await.expect("snapshot");
        resp.text().await.expect("body")
    }
    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.http.get(format!("{}{path}", self.url)).bearer_auth(&self.token)
    }
    pub fn post(&self, path: &str) -> reqwest::RequestBuilder {
        self.http.post(format!("{}{path}", self.url)).bearer_auth(&self.token)
    }
    pub async fn json(&self, path: &str) -> (StatusCode, Value) {
        let r = self.get(path).send().await.expect("request");
        let st = r.status();
        (st, r.json().await.unwrap_or(Value::Null))
    }
    /// The client of `src/api`, pointed at the hub with this agent's token.
    pub fn client(&self) -> frontdesk::api::Client {
        frontdesk::api::Client::new(&format!("{}/v1", self.url), &self.token, Duration::from_secs(10)).expect("client")
    }
    pub async fn events(&self, last_event_id: Option<u64>) -> Events {
        let mut req = self.get("/hub/v1/events");
        if let Some(id) = last_event_id {
            req = req.header("Last-Event-ID", id.to_string());
        }
        let resp = req.send().await.expect("stream opens");
        assert_eq!(resp.status(), StatusCode::OK);
        Events {
            body: resp,
            buf: String::new(),
        }
    }
}

/// A contact as the service holds it: the activity frontdesk learned
/// (`activityAt`, on the hub's wire and in the index) left out.
pub fn as_service(c: &frontdesk::api::Contact) -> frontdesk::api::Contact {
    frontdesk::api::Contact {
        activity_at: None,
        ..c.clone()
    }
}

pub fn config(dir: &Path, server: &RunningServer) -> HubConfig {
    let mut c = HubConfig::new(dir.to_path_buf(), &server.base_url, ApiKey::new(server.api_key.clone()));
    c.reconcile_every = Duration::from_secs(3600);
    // The log of failed deliveries is read before each pass only: tests
    // that count the service's requests count none of the hub's own.
    c.lost_check_every = Duration::from_secs(3600);
    c
}

pub fn add_agent(dir: &Path, name: &str) -> String {
    let store = Store::open(dir).expect("store");
    agents::add(&store, name, &format!("{name}@example.com"), None).expect("agent added")
}

pub async fn start_hub(cfg: HubConfig) -> RunningHub {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    start(HubListener::Tcp(l), cfg).await.expect("hub starts")
}

pub fn agent(hub: &RunningHub, name: &'static str, token: String) -> Agent {
    Agent {
        name,
        token,
        url: hub.url.clone(),
        http: reqwest::Client::new(),
    }
}

/// Server with `contacts`, a hub with `tune` applied, agents dana and lee.
pub async fn team_with(contacts: usize, tune: impl FnOnce(&mut HubConfig)) -> Team {
    let server = common::spawn(common::config(contacts, 42)).await;
    team_on(server, tune).await
}

pub async fn team_on(server: RunningServer, tune: impl FnOnce(&mut HubConfig)) -> Team {
    let dir = tempfile::tempdir().expect("tempdir");
    let dana_token = add_agent(dir.path(), "dana");
    let lee_token = add_agent(dir.path(), "lee");
    let mut cfg = config(dir.path(), &server);
    tune(&mut cfg);
    let hub = start_hub(cfg).await;
    Team {
        dana: agent(&hub, "dana", dana_token),
        lee: agent(&hub, "lee", lee_token),
        server,
        hub,
        dir,
    }
}

pub async fn team() -> Team {
    team_with(30, |_| {}).await
}

pub fn server_config() -> ServerConfig {
    common::config(30, 42)
}

/// The index holds `n` contacts (the first reconciliation is done).
pub async fn wait_for_contacts(agent: &Agent, n: u64) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let text = agent.snapshot_text().await;
        let head: Value = serde_json::from_str(text.lines().next().unwrap_or("{}")).expect("head");
        if head["contacts"].as_u64() == Some(n) {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hub never held {n} contacts: {head}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// One parsed Server-Sent Event.
#[derive(Debug, Clone)]
pub struct Ev {
    pub id: Option<u64>,
    pub kind: String,
    pub data: Value,
}

pub struct Events {
    body: reqwest::Response,
    buf: String,
}

impl Events {
    /// The next event, or `None` when the stream ended (or nothing came in `PATIENCE`).
    pub async fn next(&mut self) -> Option<Ev> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                let mut ev = Ev {
                    id: None,
                    kind: "message".into(),
                    data: Value::Null,
                };
                let mut any = false;
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        ev.id = v.parse().ok();
                    } else if let Some(v) = line.strip_prefix("event: ") {
                        ev.kind = v.to_string();
                        any = true;
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        ev.data = serde_json::from_str(v).unwrap_or(Value::String(v.into()));
                        any = true;
                    }
                }
                if any {
                    return Some(ev);
                }
                continue;
            }
            match tokio::time::timeout_at(deadline, self.body.chunk()).await {
                Ok(Ok(Some(chunk))) => self.buf.push_str(&String::from_utf8_lossy(&chunk)),
                _ => return None,
            }
        }
    }

    /// The next event of `kind`, skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Ev {
        loop {
            match self.next().await {
                Some(e) if e.kind == kind => return e,
                Some(_) => {}
                None => panic!("the stream ended before a {kind} event"),
            }
        }
    }
}

/// Subscribes the hub to the server's webhook (every kind), as
/// `--public-url` does for a real service.
pub async fn subscribe(t: &Team) {
    let raw = common::Raw::new(&t.server);
    let (st, v) = raw
        .call(
            reqwest::Method::POST,
            "/webhooks/subscribe",
            Some(serde_json::json!({
                "url": t.hub.hook_url(),
                "subscriptions": frontdesk::hub::wire::SUBSCRIPTIONS,
            })),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
}

/// Renames contact `uuid` on the server directly and waits until the
/// rename's webhook came out of the hub on `events`: the server delivers
/// in order and the hub works its deliveries in order, so every webhook
/// of an earlier change has been worked by then. Returns the events seen
/// before the marker.
pub async fn through_marker(t: &Team, events: &mut Events, uuid: &str, name: &str) -> Vec<Ev> {
    let raw = common::Raw::new(&t.server);
    let (st, v) = raw
        .call(
            reqwest::Method::PATCH,
            &format!("/contacts/{uuid}"),
            Some(serde_json::json!({ "name": name })),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let mut seen = Vec::new();
    loop {
        let ev = events.next().await.expect("the marker's event");
        if ev.kind == "contact_changed" && ev.data["contact"]["name"] == name {
            return seen;
        }
        seen.push(ev);
    }
}
