//! Text from a config file, a flag or the environment reaches the terminal
//! inert (issue 22): config warnings printed by the CLI, and the TUI's
//! startup error that main prints.

use std::path::Path;
use std::process::{Command, Stdio};

/// Runs the binary with a clean account environment and `home` as its
/// home; returns (code, stdout, stderr).
fn run(args: &[&str], home: &Path, env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_frontdesk"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_CACHE_HOME", home.join("cache"));
    for k in [
        "FRONTDESK_BASE_URL",
        "FRONTDESK_API_KEY",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_USER_EMAIL",
        "FRONTDESK_PROFILE",
        "FRONTDESK_CONFIG",
    ] {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("run frontdesk");
    drop(child.stdin.take());
    let out = child.wait_with_output().expect("wait for frontdesk");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Nothing a terminal would act on: no C0/C1 controls but the line ends,
/// no bidi overrides.
fn assert_inert(text: &str) {
    for c in text.chars() {
        let control = (c < ' ' && c != '\n') || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c);
        let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{061c}');
        assert!(!control && !bidi, "{c:?} reached the terminal in:\n{text:?}");
    }
}

/// A config file in a folder whose name is an escape sequence.
fn hostile_config(home: &Path, text: &str) -> std::path::PathBuf {
    let dir = home.join("cfg\u{1b}]2;pwned-dir\u{7}\u{202e}");
    std::fs::create_dir_all(&dir).expect("config dir");
    let path = dir.join("config.toml");
    std::fs::write(&path, text).expect("config file");
    path
}

const HOSTILE: &str = "\"\\u001b]2;pwned\\u0007\" = 1\n\
    \"\\u202eevil\" = 2\n\
    [profiles.\"work\\u001b[31m\"]\n\
    \"\\u001b]0;title\\u0007\" = 3\n\
    [keys]\n\
    \"\\u001b]2;act\\u0007\" = \"x\"\n\
    [[views]]\n\
    name = \"\\u001b]2;view\\u0007\"\n\
    \"\\u001b[2Jwipe\" = 1\n";

#[test]
fn config_warnings_from_the_cli_are_inert() {
    let home = tempfile::tempdir().expect("home");
    let path = hostile_config(home.path(), HOSTILE);
    let config = path.to_str().expect("utf-8 path");
    let (code, out, err) = run(&["config", "check", "--config", config], home.path(), &[]);
    assert_ne!(code, 0, "the problems are reported: {err}");
    assert_inert(&out);
    assert_inert(&err);
    // Still there to read, as visible marks.
    assert!(err.contains("␛]2;pwned␇"), "{err}");
    assert!(err.contains("frontdesk: warning:"), "{err}");

    // Any command that loads the settings prints the same warnings.
    let (_, out, err) = run(&["contacts", "list"], home.path(), &[("FRONTDESK_CONFIG", config)]);
    assert_inert(&out);
    assert_inert(&err);
    assert!(err.contains("pwned"), "{err}");
}

#[test]
fn the_tuis_startup_error_from_the_config_is_one_inert_line() {
    let home = tempfile::tempdir().expect("home");
    let path = hostile_config(home.path(), "timeout_secs = 0\n");
    let (code, out, err) = run(
        &["--profile", "\u{1b}]2;pwned\u{7}"],
        home.path(),
        &[("FRONTDESK_CONFIG", path.to_str().expect("utf-8 path"))],
    );
    assert_ne!(code, 0);
    assert_inert(&out);
    assert_inert(&err);
    assert!(err.starts_with("frontdesk: "), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");

    let (code, _, err) = run(
        &[],
        home.path(),
        &[("FRONTDESK_CONFIG", path.to_str().expect("utf-8 path"))],
    );
    assert_ne!(code, 0);
    assert_inert(&err);
    assert!(err.contains("timeout_secs must be at least 1"), "{err}");
}

#[test]
fn config_check_with_a_hub_says_where_requests_go() {
    let home = tempfile::tempdir().unwrap();
    let empty = home.path().join("empty.toml");
    std::fs::write(&empty, "").unwrap();
    let (code, out, err) = run(
        &["config", "check", "--config", empty.to_str().unwrap()],
        home.path(),
        &[
            ("FRONTDESK_HUB_URL", "http://127.0.0.1:9/"),
            ("FRONTDESK_HUB_TOKEN", "agent-token-abcdef"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let line = out.lines().find(|l| l.starts_with("base_url")).unwrap_or_default();
    assert!(line.contains("http://127.0.0.1:9/v1 (through the hub)"), "{out}");
    assert!(!out.contains("demo mode"), "{out}");
}
