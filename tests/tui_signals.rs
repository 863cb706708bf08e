//! Issue 22: the TUI ends cleanly on SIGHUP, SIGTERM and SIGINT, and when
//! its terminal goes away (an SSH drop, a closed window): the terminal
//! restored where there is still one, exit 128+signal, the reason as the
//! log's last line, no panic.

use std::time::Duration;

mod common;
mod pty;

/// The TUI against a served account, its list on screen.
fn running(tmp: &std::path::Path, base: &str, key: &str) -> pty::Tui {
    let mut cmd = pty::command(tmp, &["--config", tmp.join("none.toml").to_str().unwrap()]);
    cmd.env("FRONTDESK_BASE_URL", base);
    cmd.env("FRONTDESK_API_KEY", key);
    let tui = pty::Tui::start(cmd, 30, 100);
    tui.wait_for("the contact list", Duration::from_secs(60), |s| {
        s.contents().contains(" contacts │")
    });
    tui
}

fn assert_ended_on(tmp: &std::path::Path, code: u32, signal: &str, raw: &[u8]) {
    let log = std::fs::read_to_string(tmp.join("frontdesk.log")).unwrap_or_default();
    assert!(!log.contains("panic"), "no panic: {log}");
    let last = pty::last_log_line(tmp);
    assert!(
        last.contains(signal),
        "the log's last line names {signal}: {last:?}\n{log}"
    );
    assert!(
        last.contains(&code.to_string()),
        "the log's last line has the exit code: {last:?}"
    );
    let out = String::from_utf8_lossy(raw);
    assert!(!out.contains("panicked"), "no panic on the terminal: {out}");
}

fn ends_on_signal(signal: i32, name: &str) {
    let server = common::spawn_blocking(common::config(30, 3));
    let tmp = tempfile::tempdir().unwrap();
    let mut tui = running(tmp.path(), &server.base_url, &server.api_key);
    assert_eq!(unsafe { libc::kill(tui.pid(), signal) }, 0);
    let code = tui.wait_exit(Duration::from_secs(20));
    let raw = tui.finish();
    assert_eq!(code, 128 + signal as u32, "exit status for {name}");
    // The terminal was still there: the alternate screen was left last.
    let at = raw.windows(8).rposition(|w| w == b"\x1b[?1049l");
    assert!(at.is_some(), "the alternate screen was left");
    assert_ended_on(tmp.path(), code, name, &raw);
    common::runtime().block_on(server.stop());
}

#[test]
fn sighup_ends_with_129_and_says_why_in_the_log() {
    ends_on_signal(libc::SIGHUP, "SIGHUP");
}

#[test]
fn sigterm_ends_with_143_and_says_why_in_the_log() {
    ends_on_signal(libc::SIGTERM, "SIGTERM");
}

#[test]
fn sigint_ends_with_130_and_says_why_in_the_log() {
    ends_on_signal(libc::SIGINT, "SIGINT");
}

/// The real SSH drop: the terminal itself goes away (the kernel sends
/// SIGHUP and every write to the terminal fails from then on).
#[test]
fn a_closed_terminal_ends_with_129_and_no_panic() {
    let server = common::spawn_blocking(common::config(30, 3));
    let tmp = tempfile::tempdir().unwrap();
    let mut tui = running(tmp.path(), &server.base_url, &server.api_key);
    tui.hang_up();
    let code = tui.wait_exit(Duration::from_secs(20));
    let raw = tui.finish();
    assert_eq!(code, 129, "exit status after the hang-up");
    assert_ended_on(tmp.path(), code, "SIGHUP", &raw);
    common::runtime().block_on(server.stop());
}

/// `q` is an exit too: its reason is the log's last line.
#[test]
fn quitting_says_so_in_the_log() {
    let server = common::spawn_blocking(common::config(30, 3));
    let tmp = tempfile::tempdir().unwrap();
    let mut tui = running(tmp.path(), &server.base_url, &server.api_key);
    tui.press(b"q");
    let code = tui.wait_exit(Duration::from_secs(20));
    let _ = tui.finish();
    assert_eq!(code, 0);
    let last = pty::last_log_line(tmp.path());
    assert!(last.contains("exit 0") && last.contains("quit"), "{last:?}");
    common::runtime().block_on(server.stop());
}
