//! Issue 23, end to end in a pseudo-terminal: a snooze made with `z` and a
//! typed time survives a restart (it is kept on disk) and the conversation
//! comes back, marked, when its time comes.

use std::time::Duration;

use frontdesk::server::ServerConfig;

mod common;
mod pty;

fn tui(tmp: &std::path::Path, base: &str, key: &str) -> pty::Tui {
    let mut cmd = pty::command(tmp, &["--config", tmp.join("none.toml").to_str().unwrap()]);
    cmd.env("FRONTDESK_BASE_URL", base);
    cmd.env("FRONTDESK_API_KEY", key);
    cmd.env("FRONTDESK_USER_EMAIL", "alex@frontdesk.example");
    pty::Tui::start(cmd, 24, 80)
}

/// The number on the Snoozed tab.
fn snoozed(s: &vt100::Screen) -> Option<u32> {
    let c = s.contents();
    let at = c.find("Snoozed ")? + "Snoozed ".len();
    c[at..].split(|ch: char| !ch.is_ascii_digit()).next()?.parse().ok()
}

#[test]
fn a_snooze_survives_a_restart_and_comes_back_marked() {
    let server = common::spawn_blocking(ServerConfig {
        contacts: 8,
        activity: false,
        ..Default::default()
    });
    let tmp = tempfile::tempdir().unwrap();
    let mut app = tui(tmp.path(), &server.base_url, &server.api_key);
    app.wait_for("the list", Duration::from_secs(30), |s| {
        s.contents().contains("8 contacts") && snoozed(s) == Some(0)
    });
    app.press(b"z");
    app.wait_for("the snooze picker", Duration::from_secs(5), |s| {
        s.contents().contains("until they reply")
    });
    app.press(b"25s\r");
    app.wait_for("the snooze", Duration::from_secs(5), |s| {
        s.contents().contains("snoozed ") && snoozed(s) == Some(1)
    });
    app.press(b"q");
    assert_eq!(app.wait_exit(Duration::from_secs(20)), 0);
    let file = std::fs::read_dir(tmp.path().join("state/frontdesk/snoozed"))
        .expect("the snoozes are kept under the state directory")
        .filter_map(Result::ok)
        .find(|e| e.path().extension().is_some_and(|x| x == "json"))
        .expect("a kept file");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = file.metadata().unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "only the agent reads it");
    }
    app.finish();

    // Started again: still asleep, then back when its time comes.
    let mut app = tui(tmp.path(), &server.base_url, &server.api_key);
    app.wait_for("the snooze kept over the restart", Duration::from_secs(30), |s| {
        s.contents().contains("8 contacts") && snoozed(s) == Some(1)
    });
    app.wait_for("the conversation back, marked", Duration::from_secs(60), |s| {
        let c = s.contents();
        snoozed(s) == Some(0) && c.contains(" back ") && c.contains("is back")
    });
    app.press(b"q");
    assert_eq!(app.wait_exit(Duration::from_secs(20)), 0);
    app.finish();
}
