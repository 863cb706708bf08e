//! Issue 22: the first-run chooser takes one key (d, s; q or Esc leaves),
//! in raw mode, and gives the terminal back in cooked mode after.

use std::time::Duration;

mod pty;

/// First run: no key, no config file (HOME and XDG_CONFIG_HOME in `tmp`).
fn first_run(tmp: &std::path::Path) -> pty::Tui {
    let tui = pty::Tui::start(pty::command(tmp, &[]), 24, 100);
    tui.wait_for("the choice", Duration::from_secs(30), |s| {
        s.contents().contains("Choose d or s")
    });
    tui
}

#[test]
fn d_alone_opens_the_demo() {
    let tmp = tempfile::tempdir().unwrap();
    let mut tui = first_run(tmp.path());
    tui.press(b"d");
    tui.wait_for("the demo", Duration::from_secs(60), |s| {
        s.alternate_screen() && s.contents().contains("DEMO")
    });
    tui.press(b"q");
    assert_eq!(tui.wait_exit(Duration::from_secs(20)), 0);
    assert!(!tmp.path().join("config/frontdesk").join("config.toml").exists());
}

#[test]
fn s_alone_asks_for_the_url_with_the_line_editing_back() {
    let tmp = tempfile::tempdir().unwrap();
    let mut tui = first_run(tmp.path());
    tui.press(b"s");
    tui.wait_for("the URL prompt", Duration::from_secs(20), |s| {
        s.contents().contains("Base URL")
    });
    // Cooked mode again: what is typed is echoed and Backspace edits it.
    tui.press(b"htxp\x7f\x7ftp://x\r");
    tui.wait_for("the typed URL taken as a line", Duration::from_secs(20), |s| {
        s.contents().contains("user uuid")
    });
    let raw = tui.finish();
    let out = String::from_utf8_lossy(&raw);
    assert!(!out.contains("not an http(s) URL"), "the line was edited: {out}");
}

#[test]
fn q_and_esc_leave_without_saving_and_restore_the_terminal() {
    for key in [&b"q"[..], &b"\x1b"[..]] {
        let tmp = tempfile::tempdir().unwrap();
        let mut tui = first_run(tmp.path());
        tui.press(key);
        let code = tui.wait_exit(Duration::from_secs(20));
        let _ = tui.finish();
        assert_eq!(code, 0, "leaving with {key:?}");
        assert!(!tmp.path().join("config/frontdesk/config.toml").exists());
        let log = std::fs::read_to_string(tmp.path().join("frontdesk.log")).unwrap_or_default();
        assert!(
            !log.contains("DEMO") && !log.contains("demo=true"),
            "no demo opened: {log}"
        );
    }
}
