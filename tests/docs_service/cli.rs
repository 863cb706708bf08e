//! The CLI commands issue 33's check runs (`contacts list --all`, `sync`,
//! `views --json`, `messages send`) against the documented server.

use std::path::Path;

use assert_cmd::Command;
use chrono::{Duration, Utc};
use serde_json::{Value, json};

use super::server::{Docs, DocsServer, contact, many, message};

/// Runs the binary against `srv` with its cache under `home`; exit code,
/// stdout, stderr.
fn run(srv: &DocsServer, home: &Path, args: &[&str]) -> (i32, String, String) {
    let config = home.join("config.toml");
    if !config.exists() {
        std::fs::write(&config, "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
    }
    let mut c = Command::cargo_bin("frontdesk").unwrap();
    for var in [
        "FRONTDESK_PROFILE",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_CONFIG",
        "NO_COLOR",
    ] {
        c.env_remove(var);
    }
    let out = c
        .env("FRONTDESK_BASE_URL", &srv.base_url)
        .env("FRONTDESK_API_KEY", "docs-key")
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("HOME", home)
        .arg("--config")
        .arg(&config)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_views_list_and_send_hold_up_against_the_documented_server() {
    let now = Utc::now();
    let old = now - Duration::days(200);
    let mut bsuid_only = contact("b", "Bea", old);
    bsuid_only["phoneNumber"] = json!(null);
    bsuid_only["bsuid"] = json!("US.1349");
    let mut contacts = vec![contact("w", "Wanda", old), contact("r", "Rui", old), bsuid_only];
    contacts.extend(many(42));
    let srv = DocsServer::start(Docs {
        contacts,
        messages: [
            (
                "w".to_string(),
                vec![message("where is my order?", "received", now - Duration::hours(1))],
            ),
            (
                "r".to_string(),
                vec![
                    message("on its way", "sent", now - Duration::hours(2)),
                    message("where is it?", "received", now - Duration::hours(3)),
                ],
            ),
        ]
        .into(),
        channels: vec![json!({"uuid": "ch-main", "title": "main", "type": "whatsapp", "main": true})],
        ..Docs::default()
    })
    .await;
    let home = tempfile::tempdir().unwrap();
    let (srv, home) = tokio::task::spawn_blocking(move || {
        let h = home.path();
        let (code, out, err) = run(&srv, h, &["contacts", "list", "--all", "--json"]);
        assert_eq!(code, 0, "{err}");
        let listed: Vec<Value> = serde_json::from_str(&out).unwrap();
        assert_eq!(listed.len(), 45, "every page of a page-only list");

        let (code, _, err) = run(&srv, h, &["sync"]);
        assert_eq!(code, 0, "{err}");
        let (code, out, err) = run(&srv, h, &["views", "--json"]);
        assert_eq!(code, 0, "{err}");
        let views: Value = serde_json::from_str(&out).unwrap();
        let count = |name: &str| {
            views
                .as_array()
                .unwrap()
                .iter()
                .find(|v| v["name"] == name)
                .unwrap_or_else(|| panic!("no view {name}: {views}"))["count"]
                .as_u64()
                .unwrap()
        };
        assert_eq!(count("All"), 45, "{views}");
        assert_eq!(count("Waiting"), 1, "Wanda wrote last, Rui was answered: {views}");

        let (code, _, err) = run(&srv, h, &["messages", "send", "b", "--text", "Hello Bea"]);
        assert_eq!(code, 0, "{err}");
        (srv, home)
    })
    .await
    .unwrap();
    let body = srv.with(|d| d.sends.last().cloned().unwrap());
    assert_eq!(body["bsuid"], "US.1349");
    assert_eq!(body["channel_uuid"], "ch-main");
    assert_eq!(body["from"], "whatsapp");
    drop(home);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_send_prints_the_services_own_words() {
    let srv = DocsServer::start(Docs {
        contacts: vec![contact("p1", "Piero", Utc::now())],
        channels: vec![json!({"uuid": "ch-main", "type": "whatsapp", "main": true})],
        refuse_send: Some((422, json!({"error": "The customer has not opted in"}))),
        ..Docs::default()
    })
    .await;
    let home = tempfile::tempdir().unwrap();
    let (code, _, err) =
        tokio::task::spawn_blocking(move || run(&srv, home.path(), &["messages", "send", "p1", "--text", "Hello"]))
            .await
            .unwrap();
    assert_ne!(code, 0);
    assert!(err.contains("The customer has not opted in"), "{err}");
    assert!(!err.contains("24"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doctor_says_whose_key_it_is() {
    let srv = DocsServer::start(Docs::default()).await;
    let home = tempfile::tempdir().unwrap();
    let (_, out, err) = tokio::task::spawn_blocking(move || run(&srv, home.path(), &["doctor"]))
        .await
        .unwrap();
    assert!(out.contains("the key of John Doe <john_doe@email.com>"), "{out}\n{err}");
    assert!(
        !out.contains("test_1234567890") && !err.contains("test_1234567890"),
        "no key shown"
    );
}
