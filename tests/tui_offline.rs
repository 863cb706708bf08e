//! Issue 22: with the server unreachable the TUI opens within seconds,
//! says it cannot reach the host and when it tries again, and recovers by
//! itself once the server answers.

use std::time::Duration;

use frontdesk::server::ServerConfig;

mod common;
mod pty;

fn tui(tmp: &std::path::Path, base: &str, key: &str) -> pty::Tui {
    let mut cmd = pty::command(tmp, &["--config", tmp.join("none.toml").to_str().unwrap()]);
    cmd.env("FRONTDESK_BASE_URL", base);
    cmd.env("FRONTDESK_API_KEY", key);
    pty::Tui::start(cmd, 30, 120)
}

/// Nothing answers: the screen opens (well before the 15 s a request may
/// take) and says so; then the server answers and the list appears.
#[test]
fn an_unanswering_server_opens_the_screen_and_recovers() {
    let server = common::spawn_blocking(ServerConfig {
        contacts: 12,
        activity: false,
        ..Default::default()
    });
    let (base, gate) = common::runtime().block_on(common::gated_proxy(&server.base_url, false));
    let host = base.trim_start_matches("http://").trim_end_matches("/v1").to_string();
    let tmp = tempfile::tempdir().unwrap();
    let mut tui = tui(tmp.path(), &base, &server.api_key);
    // The poll's bound is below one request's 15 s timeout: only a first
    // screen that does not wait for the request gets here.
    tui.wait_for("the unreachable message", Duration::from_secs(12), |s| {
        let c = s.contents();
        s.alternate_screen() && c.contains(&format!("cannot reach {host}, retrying in "))
    });
    gate.send_replace(true);
    tui.wait_for("the list after recovery", Duration::from_secs(60), |s| {
        s.contents().contains("12 contacts")
    });
    tui.press(b"q");
    assert_eq!(tui.wait_exit(Duration::from_secs(20)), 0);
    let _ = tui.finish();
    common::runtime().block_on(server.stop());
}

/// Nothing listens: the same screen, at once.
#[test]
fn a_refused_connection_opens_the_screen_and_says_so() {
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let host = dead.local_addr().unwrap().to_string();
    drop(dead);
    let tmp = tempfile::tempdir().unwrap();
    let mut tui = tui(tmp.path(), &format!("http://{host}/v1"), "some-key");
    tui.wait_for("the unreachable message", Duration::from_secs(12), |s| {
        let c = s.contents();
        s.alternate_screen() && c.contains(&format!("cannot reach {host}, retrying in "))
    });
    tui.press(b"q");
    assert_eq!(tui.wait_exit(Duration::from_secs(20)), 0);
    let log = std::fs::read_to_string(tmp.path().join("frontdesk.log")).unwrap_or_default();
    assert!(!log.contains("some-key"), "the key is never logged");
    let _ = tui.finish();
}
