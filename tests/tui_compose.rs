//! The composer end to end, in a pseudo-terminal at 80x24 against the
//! embedded server (127.0.0.1:0) answering after 250 ms: `$EDITOR` on the
//! draft (the terminal handed over and taken back), and a draft that
//! survives a restart.

use std::path::Path;
use std::time::Duration;

use frontdesk::server::ServerConfig;

mod common;
mod pty;

/// Six contacts, no activity, each answer 250 ms late.
fn link() -> ServerConfig {
    ServerConfig {
        contacts: 6,
        activity: false,
        latency_ms: 250,
        ..Default::default()
    }
}

fn start(tmp: &Path, base: &str, key: &str, editor: Option<&Path>) -> pty::Tui {
    let mut cmd = pty::command(tmp, &["--config", tmp.join("none.toml").to_str().unwrap()]);
    cmd.env("FRONTDESK_BASE_URL", base);
    cmd.env("FRONTDESK_API_KEY", key);
    cmd.env_remove("VISUAL");
    match editor {
        Some(e) => cmd.env("EDITOR", e),
        None => cmd.env_remove("EDITOR"),
    }
    pty::Tui::start(cmd, 24, 80)
}

/// The reply pane's text lines (between its top border and the key hint).
fn reply(s: &vt100::Screen) -> Vec<String> {
    let c = s.contents();
    let lines: Vec<&str> = c.lines().collect();
    let Some(top) = lines.iter().position(|l| l.contains("┌ Reply")) else {
        return Vec::new();
    };
    lines[top + 1..]
        .iter()
        .take_while(|l| !l.contains("newline ·") && !l.starts_with('└'))
        .map(|l| l.trim_matches(|c: char| c == '│' || c.is_whitespace()).to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// A script with a shebang (no `sh -c` in `$EDITOR`): it notes the
/// terminal's modes and its file's, then appends a line to the file, or
/// exits 1 while `fail` exists.
fn editor_script(dir: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("editor");
    let seen = dir.join("seen");
    let fail = dir.join("fail");
    let body = format!(
        "#!/bin/sh\n\
         stty -a > '{seen}'\n\
         stat -c 'mode=%a' \"$1\" >> '{seen}'\n\
         echo \"file=$1\" >> '{seen}'\n\
         [ -e '{fail}' ] && {{ echo 'broken' > \"$1\"; exit 1; }}\n\
         printf '\\nfrom the editor\\n' >> \"$1\"\n",
        seen = seen.display(),
        fail = fail.display(),
    );
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Waits for the list, then opens the composer on the selected row.
fn open_composer(tui: &mut pty::Tui) {
    tui.wait_for("the list", Duration::from_secs(30), |s| {
        s.contents().contains("6 contacts") && s.contents().contains('▸')
    });
    tui.press(b"R");
    tui.wait_for("the composer", Duration::from_secs(10), |s| {
        s.contents().contains("┌ Reply")
    });
}

#[test]
fn the_editor_round_trip_brings_the_text_back_and_the_screen_too() {
    let server = common::spawn_blocking(link());
    let tmp = tempfile::tempdir().unwrap();
    let editor = editor_script(tmp.path());
    let mut tui = start(tmp.path(), &server.base_url, &server.api_key, Some(&editor));
    open_composer(&mut tui);
    tui.press(b"hello there");
    tui.wait_for("the typed text", Duration::from_secs(10), |s| {
        reply(s) == ["hello there"]
    });

    // Ctrl-E: the editor runs and its line joins the draft.
    tui.press(b"\x05");
    tui.wait_for("the edited text back in the composer", Duration::from_secs(20), |s| {
        reply(s) == ["hello there", "from the editor"]
    });
    // The screen is the app's again, drawn whole.
    tui.wait_for("the app's screen", Duration::from_secs(10), |s| {
        let c = s.contents();
        s.alternate_screen() && c.contains("6 contacts") && c.contains("Tab switches")
    });
    let seen = std::fs::read_to_string(tmp.path().join("seen")).unwrap();
    let modes: Vec<&str> = seen.split(|c: char| c.is_whitespace() || c == ';').collect();
    assert!(
        modes.contains(&"icanon") && modes.contains(&"echo"),
        "the editor had a cooked terminal: {seen}"
    );
    assert!(seen.contains("mode=600"), "the draft's file is private: {seen}");
    let file = seen.lines().find_map(|l| l.strip_prefix("file=")).unwrap().to_string();
    assert!(!Path::new(&file).exists(), "{file} is removed afterwards");

    // An editor that exits 1 leaves the draft as it was, and says so.
    std::fs::write(tmp.path().join("fail"), "").unwrap();
    tui.press(b"\x05");
    tui.wait_for("the failure said", Duration::from_secs(20), |s| {
        s.contents().contains("exited with status 1")
    });
    tui.wait_for("the draft unchanged", Duration::from_secs(5), |s| {
        s.alternate_screen() && reply(s) == ["hello there", "from the editor"]
    });

    // Esc keeps it for later, without asking; q quits.
    tui.press(b"\x1b");
    tui.wait_for("the composer closed", Duration::from_secs(10), |s| {
        !s.contents().contains("┌ Reply")
    });
    tui.press(b"q");
    assert_eq!(tui.wait_exit(Duration::from_secs(20)), 0);
    let _ = tui.finish();
    common::runtime().block_on(server.stop());
}

#[test]
fn without_an_editor_set_ctrl_e_says_so_and_keeps_the_draft() {
    let server = common::spawn_blocking(link());
    let tmp = tempfile::tempdir().unwrap();
    let mut tui = start(tmp.path(), &server.base_url, &server.api_key, None);
    open_composer(&mut tui);
    tui.press(b"draft");
    tui.press(b"\x05");
    tui.wait_for("the hint", Duration::from_secs(10), |s| {
        s.contents().contains("set $VISUAL or $EDITOR") && reply(s) == ["draft"]
    });
    let _ = tui.finish();
    common::runtime().block_on(server.stop());
}

#[test]
fn a_draft_survives_a_restart() {
    let server = common::spawn_blocking(link());
    let tmp = tempfile::tempdir().unwrap();
    let mut tui = start(tmp.path(), &server.base_url, &server.api_key, None);
    open_composer(&mut tui);
    tui.press(b"see you tomorrow");
    tui.wait_for("the typed text", Duration::from_secs(10), |s| {
        reply(s) == ["see you tomorrow"]
    });
    tui.press(b"\x1b");
    tui.wait_for("the row's draft mark", Duration::from_secs(10), |s| {
        s.contents().lines().any(|l| l.contains('▸') && l.contains("draft"))
    });
    tui.press(b"q");
    assert_eq!(tui.wait_exit(Duration::from_secs(20)), 0);
    let _ = tui.finish();

    // The same state directory and server: the mark and the text are back.
    let mut tui = start(tmp.path(), &server.base_url, &server.api_key, None);
    tui.wait_for("the row's draft mark", Duration::from_secs(30), |s| {
        s.contents().lines().any(|l| l.contains('▸') && l.contains("draft"))
    });
    tui.press(b"R");
    tui.wait_for("the draft in the composer", Duration::from_secs(10), |s| {
        reply(s) == ["see you tomorrow"]
    });
    let _ = tui.finish();
    common::runtime().block_on(server.stop());
}
