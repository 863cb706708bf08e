//! Never wait, never guess: `initialize` answers before the index is
//! built, results say how complete the index is until it is, and an index
//! that cannot fill is a tool error naming the fix.

use serde_json::json;

use super::common;
use super::support::{data, start_at};

#[test]
fn lists_are_marked_partial_while_the_index_fills_and_complete_after() {
    let server = common::spawn_blocking(common::config(300, 21));
    let home = tempfile::tempdir().unwrap();
    // A slow walk (2 requests a second), so the first answer comes before
    // it ends; `start_at` has already had `initialize` answered.
    let mut s = start_at(&server.base_url, &server.api_key, home.path(), false, "sync_rate = 2\n");
    let (err, first) = s.call("list_contacts", json!({ "limit": 5 }));
    assert!(!err, "{first}");
    let first = data(&first);
    assert_eq!(first["complete"], json!(false), "{first}");
    let missing = first["missing"].as_array().unwrap();
    assert!(
        missing.iter().any(|m| m.as_str().unwrap().contains("first walk")),
        "{first}"
    );
    assert!(first["total"].as_u64().unwrap() < 300, "{first}");

    s.wait_complete();
    let (err, done) = s.call("list_contacts", json!({ "limit": 5 }));
    assert!(!err, "{done}");
    let done = data(&done);
    assert_eq!(done["total"], json!(300), "{done}");
    assert!(
        done["asOf"]
            .as_str()
            .is_some_and(|t| chrono::DateTime::parse_from_rfc3339(t).is_ok()),
        "{done}"
    );
    assert_eq!(done["missing"], json!([]));
}

#[test]
fn a_refused_key_is_a_tool_error_naming_the_key() {
    let server = common::spawn_blocking(common::config(10, 22));
    let home = tempfile::tempdir().unwrap();
    let mut s = start_at(&server.base_url, "wrong-key-0000", home.path(), false, "");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let (err, out) = s.call("list_contacts", json!({}));
        if err {
            assert!(out.contains("401") && out.contains("key"), "{out}");
            assert!(!out.contains("wrong-key-0000"), "{out}");
            break;
        }
        // Until the refusal is known the answer is partial, never a
        // confident empty inbox.
        assert_eq!(data(&out)["complete"], json!(false), "{out}");
        assert!(std::time::Instant::now() < deadline, "{out}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn an_unreachable_service_is_a_tool_error_naming_the_fix() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let home = tempfile::tempdir().unwrap();
    let url = format!("http://127.0.0.1:{port}");
    let mut s = start_at(&url, "some-key", home.path(), false, "");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let (err, out) = s.call("search", json!({ "query": "refund" }));
        if err {
            assert!(out.contains("cannot be reached") && out.contains("base_url"), "{out}");
            break;
        }
        assert_eq!(data(&out)["complete"], json!(false), "{out}");
        assert!(std::time::Instant::now() < deadline, "{out}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn mine_without_an_email_says_how_to_set_it() {
    let server = common::spawn_blocking(common::config(10, 23));
    let home = tempfile::tempdir().unwrap();
    let mut s = start_at(&server.base_url, &server.api_key, home.path(), false, "");
    let (err, out) = s.call("list_contacts", json!({ "view": "Mine" }));
    assert!(err, "{out}");
    assert!(out.contains("email"), "{out}");
}

#[test]
fn waiting_once_complete_equals_the_clis_count() {
    let server = common::spawn_blocking(common::config(60, 24));
    let home = tempfile::tempdir().unwrap();
    let mut s = start_at(&server.base_url, &server.api_key, home.path(), false, "");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    let waiting = loop {
        let (err, out) = s.call("list_contacts", json!({ "view": "Waiting", "limit": 100 }));
        assert!(!err, "{out}");
        let v = data(&out);
        if v["complete"] == json!(true) {
            break v["total"].as_u64().unwrap();
        }
        assert!(std::time::Instant::now() < deadline, "{v}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    // The CLI, on an index of its own.
    let cli_home = tempfile::tempdir().unwrap();
    let config = cli_home.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_frontdesk"))
        .env_remove("FRONTDESK_PROFILE")
        .env_remove("FRONTDESK_CONFIG")
        .env("FRONTDESK_BASE_URL", &server.base_url)
        .env("FRONTDESK_API_KEY", &server.api_key)
        .env("XDG_CACHE_HOME", cli_home.path().join("cache"))
        .env("XDG_STATE_HOME", cli_home.path().join("state"))
        .env("HOME", cli_home.path())
        .arg("--config")
        .arg(&config)
        .args(["views", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let views: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cli = views
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == json!("Waiting"))
        .unwrap()["count"]
        .as_u64()
        .unwrap();
    assert!(cli > 0, "the seeded account has contacts waiting");
    assert_eq!(waiting, cli);
}
