//! Driving `frontdesk mcp` over its stdio: a session of JSON-RPC lines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use frontdesk::server::RunningServer;

use serde_json::{Value, json};

pub struct Session {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    pub next_id: u64,
    /// Every line the server wrote, to check no key is in any.
    pub seen: Vec<String>,
}

pub fn start(server: &RunningServer, home: &std::path::Path, writes: bool) -> Session {
    start_at(&server.base_url, &server.api_key, home, writes, "")
}

/// A session against the service at `base_url` with `key`, the config
/// file holding `config`.
pub fn start_at(base_url: &str, key: &str, home: &std::path::Path, writes: bool, config: &str) -> Session {
    let mut c = Command::new(env!("CARGO_BIN_EXE_frontdesk"));
    for var in [
        "FRONTDESK_PROFILE",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_CONFIG",
        "NO_COLOR",
    ] {
        c.env_remove(var);
    }
    let text = config;
    let config = home.join("config.toml");
    std::fs::write(&config, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    c.env("FRONTDESK_BASE_URL", base_url)
        .env("FRONTDESK_API_KEY", key)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("HOME", home)
        .arg("--config")
        .arg(config)
        .arg("mcp");
    if writes {
        c.arg("--allow-writes");
    }
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut s = Session {
        child,
        stdin: Some(stdin),
        lines,
        next_id: 1,
        seen: Vec::new(),
    };
    let init = s.request(
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": { "name": "frontdesk-test", "version": "0" }
        }),
    );
    assert!(init["result"]["capabilities"]["tools"].is_object(), "{init}");
    assert_eq!(init["result"]["serverInfo"]["name"], "frontdesk");
    s.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    s
}

impl Session {
    pub fn send(&mut self, v: Value) {
        self.raw(format!("{v}\n").as_bytes());
    }

    /// Writes bytes as they are (a line needs its newline).
    pub fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next line the server writes, parsed (bounded wait).
    pub fn next(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .expect("a line from frontdesk mcp");
        self.seen.push(line.clone());
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    /// Closes stdin, as a client does when it is done.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Sends a request and waits (bounded) for the answer with its id.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .expect("an answer from frontdesk mcp");
            self.seen.push(line.clone());
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    /// Calls a tool: whether it failed, and its structured result as
    /// JSON text (its text block when it failed).
    pub fn call(&mut self, name: &str, args: Value) -> (bool, String) {
        let v = self.request("tools/call", json!({ "name": name, "arguments": args }));
        let r = &v["result"];
        let text = r["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{v}"));
        if r["isError"] == json!(true) {
            return (true, text.to_string());
        }
        assert!(r["structuredContent"].is_object(), "{v}");
        (false, r["structuredContent"].to_string())
    }

    /// Waits (bounded) until the index is complete, as results say.
    pub fn wait_complete(&mut self) {
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        loop {
            let (err, out) = self.call("list_contacts", json!({ "limit": 1 }));
            if !err && data(&out)["complete"] == json!(true) {
                return;
            }
            assert!(std::time::Instant::now() < deadline, "the index never completed: {out}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn tools(&mut self) -> Vec<String> {
        let v = self.request("tools/list", json!({}));
        v["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A result's structured content.
pub fn data(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}
