//! Figures for issue 20's targets that `hub_latency` does not cover (see
//! docs/hub.md, "Measured"). Run in release:
//!
//! cargo build --release --bin frontdesk --example hub_bench
//! target/release/examples/hub_bench requests|counts|streams|drops|crash [SECONDS]
//!
//! - requests: the hub's requests to the service with 1, then 50 headless
//!   agents connected (snapshot, stream, a list page and a contact every
//!   2 s each, all through the hub), SECONDS (default 60) each;
//! - counts: a new agent's Mine/Unassigned/Waiting at 100,000 contacts
//!   (snapshot into a fresh index, then the counts), against the service's;
//! - streams: 200 streams (plus one that never reads) on a hub process,
//!   50 webhook events/s for SECONDS (default 180): delivery p99, the hub
//!   process's CPU and memory;
//! - drops: 20% of webhook deliveries dropped under live traffic for
//!   SECONDS (default 60), then the time until the hub's index equals the
//!   service (reconciliation every 30 s);
//! - crash: writes by two agents through a hub process, kill -9 mid-traffic,
//!   restart; the index against the service and the audit log against
//!   the acknowledged writes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use frontdesk::api::{ApiKey, Client, Contact, ContactFilter, ContactId, PageRequest};
use frontdesk::hub::store::Store;
use frontdesk::hub::{HubConfig, HubListener, agents};
use frontdesk::hubclient::HubClient;
use frontdesk::index::IndexAccess;
use frontdesk::server::{RunningServer, ServerConfig};
use serde_json::{Value, json};

const SECRET: &str = "whsec_bench";

async fn server(cfg: ServerConfig) -> RunningServer {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let t = Instant::now();
    let s = frontdesk::server::start(l, cfg).await.expect("server");
    eprintln!("server ready in {:.1} s", t.elapsed().as_secs_f64());
    s
}

fn tokens(dir: &Path, n: usize) -> Vec<String> {
    let store = Store::open(dir).expect("store");
    (0..n)
        .map(|i| agents::add(&store, &format!("agent{i}"), "dana@frontdesk.example", None).expect("agent"))
        .collect()
}

async fn subscribe(server: &RunningServer, hook_url: &str) {
    let resp = reqwest::Client::new()
        .post(format!("{}/webhooks/subscribe", server.base_url))
        .bearer_auth(&server.api_key)
        .json(&json!({ "url": hook_url, "subscriptions": frontdesk::hub::wire::SUBSCRIPTIONS }))
        .send()
        .await
        .expect("subscribe");
    assert!(resp.status().is_success(), "subscribe: {}", resp.status());
}

/// The contacts the hub's snapshot holds (uuid to contact).
async fn snapshot(url: &str, token: &str) -> BTreeMap<String, Value> {
    let text = reqwest::Client::new()
        .get(format!("{url}/hub/v1/snapshot"))
        .bearer_auth(token)
        .send()
        .await
        .expect("snapshot")
        .text()
        .await
        .expect("body");
    text.lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|mut c| {
            // The conversation's last message rides along; the contact is
            // what is compared.
            if let Some(m) = c.as_object_mut() {
                m.remove("hubPreview");
            }
            (c["uuid"].as_str().unwrap_or_default().to_string(), c)
        })
        .collect()
}

