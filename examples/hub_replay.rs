//! Figures for issue 34's memory and fan-out targets on the hub's event
//! bus. Run in release:
//!
//! cargo build --release --example hub_replay && target/release/examples/hub_replay
//!
//! An in-process embedded server and hub on 127.0.0.1:0. Prints the
//! process's resident memory after: 300 oversized (1 MB) events; 5,000
//! events of 8 KB; 50 streams reconnecting with an old `Last-Event-ID`
//! (each replays the whole ring); then 200 streams and 2,000 events, all
//! read by every stream: the time until the last stream has the last one.

use std::time::{Duration, Instant};

use frontdesk::api::ApiKey;
use frontdesk::hub::store::Store;
use frontdesk::hub::{HubConfig, HubListener, agents};
use serde_json::json;

fn rss_mb() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / 1_048_576.0
}

/// Reads a stream until it holds `events` frames (or ends).
async fn read_events(mut resp: reqwest::Response, events: usize) -> usize {
    let mut seen = 0;
    let mut tail = String::new();
    while seen < events {
        match tokio::time::timeout(Duration::from_secs(60), resp.chunk()).await {
            Ok(Ok(Some(c))) => {
                tail.push_str(&String::from_utf8_lossy(&c));
                seen += tail.matches("\nevent: ").count();
                // Keep only what may hold the start of a split marker.
                let keep = tail.len().saturating_sub(8);
                let cut = (keep..=tail.len())
                    .find(|i| tail.is_char_boundary(*i))
                    .unwrap_or(tail.len());
                tail.drain(..cut);
            }
            _ => break,
        }
    }
    seen
}

#[tokio::main]
async fn main() {
    let server = {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let cfg = frontdesk::server::ServerConfig {
            contacts: 5,
            ..Default::default()
        };
        frontdesk::server::start(l, cfg).await.expect("server")
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(dir.path()).expect("store");
    let token = agents::add(&store, "dana", "dana@example.com", None).expect("agent");
    let mut cfg = HubConfig::new(
        dir.path().to_path_buf(),
        &server.base_url,
        ApiKey::new(server.api_key.clone()),
    );
    cfg.reconcile_every = Duration::from_secs(3600);
    cfg.lost_check_every = Duration::from_secs(3600);
    cfg.client_queue = 4096;
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let hub = frontdesk::hub::start(HubListener::Tcp(l), cfg).await.expect("hub");
    let http = reqwest::Client::new();
    let bus = hub.state.bus.clone();
    tokio::time::sleep(Duration::from_secs(1)).await;
    println!("start: rss {:.1} MB", rss_mb());

    let mb = "x".repeat(1024 * 1024);
    for i in 0..300 {
        bus.publish("agent_status", &json!({ "agent": "x", "i": i, "pad": mb }));
    }
    println!(
        "300 events of 1 MB: rss {:.1} MB, ring {} KB",
        rss_mb(),
        bus.ring_bytes() / 1024
    );

    let first = bus.last_id();
    let pad = "y".repeat(8 * 1024);
    for i in 0..5000 {
        bus.publish("agent_status", &json!({ "agent": "x", "i": i, "pad": pad }));
    }
    let kept = bus.last_id() - bus.oldest_id().unwrap_or(0) + 1;
    println!(
        "5,000 events of 8 KB: rss {:.1} MB, ring {:.1} MB ({kept} events)",
        rss_mb(),
        bus.ring_bytes() as f64 / 1_048_576.0
    );

    let mut streams = Vec::new();
    for _ in 0..50 {
        let resp = http
            .get(format!("{}/hub/v1/events", hub.url))
            .bearer_auth(&token)
            .header("Last-Event-ID", (bus.oldest_id().unwrap_or(first)).to_string())
            .send()
            .await
            .expect("stream");
        streams.push(resp);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    println!("50 replaying streams open (not read yet): rss {:.1} MB", rss_mb());
    let reads: Vec<_> = streams.into_iter().map(|r| tokio::spawn(read_events(r, 100))).collect();
    for r in reads {
        let _ = r.await;
    }
    println!("50 replays of {kept} events read whole: rss {:.1} MB", rss_mb());

    let mut readers = Vec::new();
    for _ in 0..200 {
        let resp = http
            .get(format!("{}/hub/v1/events", hub.url))
            .bearer_auth(&token)
            .send()
            .await
            .expect("stream");
        readers.push(tokio::spawn(read_events(resp, 2000)));
    }
    while bus.clients() < 200 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let cpu0 = cpu_secs();
    let t = Instant::now();
    let small = json!({ "contact": "c", "message": { "uuid": "m", "text": "hello there, a customer's message" } });
    for _ in 0..2000 {
        bus.publish("message_created", &small);
    }
    let mut total = 0;
    for r in readers {
        total += r.await.unwrap_or(0);
    }
    let took = t.elapsed();
    println!(
        "200 streams x 2,000 events: {total} delivered in {:.2} s, cpu {:.2} s, rss {:.1} MB",
        took.as_secs_f64(),
        cpu_secs() - cpu0,
        rss_mb()
    );
    hub.stop().await;
    server.stop().await;
}

/// The process's user + system CPU seconds.
fn cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, s)| s).unwrap_or("");
    let f: Vec<f64> = after.split_whitespace().map(|x| x.parse().unwrap_or(0.0)).collect();
    // Fields 14 and 15 (utime, stime) are 12 and 13 after the state.
    (f.get(11).copied().unwrap_or(0.0) + f.get(12).copied().unwrap_or(0.0)) / 100.0
}
