//! Issue 36: a dry run says what the service would refuse (a tag no
//! contact has, an unknown collaborator) and which contacts are no-ops,
//! instead of "would tag 16" before a run that fails 16/16.

use assert_cmd::Command;

mod common;

fn run(server: &frontdesk::server::RunningServer, home: &std::path::Path, args: &[&str]) -> (i32, String) {
    let config = home.join("config.toml");
    std::fs::write(&config, "").unwrap();
    let mut c = Command::cargo_bin("frontdesk").unwrap();
    for var in [
        "FRONTDESK_PROFILE",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_USER_EMAIL",
        "FRONTDESK_CONFIG",
        "FRONTDESK_HUB_URL",
        "FRONTDESK_HUB_TOKEN",
    ] {
        c.env_remove(var);
    }
    let o = c
        .env("FRONTDESK_BASE_URL", &server.base_url)
        .env("FRONTDESK_API_KEY", &server.api_key)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("HOME", home)
        .arg("--config")
        .arg(config)
        .args(["--sync-rate", "0"])
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_dry_run_says_a_tag_nobody_has_would_be_refused_and_counts_the_no_ops() {
    let server = common::spawn_blocking(common::config(40, 3));
    let home = tempfile::tempdir().unwrap();
    let (code, err) = run(
        &server,
        home.path(),
        &["contacts", "tag", "nosuchtag", "--view", "all", "--dry-run"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("\"nosuchtag\"") && err.contains("unknown tag"), "{err}");
    // An untag of a tag nobody has: every contact is a no-op.
    let (code, err) = run(
        &server,
        home.path(),
        &["contacts", "untag", "nosuchtag", "--view", "all", "--dry-run"],
    );
    assert_eq!(code, 0, "{err}");
    let line = err.lines().find(|l| l.starts_with("would untag")).unwrap_or_default();
    let n: usize = line.split(' ').nth(2).and_then(|n| n.parse().ok()).expect("a count");
    assert!(line.contains(&format!("{n} of them already so (no-op)")), "{err}");
    let (code, err) = run(
        &server,
        home.path(),
        &[
            "contacts",
            "assign",
            "ghost@example.invalid",
            "--view",
            "all",
            "--dry-run",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("unknown collaborator"), "{err}");
}