/// Waits until an in-process hub finished its first walk and read the
/// last message of every open conversation (its trickle), reading the
/// hub's state, not polling its snapshot.
async fn wait_settled(hub: &frontdesk::hub::RunningHub) {
    loop {
        let mut index = hub.state.index.clone();
        let done = index
            .with(|ix| -> Result<bool, frontdesk::index::IndexError> {
                Ok(ix.sync_state()?.full_walk_finished_at.is_some() && ix.stale_previews(1)?.is_empty())
            })
            .unwrap_or(false);
        if done {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Requests by path between two readings of the server's counts.
fn by_path(before: &BTreeMap<String, u64>, after: &BTreeMap<String, u64>) -> BTreeMap<String, u64> {
    after
        .iter()
        .map(|(k, n)| (k.clone(), n - before.get(k).copied().unwrap_or(0)))
        .filter(|(_, n)| *n > 0)
        .collect()
}

async fn truth(server: &RunningServer) -> BTreeMap<String, Value> {
    let c = Client::new(&server.base_url, &server.api_key, Duration::from_secs(60)).expect("client");
    c.all_contacts(ContactFilter::default())
        .await
        .expect("walk")
        .into_iter()
        .map(|c| (c.uuid.clone(), serde_json::to_value(&c).unwrap_or_default()))
        .collect()
}

/// Uuids whose state differs between the two (missing on either side too).
fn differ(a: &BTreeMap<String, Value>, b: &BTreeMap<String, Value>) -> usize {
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.into_iter().filter(|k| a.get(*k) != b.get(*k)).count()
}

async fn wait_walked(url: &str, token: &str, n: usize) {
    while snapshot(url, token).await.len() < n {
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

fn pct(mut xs: Vec<f64>, q: f64) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(f64::total_cmp);
    xs[((xs.len() as f64 - 1.0) * q).round() as usize]
}

/// A headless agent: the stream read to its end, and a list page and a
/// contact read through the hub every 2 s.
fn agent(url: String, token: String, uuid: String) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let http = reqwest::Client::new();
        let _ = snapshot(&url, &token).await;
        let mut s = http
            .get(format!("{url}/hub/v1/events"))
            .bearer_auth(&token)
            .send()
            .await
            .expect("stream");
        let mut tick = tokio::time::interval(Duration::from_secs(2));
        loop {
            tokio::select! {
                c = s.chunk() => if !matches!(c, Ok(Some(_))) { return },
                _ = tick.tick() => {
                    for path in ["/v1/contacts".to_string(), format!("/v1/contacts/{uuid}")] {
                        let _ = http.get(format!("{url}{path}")).bearer_auth(&token).send().await;
                    }
                }
            }
        }
    })
}

async fn requests(secs: u64) {
    let server = server(ServerConfig {
        contacts: 2000,
        activity: true,
        activity_interval_ms: 500,
        webhook_secret: Some(SECRET.into()),
        ..Default::default()
    })
    .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let toks = tokens(dir.path(), 50);
    let mut cfg = HubConfig::new(dir.path().into(), &server.base_url, ApiKey::new(server.api_key.clone()));
    cfg.webhook_secret = Some(SECRET.into());
    cfg.reconcile_every = Duration::from_secs(10);
    // The full walk every 15th pass (here every 150 s) costs a page per 20
    // contacts whoever is connected; whether one falls inside a phase or
    // not decided the difference measured before (0.21 vs 1.05 requests/s:
    // one walk of 2,000 contacts is 100 requests). The incremental passes
    // are measured here, the walks are counted apart.
    cfg.full_walk_every = 0;
    // A higher budget so the hub's first walk and its trickle of last
    // messages end before the phases start (what is measured is the
    // passes' page count, which the budget does not change).
    cfg.budget = 50.0;
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let hub = frontdesk::hub::start(HubListener::Tcp(l), cfg).await.expect("hub");
    subscribe(&server, &hub.hook_url()).await;
    let t = Instant::now();
    wait_settled(&hub).await;
    eprintln!(
        "hub settled (walk and last messages) in {:.0} s; {} last messages read",
        t.elapsed().as_secs_f64(),
        hub.state.counters.previews.load(std::sync::atomic::Ordering::Relaxed)
    );
    let uuid = snapshot(&hub.url, &toks[0])
        .await
        .into_keys()
        .next()
        .unwrap_or_default();
    let mut running: Vec<tokio::task::JoinHandle<()>> = Vec::new();
    let mut totals: BTreeMap<usize, (u64, f64)> = BTreeMap::new();
    // 1, 50, 1, 50 agents: a drift of the traffic over time falls on both.
    for n in [1usize, 50, 1, 50] {
        while running.len() > n {
            if let Some(r) = running.pop() {
                r.abort();
            }
        }
        while running.len() < n {
            running.push(agent(hub.url.clone(), toks[running.len()].clone(), uuid.clone()));
        }
        tokio::time::sleep(Duration::from_secs(5)).await;
        let before = server.requests();
        let paths = server.requests_by_path();
        let passes = hub.state.counters.passes.load(std::sync::atomic::Ordering::Relaxed);
        let t = Instant::now();
        tokio::time::sleep(Duration::from_secs(secs)).await;
        let sent = server.requests() - before;
        let took = t.elapsed().as_secs_f64();
        let total = totals.entry(n).or_default();
        total.0 += sent;
        total.1 += took;
        println!(
            "{n:>2} agents: the service got {:.3} requests/s from the hub over {secs} s ({} passes); by path: {:?}",
            sent as f64 / took,
            hub.state.counters.passes.load(std::sync::atomic::Ordering::Relaxed) - passes,
            by_path(&paths, &server.requests_by_path())
        );
    }
    let rate = |n: usize| totals.get(&n).map_or(f64::NAN, |(sent, s)| *sent as f64 / s);
    println!(
        "in all: 1 agent {:.3} requests/s, 50 agents {:.3} requests/s: {:+.1} %",
        rate(1),
        rate(50),
        (rate(50) / rate(1) - 1.0) * 100.0
    );
    for r in running {
        r.abort();
    }
    hub.stop().await;
    server.stop().await;
}

async fn counts() {
    let server = server(ServerConfig {
        contacts: 100_000,
        ..Default::default()
    })
    .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let toks = tokens(dir.path(), 1);
    let mut cfg = HubConfig::new(dir.path().into(), &server.base_url, ApiKey::new(server.api_key.clone()));
    cfg.budget = 2000.0;
    let t = Instant::now();
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let hub = frontdesk::hub::start(HubListener::Tcp(l), cfg).await.expect("hub");
    wait_settled(&hub).await;
    eprintln!(
        "the hub's first walk and the last message of every open conversation (budget 2000/s): {:.0} s, {} read",
        t.elapsed().as_secs_f64(),
        hub.state.counters.previews.load(std::sync::atomic::Ordering::Relaxed)
    );
    let direct = Client::new(&server.base_url, &server.api_key, Duration::from_secs(60)).expect("client");
    let all = direct.all_contacts(ContactFilter::default()).await.expect("walk");
    let me = all.iter().find_map(|c| c.assigned_user.clone()).unwrap_or_default();
    let views: Vec<_> = frontdesk::triage::builtin_views().into_iter().take(3).collect();
    // The service's truth: who wrote last in each open conversation, read
    // from it directly (8 at a time).
    let t = Instant::now();
    let open: Vec<&Contact> = all.iter().filter(|c| c.is_open()).collect();
    let mut previews: std::collections::HashMap<String, frontdesk::index::Preview> = Default::default();
    for batch in open.chunks(8) {
        let got = futures::future::join_all(batch.iter().map(|c| {
            let direct = &direct;
            async move {
                let page = direct
                    .list_messages(&ContactId::from(c.uuid.as_str()), &PageRequest::First)
                    .await
                    .expect("messages");
                (
                    c.uuid.clone(),
                    frontdesk::index::Preview::of(&page.items, c.last_activity()),
                )
            }
        }))
        .await;
        previews.extend(got);
    }
    eprintln!(
        "the service's truth: {} open conversations' last messages read in {:.0} s",
        open.len(),
        t.elapsed().as_secs_f64()
    );
    let now = chrono::Utc::now();
    let truth_facts: Vec<_> = all
        .iter()
        .map(|c| frontdesk::triage::Facts::new(c, previews.get(&c.uuid)))
        .collect();
    let want = frontdesk::triage::count_views(&truth_facts, &views, Some(&me), now);
    // A new agent starts: the snapshot into a fresh index, then the counts
    // from that index, as the TUI makes them.
    let fresh = tempfile::tempdir().expect("tempdir");
    let start = Instant::now();
    let mut index = frontdesk::index::Index::open(&fresh.path().join("index.sqlite"))
        .expect("index")
        .index;
    let client = HubClient::new(&hub.url, &toks[0], Duration::from_secs(60)).expect("hub client");
    let report = client
        .snapshot_into(&mut index, &mut |_, _| {})
        .await
        .expect("snapshot");
    let loaded_in = start.elapsed();
    let held = index
        .list(frontdesk::index::Order::Activity, usize::MAX, 0)
        .expect("list");
    let held_previews: std::collections::HashMap<String, frontdesk::index::Preview> =
        index.all_previews().expect("previews").into_iter().collect();
    let facts: Vec<_> = held
        .iter()
        .map(|c| frontdesk::triage::Facts::new(c, held_previews.get(&c.uuid)))
        .collect();
    let agent_counts = frontdesk::triage::count_views(&facts, &views, Some(&me), now);
    let took = start.elapsed();
    println!(
        "new agent at {} contacts ({} last messages): snapshot in {:.2} s, counts (Mine, Unassigned, Waiting) {:?} \
         in {:.2} s from its start; the service's {:?}: {}",
        held.len(),
        report.previews,
        loaded_in.as_secs_f64(),
        agent_counts,
        took.as_secs_f64(),
        want,
        if agent_counts == want { "exact" } else { "DIFFERENT" }
    );
    let t = Instant::now();
    let written = index.build_all_search().expect("search rows");
    println!(
        "then the search rows the TUI writes after the views are up: {written} in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    hub.stop().await;
    server.stop().await;
}

/// The release binary next to this example.
fn frontdesk_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("exe");
    exe.parent()
        .and_then(Path::parent)
        .expect("target dir")
        .join("frontdesk")
}

struct HubProc {
    child: Child,
    url: String,
    /// Where deliveries go (`/hooks/<secret>`).
    hook_url: String,
}

fn free_addr() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").to_string()
}

