//! Issue 38: a command that builds the index first, with the service
//! down, says so at once (one attempt, bounded) instead of waiting on the
//! walk's retries: it fails when it has no index, and answers from the
//! index it has otherwise, saying how old it is.

use std::net::TcpListener;
use std::path::Path;

use assert_cmd::Command;

mod common;

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run(base_url: &str, api_key: &str, tmp: &Path, args: &[&str]) -> Run {
    let out = Command::cargo_bin("frontdesk")
        .unwrap()
        .args(args)
        .args(["--config", tmp.join("none.toml").to_str().unwrap()])
        .env("FRONTDESK_BASE_URL", base_url)
        .env("FRONTDESK_API_KEY", api_key)
        .env("XDG_CACHE_HOME", tmp.join("cache"))
        .env_remove("FRONTDESK_PROFILE")
        .env_remove("FRONTDESK_USER_EMAIL")
        .env_remove("FRONTDESK_HUB_URL")
        .env_remove("FRONTDESK_HUB_TOKEN")
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        out: String::from_utf8(out.stdout).unwrap(),
        err: String::from_utf8(out.stderr).unwrap(),
    }
}

/// A loopback port nothing listens on: bound, then dropped.
fn closed_port() -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    drop(l);
    format!("http://127.0.0.1:{port}/v1")
}

#[test]
fn views_with_the_service_down_and_no_index_says_so_and_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let r = run(&closed_port(), "key", tmp.path(), &["views"]);
    assert_ne!(r.code, 0, "stdout: {}", r.out);
    assert!(r.err.contains("cannot be reached"), "{}", r.err);
    assert!(r.err.contains("the local index is empty"), "{}", r.err);
    assert!(!r.err.contains("building the local index"), "no walk: {}", r.err);
}

#[test]
fn views_against_a_server_that_never_answers_gives_up_and_says_so() {
    // Accepts connections and never answers: each is held until the
    // test binary ends.
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", l.local_addr().unwrap());
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = asked.clone();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in l.incoming().flatten() {
            held.push(s);
            seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    });
    let tmp = tempfile::tempdir().unwrap();
    for args in [&["views"][..], &["contacts", "search", "ana"][..]] {
        let r = run(&url, "key", tmp.path(), args);
        assert_ne!(r.code, 0, "{args:?}: {}", r.out);
        assert!(r.err.contains("no answer within 5 s"), "{args:?}: {}", r.err);
    }
    assert!(
        asked.load(std::sync::atomic::Ordering::SeqCst) >= 2,
        "each command asked"
    );
}

#[test]
fn views_with_the_service_stopped_answers_from_its_index_and_says_how_old() {
    let server = common::spawn_blocking(common::config(12, 3));
    let (url, key) = (server.base_url.clone(), server.api_key.clone());
    let tmp = tempfile::tempdir().unwrap();
    let before = run(&url, &key, tmp.path(), &["views", "--json"]);
    assert_eq!(before.code, 0, "{}", before.err);
    common::runtime().block_on(server.stop());
    let after = run(&url, &key, tmp.path(), &["views", "--json"]);
    assert_eq!(after.code, 0, "{}", after.err);
    assert_eq!(after.out, before.out, "the same counts, from the index");
    assert!(
        after.err.contains("cannot be reached")
            && after
                .err
                .contains("answering from the local index (12 contacts, last synced "),
        "{}",
        after.err
    );
}
