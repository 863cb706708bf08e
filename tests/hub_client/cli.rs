//! The CLI through a hub: sync, search, get, config check, sync --follow,
//! doctor; and whoami and presence.

use std::time::Duration;

use assert_cmd::Command;
use frontdesk::hubclient::{HubClient, PresenceState};
use frontdesk::index::Index;
use serde_json::{Value, json};

use super::common;
use super::fake::*;

/// The CLI with the hub in the environment and nothing else configured.
fn fd(url: &str, token: &str, home: &std::path::Path) -> Command {
    Command::from_std(fd_std(url, token, home))
}

fn fd_std(url: &str, token: &str, home: &std::path::Path) -> std::process::Command {
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("frontdesk"));
    for var in [
        "FRONTDESK_PROFILE",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_CONFIG",
        "FRONTDESK_API_KEY",
        "FRONTDESK_BASE_URL",
        "NO_COLOR",
    ] {
        c.env_remove(var);
    }
    let config = home.join("config.toml");
    std::fs::write(&config, "").unwrap();
    c.env("FRONTDESK_HUB_URL", url)
        .env("FRONTDESK_HUB_TOKEN", token)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("HOME", home)
        .arg("--config")
        .arg(config);
    c
}

#[test]
fn sync_and_search_through_a_hub_read_its_snapshot_and_never_walk() {
    let contacts = vec![contact("c2", "Bea Ortiz", 2), contact("c1", "Ana", 1)];
    let (url, shared) = common::runtime().block_on(fake_hub(fake_with(contacts)));
    let home = tempfile::tempdir().unwrap();

    let o = fd(&url, TOKEN, home.path()).arg("sync").output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    assert!(out.contains("synced 2 contacts from the hub"), "{out}");

    let o = fd(&url, TOKEN, home.path())
        .args(["contacts", "search", "ortiz", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let found: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(found[0]["uuid"], "c2", "{found}");

    // A plain command goes to the hub's /v1 with the agent token.
    let o = fd(&url, TOKEN, home.path())
        .args(["contacts", "get", "c1", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let paths: Vec<String> = shared.lock().unwrap().seen.iter().map(|(p, _)| p.clone()).collect();
    assert!(paths.contains(&"/v1/contacts/c1".to_string()), "{paths:?}");
    assert!(
        !paths.iter().any(|p| p == "/v1/contacts" || p == "/v1/plan"),
        "no walk of its own: {paths:?}"
    );
    // `config check` names the hub and masks the token.
    let o = fd(&url, TOKEN, home.path()).args(["config", "check"]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("hub_url") && out.contains(url.as_str()), "{out}");
    assert!(out.contains("hub_token") && !out.contains(TOKEN), "{out}");
    // The index file holds no token.
    let cache = home.path().join("cache/frontdesk");
    for entry in std::fs::read_dir(&cache).unwrap().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap();
        assert!(!bytes.windows(TOKEN.len()).any(|w| w == TOKEN.as_bytes()));
    }
}

#[test]
fn a_refused_token_is_one_clear_line_without_the_token() {
    let (url, _) = common::runtime().block_on(fake_hub(fake_with(Vec::new())));
    let home = tempfile::tempdir().unwrap();
    let o = fd(&url, "wrong-token-77", home.path()).arg("sync").output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("agent token"), "{err}");
    assert!(!err.contains("wrong-token-77"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn sync_follow_keeps_the_index_live_and_takes_a_new_snapshot_on_resync() {
    let mut fake = fake_with(vec![contact("c2", "Bea Ortiz", 2), contact("c1", "Ana", 1)]);
    fake.streams = vec![
        event(42, "contact_changed", json!({ "contact": contact("c5", "Eve", 5) }))
            + &event(
                43,
                "conversation_closed",
                json!({ "contact": "c2", "agent": "dana", "at": "2026-01-02T11:00:00Z" }),
            )
            + &event(44, "resync", json!({ "reason": "replay buffer passed" })),
        event(45, "contact_changed", json!({ "contact": contact("c6", "Zed", 6) })),
    ];
    let (url, shared) = common::runtime().block_on(fake_hub(fake));
    let home = tempfile::tempdir().unwrap();
    let mut cmd = fd_std(&url, TOKEN, home.path());
    let mut child = cmd
        .args(["sync", "--follow", "--jsonl"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines: Vec<Value> = Vec::new();
    while lines.len() < 4 {
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(l) => lines.push(serde_json::from_str(&l).unwrap()),
            Err(_) => break,
        }
    }
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let kinds: Vec<(u64, &str)> = lines
        .iter()
        .map(|l| (l["id"].as_u64().unwrap(), l["event"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            (42, "contact_changed"),
            (43, "conversation_closed"),
            (44, "resync"),
            (45, "contact_changed")
        ],
        "{err}"
    );
    assert_eq!(lines[1]["agent"], "dana");
    assert_eq!(lines[1]["changed"], true);
    assert!(err.contains("loaded the hub's snapshot again"), "{err}");
    let snapshots = shared
        .lock()
        .unwrap()
        .seen
        .iter()
        .filter(|(p, _)| p == "/hub/v1/snapshot")
        .count();
    assert_eq!(snapshots, 2, "one at start, one for the resync");

    // The index: the second snapshot's contacts, plus what came after it.
    let o = fd(&url, TOKEN, home.path()).args(["cache", "path"]).output().unwrap();
    let path = std::path::PathBuf::from(String::from_utf8_lossy(&o.stdout).trim_end());
    let index = Index::open(&path).unwrap().index;
    assert!(index.get("c6").unwrap().is_some(), "applied from the stream");
    assert!(index.get("c1").unwrap().is_some());
    assert!(index.get("c5").unwrap().is_none(), "the snapshot is the truth");
}

#[test]
fn sync_follow_without_a_hub_is_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    let mut c = fd("http://127.0.0.1:9", TOKEN, home.path());
    c.env_remove("FRONTDESK_HUB_URL").env_remove("FRONTDESK_HUB_TOKEN");
    let o = c
        .env("FRONTDESK_BASE_URL", "http://127.0.0.1:9/v1")
        .env("FRONTDESK_API_KEY", "k")
        .args(["sync", "--follow"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--follow needs a hub"));
}

#[tokio::test]
async fn whoami_names_the_agent_and_presence_is_posted() {
    let (url, shared) = fake_hub(fake_with(Vec::new())).await;
    let hub = HubClient::new(&url, TOKEN, Duration::from_secs(5)).unwrap();
    let me = hub.whoami().await.unwrap();
    assert_eq!(
        (me.agent.as_str(), me.email.as_str(), me.user_uuid),
        ("dana", "dana@example.com", None)
    );
    hub.presence("c1", PresenceState::Composing).await.unwrap();
    assert_eq!(
        shared.lock().unwrap().presence,
        [json!({ "contact": "c1", "state": "composing" })]
    );
    let stranger = HubClient::new(&url, "nope", Duration::from_secs(5)).unwrap();
    let e = stranger.presence("c1", PresenceState::Viewing).await.unwrap_err();
    assert!(e.to_string().contains("agent token"), "{e}");
}

#[test]
fn doctor_checks_the_hub_and_the_token() {
    let (url, _) = common::runtime().block_on(fake_hub(fake_with(Vec::new())));
    let home = tempfile::tempdir().unwrap();
    let o = fd(&url, TOKEN, home.path()).arg("doctor").output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("this token is agent dana"), "{out}");
    assert!(!out.contains("opens the demo"), "{out}");
    let o = fd(&url, "wrong-token-88", home.path()).arg("doctor").output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_ne!(o.status.code(), Some(0));
    assert!(out.contains("agent token") && out.contains("agents add"), "{out}");
    assert!(!out.contains("wrong-token-88"), "{out}");
}