// The caller kills the child and waits for it (`HubProc::child`).
#[allow(clippy::zombie_processes)]
fn hub_proc(dir: &Path, server: &RunningServer, addr: &str, extra: &[&str]) -> HubProc {
    let manifest = dir.join(format!("hub-{}.json", rand_tag()));
    let child = Command::new(frontdesk_bin())
        .env("FRONTDESK_API_KEY", &server.api_key)
        .env("FRONTDESK_CONFIG", dir.join("none.toml"))
        .env("FRONTDESK_WEBHOOK_SECRET", SECRET)
        .args(["hub", "--no-subscribe", "--addr", addr, "--base-url", &server.base_url])
        .arg("--data-dir")
        .arg(dir)
        .arg("--manifest")
        .arg(&manifest)
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("hub process");
    loop {
        if let Ok(v) = std::fs::read_to_string(&manifest).map(|t| serde_json::from_str::<Value>(&t))
            && let Ok(v) = v
        {
            return HubProc {
                child,
                url: v["url"].as_str().unwrap_or_default().to_string(),
                hook_url: v["hook_url"].as_str().unwrap_or_default().to_string(),
            };
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn rand_tag() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// (CPU seconds, RSS in MiB) of a process, from /proc.
fn usage(pid: u32) -> (f64, f64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks: f64 = fields.get(11).and_then(|u| u.parse::<f64>().ok()).unwrap_or(0.0)
        + fields.get(12).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss_kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    (ticks / 100.0, rss_kb / 1024.0)
}

async fn streams(secs: u64) {
    let server = server(ServerConfig {
        contacts: 1000,
        ..Default::default()
    })
    .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let toks = tokens(dir.path(), 201);
    let hub = hub_proc(dir.path(), &server, "127.0.0.1:0", &[]);
    wait_walked(&hub.url, &toks[0], 1000).await;
    let base = snapshot(&hub.url, &toks[0])
        .await
        .into_values()
        .next()
        .expect("a contact");
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<f64>();
    for t in &toks[..200] {
        let (url, t, tx) = (hub.url.clone(), t.clone(), tx.clone());
        tokio::spawn(async move {
            let mut s = reqwest::Client::new()
                .get(format!("{url}/hub/v1/events"))
                .bearer_auth(t)
                .send()
                .await
                .expect("stream");
            let mut buf = String::new();
            while let Ok(Some(chunk)) = s.chunk().await {
                buf.push_str(&String::from_utf8_lossy(&chunk));
                while let Some(end) = buf.find("\n\n") {
                    let block: String = buf.drain(..end + 2).collect();
                    if let Some(sent) = block.split("\"name\":\"t").nth(1).and_then(|r| r.split('"').next())
                        && let Ok(us) = sent.parse::<i64>()
                    {
                        let _ = tx.send((chrono::Utc::now().timestamp_micros() - us) as f64 / 1000.0);
                    }
                }
            }
        });
    }
    // One client that never reads.
    let _stalled = reqwest::Client::new()
        .get(format!("{}/hub/v1/events", hub.url))
        .bearer_auth(&toks[200])
        .send()
        .await
        .expect("stalled stream");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let pid = hub.child.id();
    let http = reqwest::Client::new();
    let (cpu0, rss0) = usage(pid);
    let started = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    let mut i: i64 = 0;
    let mut rss = vec![rss0];
    let mut next_sample = Duration::from_secs(30);
    while started.elapsed() < Duration::from_secs(secs) {
        tick.tick().await;
        let mut c = base.clone();
        c["name"] = json!(format!("t{}", chrono::Utc::now().timestamp_micros()));
        c["lastMessageAt"] =
            json!((chrono::Utc::now() + chrono::Duration::days(1) + chrono::Duration::milliseconds(i)).to_rfc3339());
        i += 1;
        let body = json!({ "event": "contact_updated", "payload": c }).to_string();
        let sig = frontdesk::webhook::sign(SECRET.as_bytes(), chrono::Utc::now().timestamp(), body.as_bytes());
        let h = http.clone();
        let url = hub.hook_url.clone();
        tokio::spawn(async move {
            let _ = h
                .post(url)
                .header("content-type", "application/json")
                .header(frontdesk::webhook::SIGNATURE_HEADER, sig)
                .body(body)
                .send()
                .await;
        });
        if started.elapsed() >= next_sample {
            rss.push(usage(pid).1);
            next_sample += Duration::from_secs(30);
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (cpu1, rss1) = usage(pid);
    rss.push(rss1);
    let mut lat = Vec::new();
    while let Ok(x) = rx.try_recv() {
        lat.push(x);
    }
    println!(
        "200 streams (+1 stalled), {i} events in {secs} s ({:.0}/s): {} deliveries, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
         hub CPU {:.1}% of one core; RSS every 30 s (MiB): {:?}",
        i as f64 / secs as f64,
        lat.len(),
        pct(lat.clone(), 0.5),
        pct(lat.clone(), 0.99),
        pct(lat, 1.0),
        (cpu1 - cpu0) / (secs as f64 + 2.0) * 100.0,
        rss.iter().map(|r| r.round() as i64).collect::<Vec<_>>()
    );
    let mut child = hub.child;
    let _ = child.kill();
    let _ = child.wait();
    server.stop().await;
}

async fn drops(secs: u64) {
    let mut server = server(ServerConfig {
        contacts: 2000,
        activity: true,
        activity_interval_ms: 100,
        drop_webhooks: 0.2,
        webhook_secret: Some(SECRET.into()),
        ..Default::default()
    })
    .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let toks = tokens(dir.path(), 1);
    let mut cfg = HubConfig::new(dir.path().into(), &server.base_url, ApiKey::new(server.api_key.clone()));
    cfg.webhook_secret = Some(SECRET.into());
    let period = Duration::from_secs(30);
    cfg.reconcile_every = period;
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let hub = frontdesk::hub::start(HubListener::Tcp(l), cfg).await.expect("hub");
    subscribe(&server, &hub.hook_url()).await;
    // Beside the customers' messages, another tool closes and reopens
    // conversations (one a second): changes that do not move a contact,
    // which an incremental pass alone does not see when their delivery is
    // lost.
    let elsewhere = {
        let c = Client::new(&server.base_url, &server.api_key, Duration::from_secs(60)).expect("client");
        tokio::spawn(async move {
            let all = c.all_contacts(ContactFilter::default()).await.expect("walk");
            let mut i = 0usize;
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                let target = &all[(i * 7919) % all.len()];
                let id = ContactId::from(target.uuid.as_str());
                let _ = if i.is_multiple_of(2) {
                    c.close_conversation(&id).await
                } else {
                    c.open_conversation(&id).await
                };
                i += 1;
            }
        })
    };
    tokio::time::sleep(Duration::from_secs(secs)).await;
    // The traffic stops; the deliveries in flight land.
    elsewhere.abort();
    server.pause_activity().await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let want = truth(&server).await;
    let at_stop = differ(&snapshot(&hub.url, &toks[0]).await, &want);
    let stopped = Instant::now();
    loop {
        let d = differ(&snapshot(&hub.url, &toks[0]).await, &want);
        if d == 0 {
            println!(
                "20% of deliveries dropped for {secs} s: {at_stop} contacts differed when the traffic stopped; \
                 equal to the service {:.1} s later (reconciliation every {} s)",
                stopped.elapsed().as_secs_f64(),
                period.as_secs()
            );
            break;
        }
        if stopped.elapsed() > period * 3 {
            println!(
                "20% dropped: still {d} contacts differ after {:.0} s",
                stopped.elapsed().as_secs_f64()
            );
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    hub.stop().await;
    server.stop().await;
}

async fn crash() {
    let mut server = server(ServerConfig {
        contacts: 500,
        activity: true,
        activity_interval_ms: 200,
        webhook_secret: Some(SECRET.into()),
        ..Default::default()
    })
    .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let toks = tokens(dir.path(), 2);
    let addr = free_addr();
    let reconcile = ["--reconcile-secs", "5"];
    let hub = hub_proc(dir.path(), &server, &addr, &reconcile);
    subscribe(&server, &hub.hook_url).await;
    wait_walked(&hub.url, &toks[0], 500).await;
    let uuids: Vec<String> = snapshot(&hub.url, &toks[0]).await.into_keys().take(40).collect();
    let acked = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(String, String)>::new()));
    let mut writers = Vec::new();
    for (a, t) in toks.iter().enumerate() {
        let (url, t, uuids, acked) = (hub.url.clone(), t.clone(), uuids.clone(), acked.clone());
        writers.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            for i in 0usize.. {
                let u = &uuids[(i * 2 + a) % uuids.len()];
                let path = format!(
                    "/contacts/{u}/conversation/{}",
                    if i % 2 == 0 { "close" } else { "open" }
                );
                if let Ok(r) = http.post(format!("{url}/v1{path}")).bearer_auth(&t).send().await
                    && r.status().is_success()
                {
                    acked
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((format!("agent{a}"), path));
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(5)).await;
    let mut child = hub.child;
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
    for w in writers {
        w.abort();
    }
    let acked = acked.lock().unwrap_or_else(|e| e.into_inner()).clone();
    server.pause_activity().await;
    let t = Instant::now();
    let hub = hub_proc(dir.path(), &server, &addr, &reconcile);
    let want = truth(&server).await;
    let mut d = usize::MAX;
    while t.elapsed() < Duration::from_secs(60) {
        d = differ(&snapshot(&hub.url, &toks[0]).await, &want);
        if d == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    // The whole audit log, from the hub's file (the API pages it by 1,000).
    let conn = rusqlite::Connection::open(dir.path().join("hub.sqlite")).expect("hub.sqlite");
    let mut logged: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut stmt = conn
        .prepare("SELECT agent, path FROM audit WHERE status BETWEEN 200 AND 299")
        .expect("audit");
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .expect("rows");
    for key in rows.flatten() {
        *logged.entry(key).or_default() += 1;
    }
    let mut missing = 0;
    for w in &acked {
        match logged.get_mut(w) {
            Some(n) if *n > 0 => *n -= 1,
            _ => missing += 1,
        }
    }
    println!(
        "kill -9 after {} acknowledged writes: after the restart the index {} ({:.1} s); \
         {missing} acknowledged writes missing from the audit log",
        acked.len(),
        if d == 0 {
            "equals the service".to_string()
        } else {
            format!("differs in {d} contacts")
        },
        t.elapsed().as_secs_f64()
    );
    let mut child = hub.child;
    let _ = child.kill();
    let _ = child.wait();
    server.stop().await;
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_default();
    let secs: Option<u64> = args.next().and_then(|a| a.parse().ok());
    match what.as_str() {
        "requests" => requests(secs.unwrap_or(60)).await,
        "counts" => counts().await,
        "streams" => streams(secs.unwrap_or(180)).await,
        "drops" => drops(secs.unwrap_or(60)).await,
        "crash" => crash().await,
        _ => eprintln!("usage: hub_bench requests|counts|streams|drops|crash [SECONDS]"),
    }
}
