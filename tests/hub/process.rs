//! `frontdesk hub` as a process: its agents commands, its address rules,
//! the manifest and the webhook subscription.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::common;

/// The binary, with no config file of the user's, key and URL from `env`.
fn fd(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_frontdesk"));
    for var in [
        "FRONTDESK_PROFILE",
        "FRONTDESK_API_KEY",
        "FRONTDESK_BASE_URL",
        "FRONTDESK_WEBHOOK_SECRET",
    ] {
        c.env_remove(var);
    }
    let config = dir.join("config.toml");
    if !config.exists() {
        let _ = frontdesk::index::private::file_options()
            .write(true)
            .create(true)
            .open(&config);
    }
    c.env("FRONTDESK_CONFIG", &config)
        .env("FRONTDESK_HUB_DATA_DIR", dir.join("hub"));
    c
}

fn run(c: &mut Command) -> (i32, String, String) {
    let out = c.output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn agents_are_added_listed_and_removed_on_the_command_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, out, err) = run(fd(dir.path()).args(["hub", "agents", "add", "dana", "--email", "dana@example.com"]));
    assert_eq!(code, 0, "{err}");
    let token = out.lines().next().unwrap_or_default().to_string();
    assert!(token.starts_with("fdh_"), "the token comes first: {out}");
    assert!(out.contains("shown once"), "{out}");
    let (code, out, _) = run(fd(dir.path()).args(["hub", "agents", "list"]));
    assert_eq!(code, 0);
    assert!(out.contains("dana") && out.contains("dana@example.com"), "{out}");
    assert!(!out.contains(&token), "list never shows a token");
    let (code, out, _) = run(fd(dir.path()).args(["--json", "hub", "agents", "list"]));
    assert_eq!(code, 0);
    let list: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(list[0]["name"], "dana");
    let (code, _, _) = run(fd(dir.path()).args(["hub", "agents", "remove", "dana"]));
    assert_eq!(code, 0);
    let (code, _, err) = run(fd(dir.path()).args(["hub", "agents", "remove", "dana"]));
    assert_eq!(code, 2);
    assert_eq!(err.trim(), "frontdesk: no agent named dana");
    let (code, _, err) = run(fd(dir.path()).args(["hub", "agents", "add", "kim", "--email", "nope"]));
    assert_eq!(code, 2);
    assert!(err.contains("not an email address"), "{err}");
}

#[test]
fn plain_http_off_loopback_is_refused_with_one_clear_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, _, err) = run(fd(dir.path()).args([
        "hub",
        "--addr",
        "0.0.0.0:0",
        "--api-key",
        "k",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--no-subscribe",
    ]));
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not a loopback address"), "{err}");
    let (code, _, err) = run(fd(dir.path()).args(["hub", "--base-url", "http://127.0.0.1:9/v1"]));
    assert_eq!(code, 2);
    assert!(err.contains("API key"), "{err}");
}

