//! `frontdesk serve` as a process, and demo mode's server child: it ends
//! with its parent however the parent ends, and its manifest (it holds the
//! key) is private, never written over an existing file or through a link.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::Duration;

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

mod common;

fn serve(extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_frontdesk"));
    c.args(["serve", "--addr", "127.0.0.1:0", "--contacts", "5", "--no-activity"])
        .args(extra)
        .env_remove("FRONTDESK_SERVE_API_KEY");
    c
}

fn mode(p: &std::path::Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn the_demo_server_ends_when_the_tui_is_killed_with_sigkill() {
    let tmp = tempfile::tempdir().unwrap();
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_frontdesk"));
    cmd.args(["--demo", "--config"]);
    cmd.arg(tmp.path().join("none.toml"));
    cmd.env("FRONTDESK_LOG", tmp.path().join("frontdesk.log"));
    // Each run its own local index: nothing shared between tests or runs.
    cmd.env("XDG_CACHE_HOME", tmp.path().join("cache"));
    cmd.env("TERM", "xterm-256color");
    for k in ["FRONTDESK_BASE_URL", "FRONTDESK_API_KEY", "FRONTDESK_USER_UUID"] {
        cmd.env_remove(k);
    }
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    // Drain the terminal so the TUI never blocks on a full pty.
    let mut reader = pair.master.try_clone_reader().unwrap();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while matches!(reader.read(&mut buf), Ok(n) if n > 0) {}
    });
    let pid = child.process_id().expect("pid");
    let mut demo = None;
    assert!(
        common::wait_until(Duration::from_secs(30), || {
            demo = common::demo_server_of(pid).filter(|(_, m)| m.exists());
            demo.is_some()
        }),
        "the demo server did not start"
    );
    let (server, manifest) = demo.unwrap();
    let dir = manifest.parent().unwrap().to_path_buf();

    // The manifest is private and its place is not guessable from the pid.
    assert_eq!(mode(&dir), 0o700, "{}", dir.display());
    assert_eq!(mode(&manifest), 0o600, "{}", manifest.display());
    assert!(
        !manifest
            .to_string_lossy()
            .contains(&format!("frontdesk-demo-{pid}.json")),
        "{}",
        manifest.display()
    );

    // kill -9: no guard, no signal handler runs in the TUI.
    let killed = Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap();
    assert!(killed.success());
    let _ = child.wait();
    assert!(
        common::wait_until(Duration::from_secs(10), || !common::alive(server)),
        "the demo server outlived its parent's kill -9"
    );
    // It stopped cleanly: its manifest (the key) is gone with it.
    assert!(!manifest.exists(), "the manifest survived the server");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_with_exit_with_stdin_stops_when_its_stdin_closes() {
    let mut child = serve(&["--exit-with-stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.contains("listening on"), "{line}");
    drop(child.stdin.take());
    let mut status = None;
    let ended = common::wait_until(Duration::from_secs(10), || {
        status = child.try_wait().unwrap();
        status.is_some()
    });
    if !ended {
        let _ = child.kill();
    }
    assert!(ended, "serve kept running after its stdin closed");
    assert!(status.unwrap().success(), "{status:?}");
}

#[test]
fn serve_refuses_an_existing_manifest_path_or_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let existing = tmp.path().join("existing.json");
    std::fs::write(&existing, "keep me").unwrap();
    let target = tmp.path().join("victim.txt");
    std::fs::write(&target, "precious").unwrap();
    let link = tmp.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let dangling = tmp.path().join("dangling.json");
    std::os::unix::fs::symlink(tmp.path().join("nowhere"), &dangling).unwrap();

    for path in [&existing, &link, &dangling] {
        let out = serve(&["--manifest", path.to_str().unwrap()]).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", path.display());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("already exists"), "{err}");
        assert!(out.stdout.is_empty(), "no ready line");
    }
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep me");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    assert!(!tmp.path().join("nowhere").exists(), "a dangling link was followed");
}

#[test]
fn serve_writes_its_manifest_owner_only_and_removes_it_on_sigterm() {
    let tmp = tempfile::tempdir().unwrap();
    let manifest = tmp.path().join("m.json");
    let mut child = serve(&["--manifest", manifest.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.contains("listening on"), "{line}");
    assert_eq!(mode(&manifest), 0o600);
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(!manifest.exists(), "the manifest (with the key) was left behind");
}

#[test]
fn a_file_that_is_not_a_database_ends_serve_with_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("junk.sqlite");
    std::fs::write(&db, vec![0x5a_u8; 8192]).unwrap();
    let out = serve(&["--db", db.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("damaged or not an SQLite file"), "{err}");
    assert!(out.stdout.is_empty());
}

/// The base URL and key from `serve`'s two ready lines, and its stdout
/// (kept open by the caller so the server never writes to a closed pipe).
fn ready_lines(child: &mut std::process::Child) -> (String, String, BufReader<std::process::ChildStdout>) {
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (mut l1, mut l2) = (String::new(), String::new());
    out.read_line(&mut l1).unwrap();
    out.read_line(&mut l2).unwrap();
    let base = l1
        .trim()
        .strip_prefix("frontdesk serve: listening on ")
        .unwrap()
        .to_string();
    let key = l2.trim().strip_prefix("frontdesk serve: api key ").unwrap().to_string();
    (base, key, out)
}

#[test]
fn every_500_is_logged_to_stderr_with_its_cause() {
    let mut child = serve(&["--fail-rate", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (base, key, _stdout) = ready_lines(&mut child);
    let status = common::runtime().block_on(async {
        let raw = common::Raw::at(&base, &key);
        raw.get("/contacts").await.0
    });
    assert_eq!(status.as_u16(), 500);
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let _ = child.wait();
    assert!(err.contains("answering 500") && err.contains("/v1/contacts"), "{err}");
    assert!(!err.contains(&key), "the key reached the log");
}

/// The reported attack: `ulimit -n 64`, 80 connections that send half a
/// header and wait. A normal request must still be answered.
#[test]
fn a_low_descriptor_limit_and_80_slow_clients_do_not_starve_others() {
    let bin = env!("CARGO_BIN_EXE_frontdesk");
    let mut child = Command::new("sh")
        .args([
            "-c",
            r#"ulimit -n 64 && exec "$0" serve --addr 127.0.0.1:0 --contacts 5 --no-activity --header-timeout-secs 1"#,
            bin,
        ])
        .env_remove("FRONTDESK_SERVE_API_KEY")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (base, key, _stdout) = ready_lines(&mut child);
    let addr = base.trim_start_matches("http://").trim_end_matches("/v1").to_string();
    let status = common::runtime().block_on(async {
        use tokio::io::AsyncWriteExt;
        let mut slow = Vec::new();
        for _ in 0..80 {
            let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
            s.write_all(b"GET /v1/plan HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .await
                .unwrap();
            slow.push(s);
        }
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        let resp = client.get(format!("{base}/plan")).bearer_auth(&key).send().await;
        drop(slow);
        resp.map(|r| r.status().as_u16())
    });
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(status.ok(), Some(200), "a normal request was starved");
}
