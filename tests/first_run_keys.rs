//! Issue 22: the first-run chooser takes one key (d, s; q or Esc leaves),
//! in raw mode, and gives the terminal back in cooked mode after.

use std::time::Duration;

mod common;
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

/// Issue 35: the first run checks the key with GET /auth/me and says
/// whose it is; a refused key says so and asks for the key alone again.
#[test]
fn the_key_is_checked_and_named_and_a_refused_one_keeps_the_rest() {
    let server = common::spawn_blocking(common::config(5, 7));
    let raw = common::Raw::new(&server);
    let me = common::runtime().block_on(raw.ok("/auth/me"));
    let name = me["user_name"].as_str().expect("the key's user has a name").to_string();
    let tmp = tempfile::tempdir().unwrap();
    let mut tui = first_run(tmp.path());
    tui.press(b"s");
    tui.wait_for("the URL prompt", Duration::from_secs(20), |s| {
        s.contents().contains("Base URL")
    });
    tui.press(format!("{}\r", server.base_url).as_bytes());
    tui.wait_for("the uuid prompt", Duration::from_secs(20), |s| {
        s.contents().contains("user uuid")
    });
    tui.press(b"\r");
    tui.wait_for("the email prompt", Duration::from_secs(20), |s| {
        s.contents().contains("collaborator email")
    });
    tui.press(b"\r");
    tui.wait_for("the key prompt", Duration::from_secs(20), |s| {
        s.contents().contains("API key")
    });
    tui.press(b"not-the-key\r");
    tui.wait_for("the refusal", Duration::from_secs(30), |s| {
        s.contents().contains("That did not work")
    });
    // Only the key is asked again: the URL typed is kept.
    tui.wait_for("the key asked again", Duration::from_secs(20), |s| {
        s.contents().matches("API key").count() >= 2 && s.contents().matches("Base URL").count() == 1
    });
    tui.press(format!("{}\r", server.api_key).as_bytes());
    // Said before the inbox opens (on the plain screen, so in the bytes).
    tui.wait_for("the inbox", Duration::from_secs(60), |s| s.alternate_screen());
    let said = String::from_utf8_lossy(&tui.screen.lock().unwrap().raw).into_owned();
    assert!(said.contains(&format!("The key works: the key of {name} <")), "{said}");
    tui.press(b"q");
    let config = tmp.path().join("config/frontdesk/config.toml");
    assert!(
        common::wait_until(Duration::from_secs(20), || config.exists()),
        "the account is saved"
    );
    let saved = std::fs::read_to_string(&config).unwrap();
    assert!(saved.contains(&server.base_url), "{saved}");
    let _ = tui.finish();
}
