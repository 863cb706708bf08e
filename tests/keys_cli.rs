//! Issue 22: `frontdesk keys` prints one line per key, in a pipe as on a
//! terminal; a key name from the config file is still shown inert.

use assert_cmd::Command;

fn keys(config: &std::path::Path) -> (String, String) {
    let out = Command::cargo_bin("frontdesk")
        .unwrap()
        .args(["keys", "--config", config.to_str().unwrap()])
        .env_remove("FRONTDESK_PROFILE")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn keys_prints_one_line_per_key() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, _) = keys(&tmp.path().join("none.toml"));
    assert!(!out.contains('⏎'), "line breaks kept, not pictured: {out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() > 20, "one line per key: {out}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("c ") && l.split_whitespace().any(|w| w == "close")),
        "the close key on a line of its own: {out}"
    );
    assert!(out.ends_with('\n'));
}

#[test]
fn a_key_name_from_the_config_is_still_inert() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config.toml");
    std::fs::write(&config, "[keys]\nclose = [\"\\u001b\", \"x\"]\nnext = [\"\\u009b\"]\n").unwrap();
    let (out, err) = keys(&config);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{9b}'), "{out:?}");
    assert!(!err.contains('\u{1b}') && !err.contains('\u{9b}'), "{err:?}");
    let close: Vec<&str> = out.lines().filter(|l| l.contains("close")).collect();
    assert!(close.iter().any(|l| l.contains('␛')), "the escape pictured: {close:?}");
    assert!(out.lines().count() > 20, "still one line per key: {out}");
}
