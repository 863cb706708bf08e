//! Shared test setup: the embedded server on 127.0.0.1:0 and a plain HTTP
//! view of it that does not go through the client under test.
//!
//! Every integration test binary that needs a server declares `mod common;`
//! and uses these instead of a copy of its own. Not every binary uses every
//! helper, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::sync::OnceLock;

use frontdesk::server::{RunningServer, ServerConfig, start};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// Start the embedded server with `cfg` on a free loopback port.
pub async fn spawn(cfg: ServerConfig) -> RunningServer {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    start(listener, cfg).await.expect("server starts")
}

/// An approved template of the account (to send a message to anyone, as
/// the seeded account has).
pub async fn approved_template(client: &frontdesk::api::Client) -> frontdesk::api::Template {
    client
        .list_templates(None)
        .await
        .expect("templates listed")
        .items
        .into_iter()
        .find(|t| t.status == frontdesk::api::TemplateStatus::Approved)
        .expect("an approved template")
}

/// The default configuration with `contacts` seeded contacts and `seed`.
pub fn config(contacts: usize, seed: u64) -> ServerConfig {
    ServerConfig {
        contacts,
        seed,
        ..Default::default()
    }
}

/// One multi-threaded runtime for tests that are synchronous themselves
/// (they block on the binary) but need a server running meanwhile.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime")
    })
}

/// [`spawn`] from synchronous code, on [`runtime`].
pub fn spawn_blocking(cfg: ServerConfig) -> RunningServer {
    runtime().block_on(spawn(cfg))
}

/// Plain HTTP against a server: the server's own view, independent of
/// `frontdesk::api`.
#[derive(Clone)]
pub struct Raw {
    pub http: reqwest::Client,
    pub base_url: String,
    pub api_key: String,
}

impl Raw {
    pub fn new(server: &RunningServer) -> Raw {
        Raw::at(&server.base_url, &server.api_key)
    }

    pub fn at(base_url: &str, api_key: &str) -> Raw {
        Raw {
            http: reqwest::Client::new(),
            base_url: base_url.to_string(),
            api_key: api_key.to_string(),
        }
    }

    /// One request with the key and a JSON body. The answer's body as JSON:
    /// `Null` when empty, `{"raw": text}` when not JSON.
    pub async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base_url))
            .bearer_auth(&self.api_key)
            .header("content-type", "application/json");
        if let Some(b) = body {
            req = req.body(b.to_string());
        }
        let resp = req.send().await.expect("request reaches the server");
        let status = resp.status();
        let text = resp.text().await.expect("response body");
        let v = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(json!({ "raw": text }))
        };
        (status, v)
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.call(Method::GET, path, None).await
    }

    /// GET that must answer 200.
    pub async fn ok(&self, path: &str) -> Value {
        let (st, v) = self.get(path).await;
        assert_eq!(st, StatusCode::OK, "GET {path}: {v}");
        v
    }
}

/// The demo server started by the TUI process `parent`: its pid and the
/// manifest path on its command line (Linux `/proc`; `None` elsewhere or
/// while it is not there yet).
pub fn demo_server_of(parent: u32) -> Option<(u32, std::path::PathBuf)> {
    let dir = std::fs::read_dir("/proc").ok()?;
    dir.flatten().find_map(|e| {
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
        let ppid: u32 = stat.rsplit(')').next()?.split_whitespace().nth(1)?.parse().ok()?;
        if ppid != parent {
            return None;
        }
        let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
        let args: Vec<String> = cmdline
            .split(|b| *b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        if !args.iter().any(|a| a == "serve") {
            return None;
        }
        let at = args.iter().position(|a| a == "--manifest")?;
        Some((pid, std::path::PathBuf::from(args.get(at + 1)?)))
    })
}

/// Whether `pid` is a live process (a zombie has exited already).
pub fn alive(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    !stat.rsplit(')').next().is_some_and(|r| r.trim_start().starts_with('Z'))
}

/// Wait up to `limit` for `done`, polling.
pub fn wait_until(limit: std::time::Duration, mut done: impl FnMut() -> bool) -> bool {
    let end = std::time::Instant::now() + limit;
    loop {
        if done() {
            return true;
        }
        if std::time::Instant::now() > end {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A proxy on 127.0.0.1:0 in front of `upstream`: while `gate` is shut it
/// accepts connections and holds them, so no answer can arrive (a host
/// that swallows packets, the slowest way to fail). `open` is how the gate
/// starts.
pub async fn gated_proxy(upstream: &str, open: bool) -> (String, std::sync::Arc<tokio::sync::watch::Sender<bool>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let upstream_addr = upstream
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let (gate, _) = tokio::sync::watch::channel(open);
    let gate = std::sync::Arc::new(gate);
    let open = gate.clone();
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let mut rx = open.subscribe();
            let upstream_addr = upstream_addr.clone();
            tokio::spawn(async move {
                let _ = rx.wait_for(|open| *open).await;
                if let Ok(mut out) = tokio::net::TcpStream::connect(&upstream_addr).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut out).await;
                }
            });
        }
    });
    (format!("http://{addr}/v1"), gate)
}

/// Whether a conversation's page of messages (as the server answers
/// `/contacts/:uuid/messages`) leaves its customer waiting, by README's
/// "Who is waiting", computed here apart from the client: a customer
/// message after the last person's reply; notes and automatic sends
/// (within 5 s of the message before, the customer's or another automatic
/// one) do not answer.
pub fn customer_waits(page: &Value) -> bool {
    let mut messages: Vec<(String, i64)> = page["messages"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .rev()
        .map(|m| {
            let at = m["createdAt"]
                .as_str()
                .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
                .map_or(0, |t| t.timestamp());
            (m["status"].as_str().unwrap_or_default().to_string(), at)
        })
        .collect();
    messages.sort_by_key(|m| m.1);
    let (mut owed, mut prev): (bool, Option<(bool, i64)>) = (false, None);
    for (status, at) in messages {
        match status.as_str() {
            "received" => {
                owed = true;
                prev = Some((true, at));
            }
            "sent" => {
                let automatic = prev.is_some_and(|(quick, t)| quick && at - t <= 5);
                owed &= automatic;
                prev = Some((automatic, at));
            }
            _ => {}
        }
    }
    owed
}
