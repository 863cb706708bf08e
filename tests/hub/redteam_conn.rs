//! Issue 34's attacks on the hub's connections, stream and tokens: half
//! headers and silent connections, `Last-Event-ID`s the hub never issued,
//! a restart after `kill -9`, rotated and expired tokens, and the service
//! going down while agents watch.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::Duration;

use frontdesk::hub::agents;
use frontdesk::hub::store::Store;
use reqwest::StatusCode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::common;
use super::redteam::{echo_upstream, hub_on_echo};
use super::support;

/// Reads until the hub closes the connection; true when it did within
/// the test's patience.
async fn closed_by_hub(s: &mut tokio::net::TcpStream) -> bool {
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout(support::PATIENCE, s.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
            Err(_) => return false,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_header_or_a_silent_connection_is_closed_and_a_stream_is_not() {
    let t = support::team_with(5, |c| {
        c.limits.header_timeout = Duration::from_millis(300);
        c.limits.idle_timeout = Some(Duration::from_millis(600));
        c.keep_alive = Duration::from_millis(100);
    })
    .await;
    let addr = t.hub.url.trim_start_matches("http://").to_string();
    let mut silent = tokio::net::TcpStream::connect(&addr).await.expect("connect");
    let mut half = tokio::net::TcpStream::connect(&addr).await.expect("connect");
    half.write_all(b"GET /hub/v1/whoami HTTP/1.1\r\nHost: x\r\nAuthor")
        .await
        .expect("write");
    assert!(closed_by_hub(&mut silent).await, "a silent connection is closed");
    assert!(closed_by_hub(&mut half).await, "a half header is closed");
    // A stream lives on its heartbeat well past both timeouts.
    let mut events = t.dana.get("/hub/v1/events").send().await.expect("stream");
    let mut beats = 0;
    while beats < 15 {
        let chunk = tokio::time::timeout(support::PATIENCE, events.chunk())
            .await
            .expect("the stream goes on")
            .expect("read")
            .expect("not ended");
        beats += String::from_utf8_lossy(&chunk).matches("keep-alive").count();
    }
    t.hub.stop().await;
}

/// The first event of a stream opened with `Last-Event-ID: last`.
async fn first_event(agent: &support::Agent, last: &str) -> (String, String) {
    let mut resp = agent
        .get("/hub/v1/events")
        .header("Last-Event-ID", last)
        .send()
        .await
        .expect("stream");
    let mut buf = String::new();
    while !buf.contains("\n\n") {
        let chunk = tokio::time::timeout(support::PATIENCE, resp.chunk())
            .await
            .expect("an event comes")
            .expect("read")
            .expect("not ended");
        buf.push_str(&String::from_utf8_lossy(&chunk));
    }
    let kind = buf
        .lines()
        .find_map(|l| l.strip_prefix("event: "))
        .unwrap_or("")
        .to_string();
    (kind, buf)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_last_event_id_the_hub_never_issued_gets_resync() {
    let t = support::team_with(5, |_| {}).await;
    let (_, whoami) = t.dana.json("/hub/v1/whoami").await;
    assert_eq!(whoami["agent"], "dana");
    let newest = t.hub.state.bus.last_id();
    for last in [
        "garbage".to_string(),
        "-1".into(),
        "".into(),
        (newest + 1000).to_string(),
        "0".into(),
    ] {
        let (kind, text) = first_event(&t.dana, &last).await;
        assert_eq!(kind, "resync", "Last-Event-ID {last:?}: {text}");
    }
    t.hub.stop().await;
}

/// The binary, with no config file of the user's.
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
    let _ = frontdesk::index::private::file_options()
        .write(true)
        .create(true)
        .open(&config);
    c.env("FRONTDESK_CONFIG", &config)
        .env("FRONTDESK_HUB_DATA_DIR", dir.join("hub"));
    c
}

/// A pid no process has any more.
fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().expect("true runs");
    let pid = child.id();
    let _ = child.wait();
    pid
}

#[test]
fn the_same_command_starts_again_after_a_kill_and_a_live_hub_still_refuses() {
    let server = common::spawn_blocking(common::config(5, 42));
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = dir.path().join("hub.json");
    let hub = |m: &Path| {
        let mut c = fd(dir.path());
        c.env("FRONTDESK_API_KEY", &server.api_key)
            .args([
                "hub",
                "--addr",
                "127.0.0.1:0",
                "--no-subscribe",
                "--base-url",
                &server.base_url,
            ])
            .arg("--manifest")
            .arg(m)
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        c
    };
    // What a hub killed with -9 leaves: its manifest, naming a pid that is gone.
    std::fs::write(
        &manifest,
        format!(r#"{{"url": "http://127.0.0.1:1", "pid": {}}}"#, dead_pid()),
    )
    .expect("stale manifest");
    let child = hub(&manifest).spawn().expect("hub starts");
    let mut child = super::process::Killed(child);
    let pid = u64::from(child.0.id());
    let replaced = common::wait_until(support::PATIENCE, || {
        if let Ok(Some(status)) = child.0.try_wait() {
            panic!("the hub ended: {status}");
        }
        std::fs::read_to_string(&manifest)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .is_some_and(|v| v["pid"].as_u64() == Some(pid))
    });
    assert!(replaced, "the stale manifest was replaced by the new hub's");
    // While it runs, the same command refuses: its manifest names a live pid.
    let out = hub(&manifest).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("manifest"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    drop(child);
    common::runtime().block_on(server.stop());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotated_token_is_refused_at_once_and_its_stream_ends() {
    let t = support::team_with(5, |_| {}).await;
    let mut stream = t.dana.get("/hub/v1/events").send().await.expect("stream");
    assert_eq!(stream.status(), StatusCode::OK);
    let store = Store::open(t.dir.path()).expect("store");
    let new = agents::rotate(&store, "dana", None).expect("rotated");
    assert_ne!(new, t.dana.token);
    let ended = async {
        loop {
            match stream.chunk().await {
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => return,
            }
        }
    };
    tokio::time::timeout(support::PATIENCE, ended)
        .await
        .expect("the old token's stream ends");
    let (st, _) = t.dana.json("/hub/v1/whoami").await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);
    let resp = t
        .dana
        .http
        .get(format!("{}/hub/v1/whoami", t.dana.url))
        .bearer_auth(&new)
        .send()
        .await
        .expect("answer");
    assert_eq!(resp.status(), StatusCode::OK);
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_token_is_401_saying_it_expired() {
    let t = support::team_with(5, |_| {}).await;
    let store = Store::open(t.dir.path()).expect("store");
    let lifetime = agents::parse_lifetime("30d").expect("30d");
    let kim = agents::add_with(
        &store,
        "kim",
        "kim@example.com",
        None,
        agents::Role::Agent,
        Some(lifetime),
    )
    .expect("added");
    let get = |token: String| {
        t.dana
            .http
            .get(format!("{}/hub/v1/whoami", t.dana.url))
            .bearer_auth(token)
            .send()
    };
    let (st, me) = {
        let r = get(kim.clone()).await.expect("answer");
        (r.status(), r.json::<serde_json::Value>().await.expect("json"))
    };
    assert_eq!(st, StatusCode::OK);
    assert!(me["expires_at"].is_string(), "{me}");
    let mut stream = t
        .dana
        .http
        .get(format!("{}/hub/v1/events", t.dana.url))
        .bearer_auth(&kim)
        .send()
        .await
        .expect("stream");
    assert_eq!(stream.status(), StatusCode::OK);
    store
        .conn()
        .execute(
            "UPDATE agents SET expires_at = '2020-01-01T00:00:00Z' WHERE name = 'kim'",
            [],
        )
        .expect("expire it");
    let ended = async { while let Ok(Some(_)) = stream.chunk().await {} };
    tokio::time::timeout(support::PATIENCE, ended)
        .await
        .expect("the expired token's stream ends");
    let r = get(kim).await.expect("answer");
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert!(r.text().await.expect("body").contains("expired"));
    assert!(agents::parse_lifetime("soon").is_err());
    assert!(agents::parse_lifetime("-3d").is_err());
    t.hub.stop().await;
}

#[cfg(unix)]
#[test]
fn a_data_dir_others_can_write_to_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("hub");
    std::fs::create_dir(&data).expect("dir");
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let err = Store::open(&data).expect_err("refused");
    assert!(err.to_string().contains("writable by others"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_hear_when_the_service_is_down_and_when_it_is_back() {
    let echo = echo_upstream().await;
    let (hub, _dir, token) = hub_on_echo(&echo, |c| {
        c.down_after = 2;
        c.probe_every = Duration::from_millis(100);
    })
    .await;
    let agent = support::agent(&hub, "dana", token);
    let mut events = agent.events(None).await;
    echo.down.store(true, Ordering::SeqCst);
    let down = events.next_of("service_status").await;
    assert_eq!(down.data["state"], "down", "{:?}", down.data);
    assert!(down.data["since"].is_string());
    let (_, me) = agent.json("/hub/v1/whoami").await;
    assert_eq!(me["service"]["state"], "down");
    // A stream opened now hears it at once.
    let mut late = agent.events(None).await;
    assert_eq!(late.next_of("service_status").await.data["state"], "down");
    echo.down.store(false, Ordering::SeqCst);
    let up = events.next_of("service_status").await;
    assert_eq!(up.data["state"], "up");
    assert!(echo.hits.load(Ordering::SeqCst) > 0);
    hub.stop().await;
}

#[test]
fn roles_and_rotation_on_the_command_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = |args: &[&str]| {
        let out = fd(dir.path()).args(args).output().expect("runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (
            out.status.code(),
            text,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = run(&[
        "hub",
        "agents",
        "add",
        "dana",
        "--email",
        "dana@example.com",
        "--expires",
        "30d",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let old = out.lines().next().unwrap_or_default().to_string();
    let (code, out, err) = run(&["hub", "agents", "rotate", "dana"]);
    assert_eq!(code, Some(0), "{err}");
    let new = out.lines().next().unwrap_or_default().to_string();
    assert!(new.starts_with("fdh_") && new != old, "{out}");
    let (code, _, err) = run(&["hub", "agents", "role", "dana", "admin"]);
    assert_eq!(code, Some(0), "{err}");
    let (_, list, _) = run(&["--json", "hub", "agents", "list"]);
    let list: serde_json::Value = serde_json::from_str(&list).expect("json");
    assert_eq!(list[0]["role"], "admin");
    let store = Store::open(&dir.path().join("hub")).expect("store");
    assert!(
        agents::by_token(&store, &old).expect("lookup").is_none(),
        "the old token is gone"
    );
    assert!(agents::by_token(&store, &new).expect("lookup").is_some());
    let (code, _, err) = run(&[
        "hub",
        "agents",
        "add",
        "kim",
        "--email",
        "k@example.com",
        "--expires",
        "soon",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--expires"), "{err}");
}
