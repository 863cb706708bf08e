//! Figures for issue 20's targets: how long a colleague's write and a
//! webhook delivery take to reach every connected agent through the hub.
//!
//! cargo run --release --example hub_latency [AGENTS] [ROUNDS]
//!
//! Starts the embedded server (1,000 contacts) and a hub on 127.0.0.1:0,
//! connects AGENTS headless agents (default 50) to the event stream, then
//! times ROUNDS (default 100) closes/reopens by one agent and ROUNDS
//! webhook deliveries until every agent has seen each one.

use std::time::{Duration, Instant};

use frontdesk::api::ApiKey;
use frontdesk::hub::store::Store;
use frontdesk::hub::{HubConfig, HubListener, agents};
use frontdesk::server::ServerConfig;
use serde_json::{Value, json};
use tokio::sync::mpsc;

type Seen = mpsc::UnboundedReceiver<(String, Value)>;

async fn stream(url: String, token: String) -> Seen {
    let (tx, rx) = mpsc::unbounded_channel();
    let mut resp = reqwest::Client::new()
        .get(format!("{url}/hub/v1/events"))
        .bearer_auth(token)
        .send()
        .await
        .expect("stream");
    tokio::spawn(async move {
        let mut buf = String::new();
        while let Ok(Some(chunk)) = resp.chunk().await {
            buf.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buf.find("\n\n") {
                let block: String = buf.drain(..end + 2).collect();
                let kind = block
                    .lines()
                    .find_map(|l| l.strip_prefix("event: "))
                    .unwrap_or("")
                    .to_string();
                let data = block
                    .lines()
                    .find_map(|l| l.strip_prefix("data: "))
                    .and_then(|d| serde_json::from_str(d).ok())
                    .unwrap_or(Value::Null);
                if tx.send((kind, data)).is_err() {
                    return;
                }
            }
        }
    });
    rx
}

/// Waits until every stream has seen an event of `kind` for which `is` holds.
async fn all_see(streams: &mut [Seen], kind: &str, is: impl Fn(&Value) -> bool) {
    for s in streams.iter_mut() {
        loop {
            let (k, d) = tokio::time::timeout(Duration::from_secs(30), s.recv())
                .await
                .expect("an event in time")
                .expect("stream open");
            if k == kind && is(&d) {
                break;
            }
        }
    }
}

fn report(what: &str, mut xs: Vec<Duration>) {
    xs.sort();
    let at = |q: f64| xs[((xs.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{what}: median {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} rounds)",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3,
        xs.len()
    );
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let agents_n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let server = frontdesk::server::start(
        listener,
        ServerConfig {
            contacts: 1000,
            ..Default::default()
        },
    )
    .await
    .expect("server");
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(dir.path()).expect("store");
    let tokens: Vec<String> = (0..agents_n.max(2))
        .map(|i| agents::add(&store, &format!("agent{i}"), "a@example.com", None).expect("agent"))
        .collect();
    let mut cfg = HubConfig::new(
        dir.path().to_path_buf(),
        &server.base_url,
        ApiKey::new(server.api_key.clone()),
    );
    cfg.reconcile_every = Duration::from_secs(3600);
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let hub = frontdesk::hub::start(HubListener::Tcp(l), cfg).await.expect("hub");
    // The first walk: wait until the hub holds the account.
    let http = reqwest::Client::new();
    loop {
        let text = http
            .get(format!("{}/hub/v1/snapshot", hub.url))
            .bearer_auth(&tokens[0])
            .send()
            .await
            .expect("snapshot")
            .text()
            .await
            .expect("body");
        let head: Value = serde_json::from_str(text.lines().next().unwrap_or("{}")).unwrap_or_default();
        if head["contacts"] == 1000 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut streams = Vec::new();
    for t in &tokens[1..] {
        streams.push(stream(hub.url.clone(), t.clone()).await);
    }
    let contacts: Value = http
        .get(format!("{}/contacts", server.base_url))
        .bearer_auth(&server.api_key)
        .send()
        .await
        .expect("contacts")
        .json()
        .await
        .expect("json");
    let uuid = contacts["contacts"][0]["uuid"].as_str().expect("uuid").to_string();
    let mut every = Vec::new();
    for i in 0..rounds {
        let (verb, kind) = if i % 2 == 0 {
            ("close", "conversation_closed")
        } else {
            ("open", "conversation_opened")
        };
        let start = Instant::now();
        let resp = http
            .post(format!("{}/v1/contacts/{uuid}/conversation/{verb}", hub.url))
            .bearer_auth(&tokens[0])
            .send()
            .await
            .expect("write");
        assert!(resp.status().is_success());
        all_see(&mut streams, kind, |d| d["contact"] == uuid.as_str()).await;
        every.push(start.elapsed());
    }
    let mut all_seen = Vec::new();
    for i in 0..rounds {
        let mut c = contacts["contacts"][1].clone();
        c["name"] = json!(format!("Webhook {i}"));
        c["lastMessageAt"] = json!(chrono::Utc::now().to_rfc3339());
        let body = json!({ "event": "contact_updated", "payload": c }).to_string();
        let start = Instant::now();
        let resp = http
            .post(hub.hook_url())
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("delivery");
        assert!(resp.status().is_success());
        let name = format!("Webhook {i}");
        all_see(&mut streams, "contact_changed", |d| {
            d["contact"]["name"] == name.as_str()
        })
        .await;
        all_seen.push(start.elapsed());
    }
    println!("{} agents connected", streams.len());
    report("a colleague's write, request sent until every agent saw it", every);
    report("a webhook delivery, POST sent until every agent saw it", all_seen);
    hub.stop().await;
    server.stop().await;
}
