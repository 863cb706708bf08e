//! Issue 34's burst target: 200 streams on a hub process, 2,000 customer
//! messages (documented `message_created` payloads, short contacts) in
//! 10 s, every event to every stream: p99 from delivery to each stream,
//! the hub process's CPU, deliveries refused (503). Run in release:
//!
//! cargo build --release --bin frontdesk --example hub_burst
//! target/release/examples/hub_burst [HUB_BINARY] [--old]
//!
//! `HUB_BINARY` defaults to the frontdesk next to this example; `--old`
//! delivers to the fixed `/hooks/service` of hubs before the secret hook
//! path (for the "before" figure).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use frontdesk::hub::agents;
use frontdesk::hub::store::Store;
use frontdesk::server::ServerConfig;
use serde_json::{Value, json};

/// Streams (`HUB_BURST_STREAMS` overrides it, to tell the hub's work from the fan-out's).
fn streams() -> usize {
    std::env::var("HUB_BURST_STREAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}
const MESSAGES: usize = 2000;
const BURST: Duration = Duration::from_secs(10);

fn usage(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let f: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let t = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (t(11) + t(12)) / 100.0
}

fn pct(xs: &mut [f64], q: f64) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[((xs.len() - 1) as f64 * q).round() as usize]
}

struct Killed(Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let old = args.iter().any(|a| a == "--old");
    let bin = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let exe = std::env::current_exe().expect("exe");
            exe.parent()
                .and_then(Path::parent)
                .expect("target dir")
                .join("frontdesk")
        });
    let server = frontdesk::server::start(
        tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind"),
        ServerConfig {
            contacts: 1000,
            ..Default::default()
        },
    )
    .await
    .expect("server");
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(dir.path()).expect("store");
    let n_streams = streams();
    let toks: Vec<String> = (0..n_streams.max(1))
        .map(|i| agents::add(&store, &format!("a{i}"), "dana@frontdesk.example", None).expect("agent"))
        .collect();
    drop(store);
    let manifest = dir.path().join("hub.json");
    let child = Command::new(&bin)
        .env("FRONTDESK_API_KEY", &server.api_key)
        .env("FRONTDESK_CONFIG", dir.path().join("none.toml"))
        .args([
            "hub",
            "--no-subscribe",
            "--addr",
            "127.0.0.1:0",
            "--base-url",
            &server.base_url,
        ])
        .arg("--data-dir")
        .arg(dir.path())
        .arg("--manifest")
        .arg(&manifest)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("hub process");
    let hub = Killed(child);
    let m: Value = loop {
        if let Ok(Ok(v)) = std::fs::read_to_string(&manifest).map(|t| serde_json::from_str::<Value>(&t)) {
            break v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let url = m["url"].as_str().expect("url").to_string();
    let hook = if old {
        format!("{url}/hooks/service")
    } else {
        m["hook_url"].as_str().expect("hook_url").to_string()
    };
    let http = reqwest::Client::new();
    // The first walk done: the snapshot holds every contact.
    let contacts: Vec<Value> = loop {
        let text = http
            .get(format!("{url}/hub/v1/snapshot"))
            .bearer_auth(&toks[0])
            .send()
            .await
            .expect("snapshot")
            .text()
            .await
            .unwrap_or_default();
        let cs: Vec<Value> = text
            .lines()
            .skip(1)
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        if cs.len() >= 1000 {
            break cs;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<f64>();
    let got = Arc::new(AtomicU64::new(0));
    let mut open = Vec::new();
    for t in toks.iter().take(n_streams) {
        let (url, t, tx, got) = (url.clone(), t.clone(), tx.clone(), got.clone());
        open.push(tokio::spawn(async move {
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
                    if !block.contains("event: message_created") {
                        continue;
                    }
                    if let Some(us) = block
                        .split("\"text\":\"t")
                        .nth(1)
                        .and_then(|r| r.split('"').next())
                        .and_then(|v| v.parse::<i64>().ok())
                    {
                        got.fetch_add(1, Ordering::Relaxed);
                        let _ = tx.send((chrono::Utc::now().timestamp_micros() - us) as f64 / 1000.0);
                    }
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let pid = hub.0.id();
    let cpu0 = usage(pid);
    let me0 = usage(std::process::id());
    let refused = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tick = tokio::time::interval(BURST / MESSAGES as u32);
    let mut sends = Vec::new();
    for i in 0..MESSAGES {
        tick.tick().await;
        let c = &contacts[i % contacts.len()];
        let short = json!({
            "href": c["href"], "conversationHref": c["conversationHref"], "name": c["name"],
            "tags": c["tags"], "uuid": c["uuid"], "source": c["source"], "avatarUrl": null,
            "createdAt": c["createdAt"], "phoneNumber": c["phoneNumber"] });
        let body = json!({ "event": "message_created", "payload": {
            "to": "331122334455", "from": c["phoneNumber"], "status": "received", "channel": "whatsapp",
            "text": format!("t{}", chrono::Utc::now().timestamp_micros()),
            "contact": short, "createdAt": chrono::Utc::now().to_rfc3339() } });
        let (h, hook, refused) = (http.clone(), hook.clone(), refused.clone());
        sends.push(tokio::spawn(async move {
            let r = h.post(hook).json(&body).send().await;
            if !r.is_ok_and(|r| r.status().is_success()) {
                refused.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    for s in sends {
        let _ = s.await;
    }
    let want = (n_streams * MESSAGES) as u64;
    let deadline = Instant::now() + Duration::from_secs(60);
    while got.load(Ordering::Relaxed) < want - refused.load(Ordering::Relaxed) * n_streams as u64
        && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let drained = started.elapsed();
    let cpu = usage(pid) - cpu0;
    let me = usage(std::process::id()) - me0;
    let mut lat = Vec::new();
    while let Ok(x) = rx.try_recv() {
        lat.push(x);
    }
    println!(
        "{} {n_streams} streams, {MESSAGES} messages in {:.1} s: {} of {want} events, {} refused; \
         p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; drained {:.1} s after the first; hub CPU {:.2} core ({:.1} s over {:.1} s); this bench's own CPU {:.2} core",
        if old { "[old /hooks/service]" } else { "[hook path]" },
        BURST.as_secs_f64(),
        lat.len(),
        refused.load(Ordering::Relaxed),
        pct(&mut lat, 0.5),
        pct(&mut lat, 0.99),
        pct(&mut lat, 1.0),
        drained.as_secs_f64(),
        cpu / drained.as_secs_f64(),
        cpu,
        drained.as_secs_f64(),
        me / drained.as_secs_f64(),
    );
    for h in open {
        h.abort();
    }
    drop(hub);
}
