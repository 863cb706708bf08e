//! Issue 22: off a terminal, commands that can run long say how far they
//! got on stderr every few seconds (here every 50 ms, through
//! `FRONTDESK_PROGRESS_EVERY`); stdout stays clean for pipes.

use assert_cmd::Command;
use frontdesk::server::{RunningServer, ServerConfig};

mod common;

fn slow_server() -> RunningServer {
    common::spawn_blocking(ServerConfig {
        contacts: 80,
        latency_ms: 150,
        activity: false,
        ..Default::default()
    })
}

fn run(server: &RunningServer, tmp: &std::path::Path, args: &[&str]) -> (String, String) {
    let out = Command::cargo_bin("frontdesk")
        .unwrap()
        .args(args)
        .args(["--config", tmp.join("none.toml").to_str().unwrap()])
        .env("FRONTDESK_BASE_URL", &server.base_url)
        .env("FRONTDESK_API_KEY", &server.api_key)
        .env("XDG_CACHE_HOME", tmp.join("cache"))
        .env("FRONTDESK_PROGRESS_EVERY", "50ms")
        .env_remove("FRONTDESK_PROFILE")
        .env_remove("FRONTDESK_USER_EMAIL")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert!(out.status.success(), "stdout: {stdout}\nstderr: {stderr}");
    (stdout, stderr)
}

/// The progress lines: `frontdesk: <step>: <how far>`.
fn progress_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("frontdesk: ") && !l.starts_with("frontdesk: warning"))
        .collect()
}

#[test]
fn views_on_a_cold_index_says_how_far_the_walk_got() {
    let server = slow_server();
    let tmp = tempfile::tempdir().unwrap();
    let (stdout, stderr) = run(&server, tmp.path(), &["views"]);
    let lines = progress_lines(&stderr);
    assert!(!lines.is_empty(), "progress on stderr: {stderr:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("frontdesk: building the local index: ") && l.contains(" contacts")),
        "the walk's lines say what is counted: {lines:?}"
    );
    assert!(stdout.starts_with("VIEW"), "stdout holds the table alone: {stdout}");
    assert!(!stdout.contains("frontdesk:"), "{stdout}");
    common::runtime().block_on(server.stop());
}

#[test]
fn contacts_list_all_in_a_pipe_says_how_far_it_got() {
    let server = slow_server();
    let tmp = tempfile::tempdir().unwrap();
    let (stdout, stderr) = run(&server, tmp.path(), &["contacts", "list", "--all", "--jsonl"]);
    let lines = progress_lines(&stderr);
    assert!(
        lines.iter().any(|l| l.starts_with("frontdesk: contacts list: ")),
        "progress on stderr: {stderr:?}"
    );
    let rows: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("stdout is JSON lines only"))
        .collect();
    assert_eq!(rows.len(), 80);
    common::runtime().block_on(server.stop());
}