/// Waits for the manifest the hub writes once listening.
pub fn manifest(path: &Path, child: &mut Child) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
        {
            return v;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the hub ended: {status}");
        }
        assert!(Instant::now() < deadline, "no manifest");
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_hub_writes_its_manifest_and_a_failed_subscription_is_a_warning_not_a_crash() {
    let server = common::spawn_blocking(common::config(10, 42));
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest_path: PathBuf = dir.path().join("hub.json");
    let child = fd(dir.path())
        .env("FRONTDESK_API_KEY", &server.api_key)
        .args(["hub", "--addr", "127.0.0.1:0", "--base-url", &server.base_url])
        .arg("--manifest")
        .arg(&manifest_path)
        // The service refuses a receiver that is not public https.
        .args(["--public-url", "https://hub.example.com", "--subscribe"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hub starts");
    let mut child = Killed(child);
    let m = manifest(&manifest_path, &mut child.0);
    assert_eq!(m["pid"].as_u64(), Some(u64::from(child.0.id())));
    assert!(
        m["hook_url"]
            .as_str()
            .is_some_and(|u| u.starts_with("https://hub.example.com/hooks/")),
        "{m}"
    );
    let url = m["url"].as_str().expect("url").to_string();
    let stderr = child.0.stderr.take().expect("stderr");
    let warning = BufReader::new(stderr)
        .lines()
        .map_while(Result::ok)
        .find(|l| l.contains("webhook") && l.contains("subscribed"))
        .expect("a line about the webhook");
    assert!(
        warning.contains("warning: the webhook could not be subscribed"),
        "{warning}"
    );
    let status = common::runtime().block_on(async {
        reqwest::get(format!("{url}/hub/v1/whoami"))
            .await
            .expect("the hub answers")
            .status()
    });
    assert_eq!(status, reqwest::StatusCode::UNAUTHORIZED);
    drop(child);
    common::runtime().block_on(server.stop());
}

#[cfg(unix)]
#[test]
fn the_hub_listens_on_a_unix_socket_with_mode_0660() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let sock = dir.path().join("hub.sock");
    // A socket a killed hub left behind is no obstacle.
    drop(std::os::unix::net::UnixListener::bind(&sock).expect("a stale socket"));
    let manifest_path = dir.path().join("hub.json");
    let child = fd(dir.path())
        .args([
            "hub",
            "--api-key",
            "k",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--no-subscribe",
        ])
        .arg("--addr")
        .arg(format!("unix:{}", sock.display()))
        .arg("--manifest")
        .arg(&manifest_path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("hub starts");
    let mut child = Killed(child);
    let m = manifest(&manifest_path, &mut child.0);
    assert_eq!(m["url"].as_str(), Some(format!("unix:{}", sock.display()).as_str()));
    let mode = std::fs::metadata(&sock).expect("socket").permissions().mode();
    assert_eq!(mode & 0o777, 0o660, "{mode:o}");
}

#[test]
fn the_audit_log_is_read_on_the_command_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = frontdesk::hub::store::Store::open(&dir.path().join("hub")).expect("store");
    frontdesk::hub::audit::record(
        &store,
        "dana",
        "POST",
        "/contacts/c-1/conversation/close",
        200,
        Some("c-1"),
    )
    .expect("recorded");
    frontdesk::hub::audit::record(&store, "lee", "PATCH", "/contacts/c-2", 422, Some("c-2")).expect("recorded");
    let (code, out, err) = run(fd(dir.path()).args(["hub", "audit"]));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    // Newest first (issue 36).
    assert!(lines[0].contains("lee") && lines[0].contains("422"), "{out}");
    assert!(
        lines[1].contains("dana") && lines[1].contains("/contacts/c-1/conversation/close") && lines[1].contains("200")
    );
    let (code, out, _) = run(fd(dir.path()).args(["--json", "hub", "audit", "--limit", "1"]));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v.as_array().map(Vec::len), Some(1));
    assert_eq!(v[0]["agent"], "lee", "--limit 1 is the newest");
    let (code, _, err) = run(fd(dir.path()).args(["hub", "audit", "--since", "last week"]));
    assert_eq!(code, 2);
    assert!(err.contains("RFC 3339"), "{err}");
}

#[test]
fn the_demo_wires_a_server_and_a_hub_by_webhook_and_a_second_agent_joins() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("demo");
    let child = fd(dir.path())
        .args(["hub", "demo", "--headless", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(&data)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the demo starts");
    let mut child = Killed(child);
    let m = manifest(&data.join("demo.json"), &mut child.0);
    let url = m["url"].as_str().expect("url").to_string();
    assert!(
        m["agents"]["dana"].as_str().is_some_and(|t| t.starts_with("fdh_")),
        "{m}"
    );
    let (code, out, err) = run(fd(dir.path())
        .args(["hub", "join", "bea", "--print", "--data-dir"])
        .arg(&data));
    assert_eq!(code, 0, "{err}");
    let token = m["agents"]["bea"].as_str().expect("bea's token");
    assert_eq!(out, format!("FRONTDESK_HUB_URL={url}\nFRONTDESK_HUB_TOKEN={token}\n"));
    let (code, _, err) = run(fd(dir.path()).args(["hub", "join", "kim", "--data-dir"]).arg(&data));
    assert_eq!(code, 2);
    assert!(err.contains("no agent kim"), "{err}");
    common::runtime().block_on(async {
        let http = reqwest::Client::new();
        let who: serde_json::Value = http
            .get(format!("{url}/hub/v1/whoami"))
            .bearer_auth(token)
            .send()
            .await
            .expect("whoami")
            .json()
            .await
            .expect("json");
        assert_eq!(who["agent"], "bea");
        // The demo server's customers write now and then; their messages
        // reach the hub only by the webhook.
        let mut stream = http
            .get(format!("{url}/hub/v1/events"))
            .bearer_auth(token)
            .send()
            .await
            .expect("stream");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let mut buf = String::new();
        loop {
            let chunk = tokio::time::timeout_at(deadline, stream.chunk())
                .await
                .expect("a customer's message arrives by webhook")
                .expect("stream")
                .expect("stream open");
            buf.push_str(&String::from_utf8_lossy(&chunk));
            if buf.contains("event: message_created") {
                break;
            }
        }
    });
    drop(child);
    let (code, _, err) = run(fd(dir.path()).args(["hub", "join", "--data-dir"]).arg(&data));
    assert_ne!(code, 0);
    assert!(err.contains("no demo hub is running"), "{err}");
}
