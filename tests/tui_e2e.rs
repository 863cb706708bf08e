//! End to end: the real binary in a pseudo-terminal against the embedded
//! server on 127.0.0.1:0. Keys in, screen out (vt100), and the server's
//! state checked through the API after each action.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use frontdesk::server::ServerConfig;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use serde_json::Value;

mod common;

struct Screen {
    parser: vt100::Parser,
    raw: Vec<u8>,
}

/// Feeds everything the app writes into a vt100 screen of `rows` x `cols`
/// (and the raw bytes), on a thread that ends with the terminal.
fn watch(
    master: &dyn portable_pty::MasterPty,
    rows: u16,
    cols: u16,
) -> (Arc<Mutex<Screen>>, std::thread::JoinHandle<()>) {
    let screen = Arc::new(Mutex::new(Screen {
        parser: vt100::Parser::new(NonZeroU16::new(rows).unwrap(), NonZeroU16::new(cols).unwrap(), 0),
        raw: Vec::new(),
    }));
    let mut reader = master.try_clone_reader().unwrap();
    let feed = screen.clone();
    let thread = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut s = feed.lock().unwrap();
            s.parser.process(&buf[..n]);
            s.raw.extend_from_slice(&buf[..n]);
        }
    });
    (screen, thread)
}

fn wait_for(screen: &Arc<Mutex<Screen>>, what: &str, deadline: Duration, ok: impl Fn(&vt100::Screen) -> bool) {
    let end = Instant::now() + deadline;
    loop {
        {
            let s = screen.lock().unwrap();
            if ok(s.parser.screen()) {
                return;
            }
            if Instant::now() > end {
                panic!(
                    "timed out waiting for {what}; screen:\n{}",
                    s.parser.screen().contents()
                );
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs the binary (with `args`) under `sh`, which prints the terminal's
/// modes with `stty -a` once the app has exited: proof that raw mode was
/// undone, which the screen alone cannot show. Exits with the app's code.
fn under_sh_with_stty(args: &[&str]) -> CommandBuilder {
    let mut cmd = CommandBuilder::new("sh");
    cmd.args([
        "-c",
        r#""$FRONTDESK_BIN" "$@"; code=$?; printf '\nSTTY-AFTER:'; stty -a; exit $code"#,
        "sh",
    ]);
    cmd.args(args);
    cmd.env("FRONTDESK_BIN", env!("CARGO_BIN_EXE_frontdesk"));
    cmd.env("FRONTDESK_IMAGE_PROTOCOL", "off");
    cmd
}

/// The terminal is back as it was: off the alternate screen, nothing drawn
/// after leaving it, and `stty -a` after exit shows canonical mode and echo.
fn assert_terminal_restored(s: &Screen) {
    assert!(!s.parser.screen().alternate_screen(), "still on the alternate screen");
    let raw = &s.raw;
    let marker = b"STTY-AFTER:";
    let at = raw
        .windows(marker.len())
        .rposition(|w| w == marker)
        .unwrap_or_else(|| panic!("no stty output: {:?}", String::from_utf8_lossy(raw)));
    let app = &raw[..at];
    let left = app
        .windows(8)
        .rposition(|w| w == b"[?1049l")
        .expect("the alternate screen was left");
    let tail = String::from_utf8_lossy(&app[left + 8..]).into_owned();
    assert!(
        !tail.contains('\u{1b}'),
        "output must end by leaving the alternate screen, got after it: {tail:?}"
    );
    let stty = String::from_utf8_lossy(&raw[at + marker.len()..]).into_owned();
    let modes: Vec<&str> = stty.split(|c: char| c.is_whitespace() || c == ';').collect();
    for mode in ["icanon", "echo"] {
        assert!(modes.contains(&mode), "{mode} is off after exit: {stty}");
        assert!(
            !modes.contains(&format!("-{mode}").as_str()),
            "raw mode left on: {stty}"
        );
    }
}

/// The pid of `parent`'s child (the app under `sh`).
fn child_of(parent: u32) -> u32 {
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let found = std::fs::read_dir("/proc").ok().and_then(|dir| {
            dir.flatten().find_map(|e| {
                let pid: u32 = e.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
                let ppid: u32 = stat.rsplit(')').next()?.split_whitespace().nth(1)?.parse().ok()?;
                (ppid == parent).then_some(pid)
            })
        });
        if let Some(pid) = found {
            return pid;
        }
        assert!(Instant::now() < end, "no child of {parent}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The screen row holding the selection marker.
fn selected_row(s: &vt100::Screen) -> Option<usize> {
    s.contents().lines().position(|l| l.contains("│▸"))
}

/// The list's part of the selected row (up to the pane's right border).
fn selected_line(s: &vt100::Screen) -> Option<String> {
    let line = s.contents().lines().find(|l| l.contains("│▸"))?.to_string();
    let start = line.find("│▸")?;
    let rest = &line[start + "│".len()..];
    Some(rest.split('│').next().unwrap_or(rest).to_string())
}

fn urlencoding(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

fn contact_of(v: &Value) -> Value {
    match &v["contact"] {
        Value::Array(a) => a[0].clone(),
        other => other.clone(),
    }
}

async fn get_json(http: &reqwest::Client, url: &str, key: &str) -> Value {
    http.get(url)
        .bearer_auth(key)
        .send()
        .await
        .expect("GET")
        .json()
        .await
        .expect("JSON")
}

async fn poll_contact(
    http: &reqwest::Client,
    base: &str,
    key: &str,
    uuid: &str,
    what: &str,
    ok: impl Fn(&Value) -> bool,
) -> Value {
    let end = Instant::now() + Duration::from_secs(15);
    loop {
        let c = contact_of(&get_json(http, &format!("{base}/contacts/{uuid}"), key).await);
        if ok(&c) {
            return c;
        }
        assert!(Instant::now() < end, "timed out waiting for {what}; contact: {c}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn triage_in_a_pseudo_terminal() {
    let server = common::spawn(common::config(60, 7)).await;
    let (base, key) = (server.base_url.clone(), server.api_key.clone());
    let user = server.manifest.users[0].uuid.clone();
    let http = reqwest::Client::new();

    // With no email configured, "me" is the key's user (GET /auth/me): the
    // list opens on Mine, their open conversations. The target is one of
    // them, found on screen by its name (the view's order is the app's).
    let me = get_json(&http, &format!("{base}/auth/me"), &key).await["user_email"]
        .as_str()
        .expect("the key's user's email")
        .to_string();
    let mut all: Vec<Value> = Vec::new();
    let mut path = format!("{base}/contacts");
    loop {
        let page = get_json(&http, &path, &key).await;
        all.extend(page["contacts"].as_array().unwrap().iter().cloned());
        match page["meta"]["next"].as_str() {
            Some(next) => path = format!("{base}/contacts?after={}", urlencoding(next)),
            None => break,
        }
    }
    let shown = |c: &Value| {
        c["name"]
            .as_str()
            .unwrap_or_default()
            .chars()
            .take(12)
            .collect::<String>()
    };
    let mine: Vec<&Value> = all
        .iter()
        .filter(|c| c["closedAt"].is_null() && c["assignedUser"] == me.as_str())
        .collect();
    // Names the list tells apart: no other contact's starts the same.
    let unique = |c: &&Value| !shown(c).is_empty() && all.iter().filter(|o| shown(o) == shown(c)).count() == 1;
    assert!(
        mine.iter().copied().filter(unique).count() >= 2,
        "the seed gives the key's user open conversations"
    );

    let tmp = tempfile::tempdir().unwrap();
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: 30,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let config = tmp.path().join("no-such-config.toml");
    let mut cmd = under_sh_with_stty(&["--config", config.to_str().unwrap()]);
    cmd.env("FRONTDESK_BASE_URL", &base);
    cmd.env("FRONTDESK_API_KEY", &key);
    cmd.env("FRONTDESK_USER_UUID", &user);
    cmd.env("FRONTDESK_LOG", tmp.path().join("frontdesk.log"));
    // Each run its own local index: nothing shared between tests or runs.
    cmd.env("XDG_CACHE_HOME", tmp.path().join("cache"));
    cmd.env("TERM", "xterm-256color");
    cmd.env("FRONTDESK_IMAGE_PROTOCOL", "off");
    cmd.env_remove("NO_COLOR");
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);

    let (screen, reader_thread) = watch(&*pair.master, 30, 100);
    let mut keys = pair.master.take_writer().unwrap();
    let mut press = |bytes: &[u8]| {
        keys.write_all(bytes).unwrap();
        keys.flush().unwrap();
    };

    // The list appears (status bar count, the selection on the first row),
    // on Mine.
    wait_for(&screen, "the contact list", Duration::from_secs(30), |s| {
        s.contents().contains(" contacts │") && selected_row(s).is_some()
    });
    assert!(screen.lock().unwrap().parser.screen().alternate_screen());
    wait_for(&screen, "Mine, the key's user's", Duration::from_secs(10), |s| {
        s.contents().contains("[1 Mine")
    });
    // The target: one of Mine below the selected (top) row, by name.
    let top = selected_line(screen.lock().unwrap().parser.screen()).unwrap();
    let target = mine
        .iter()
        .copied()
        .filter(unique)
        .find(|c| !top.contains(&shown(c)))
        .expect("another of Mine");
    let uuid = target["uuid"].as_str().unwrap().to_string();
    let name = shown(target);

    // Moving works: `j` moves the selection down, row by row, to it.
    let mut at = top;
    while !at.contains(&name) {
        press(b"j");
        // Moved: another contact under the cursor (live activity may move
        // one to the top meanwhile, the selection with it).
        let before = at.clone();
        wait_for(&screen, "the selection to move", Duration::from_secs(10), |s| {
            selected_line(s).is_some_and(|l| l != before)
        });
        at = selected_line(screen.lock().unwrap().parser.screen()).unwrap();
    }

    // `c` closes the selected conversation: checked through the API.
    press(b"c");
    poll_contact(&http, &base, &key, &uuid, "closedAt to be set", |c| {
        !c["closedAt"].is_null()
    })
    .await;
    wait_for(&screen, "the close toast", Duration::from_secs(10), |s| {
        s.contents().contains("closed (") && s.contents().contains("u undo")
    });

    // `n`, type, Ctrl-S: the note is saved.
    let note_before = poll_contact(&http, &base, &key, &uuid, "the contact", |_| true).await["note"].clone();
    press(b"n");
    wait_for(&screen, "the note editor", Duration::from_secs(10), |s| {
        s.contents().contains("/1000")
    });
    press(b"e2e note 42");
    wait_for(&screen, "the typed note", Duration::from_secs(10), |s| {
        s.contents().contains("e2e note 42")
    });
    press(b"\x13");
    poll_contact(&http, &base, &key, &uuid, "the note", |c| {
        c["note"].as_str().is_some_and(|n| n.contains("e2e note 42"))
    })
    .await;
    wait_for(&screen, "the note toast", Duration::from_secs(10), |s| {
        s.contents().contains("note set (") && s.contents().contains("u undo")
    });

    // `u` takes the note back: the API has the note from before.
    press(b"u");
    poll_contact(&http, &base, &key, &uuid, "the note from before", |c| {
        c["note"] == note_before || (note_before.is_null() && c["note"] == "")
    })
    .await;

    // `q` quits with 0 and leaves the terminal as it was (checked below).
    press(b"q");
    let end = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < end, "frontdesk did not exit after q");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "exit status {status:?}");
    drop(pair.master);
    let _ = reader_thread.join();
    {
        let s = screen.lock().unwrap();
        assert_terminal_restored(&s);
        assert!(
            s.raw.windows(8).any(|w| w == b"\x1b[?2004l"),
            "bracketed paste turned off"
        );
    }
    let log = std::fs::read_to_string(tmp.path().join("frontdesk.log")).unwrap_or_default();
    assert!(log.contains("starting"), "logs go to FRONTDESK_LOG");
    assert!(!log.contains(&key), "the API key must never be logged");
    server.stop().await;
}

/// Issue 35: with no `user_email` configured and no hub, Mine is the key's
/// user's (GET /auth/me): the list opens on it, counting and listing their
/// open conversations.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mine_is_the_key_users_when_no_email_is_configured() {
    let server = common::spawn(common::config(60, 7)).await;
    let (base, key) = (server.base_url.clone(), server.api_key.clone());
    let http = reqwest::Client::new();
    let me = get_json(&http, &format!("{base}/auth/me"), &key).await["user_email"]
        .as_str()
        .expect("the key's user's email")
        .to_string();
    let mut all: Vec<Value> = Vec::new();
    let mut path = format!("{base}/contacts");
    loop {
        let page = get_json(&http, &path, &key).await;
        all.extend(page["contacts"].as_array().unwrap().iter().cloned());
        match page["meta"]["next"].as_str() {
            Some(next) => path = format!("{base}/contacts?after={}", urlencoding(next)),
            None => break,
        }
    }
    let mine: Vec<String> = all
        .iter()
        .filter(|c| c["closedAt"].is_null() && c["assignedUser"] == me.as_str())
        .map(|c| c["name"].as_str().unwrap_or_default().chars().take(12).collect())
        .collect();
    assert!(!mine.is_empty(), "the seed gives the key's user open conversations");

    let tmp = tempfile::tempdir().unwrap();
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 30,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let config = tmp.path().join("no-such-config.toml");
    let mut cmd = under_sh_with_stty(&["--config", config.to_str().unwrap()]);
    cmd.env("FRONTDESK_BASE_URL", &base);
    cmd.env("FRONTDESK_API_KEY", &key);
    for k in [
        "FRONTDESK_USER_UUID",
        "FRONTDESK_USER_EMAIL",
        "FRONTDESK_HUB_URL",
        "FRONTDESK_PROFILE",
    ] {
        cmd.env_remove(k);
    }
    cmd.env("FRONTDESK_LOG", tmp.path().join("frontdesk.log"));
    cmd.env("XDG_CACHE_HOME", tmp.path().join("cache"));
    cmd.env("XDG_STATE_HOME", tmp.path().join("state"));
    cmd.env("TERM", "xterm-256color");
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let (screen, reader_thread) = watch(&*pair.master, 30, 100);
    let mut keys = pair.master.take_writer().unwrap();

    // Mine is the current view, with the key's user's count (exact once
    // the index knows the whole account), and its rows are theirs.
    let tab = format!("[1 Mine {}]", mine.len());
    wait_for(&screen, &tab, Duration::from_secs(30), |s| {
        s.contents().contains(&tab) && selected_line(s).is_some_and(|l| mine.iter().any(|n| l.contains(n.as_str())))
    });
    keys.write_all(b"q").unwrap();
    keys.flush().unwrap();
    let end = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < end, "frontdesk did not exit after q");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "exit status {status:?}");
    drop(pair.master);
    let _ = reader_thread.join();
    server.stop().await;
}

/// Runs the binary without a terminal; returns (exit code, stderr).
fn run_plain(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_frontdesk"));
    cmd.args(args).stdin(std::process::Stdio::null()).arg("--no-cache");
    for k in [
        "FRONTDESK_BASE_URL",
        "FRONTDESK_API_KEY",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_PROFILE",
    ] {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run frontdesk");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn assert_one_line_error(code: Option<i32>, stderr: &str, contains: &str) {
    assert_eq!(code, Some(1), "stderr: {stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one clear line, got: {stderr}");
    assert!(lines[0].starts_with("frontdesk: "), "{stderr}");
    assert!(lines[0].contains(contains), "{stderr}");
    assert!(!stderr.contains("\x1b[?1049h"), "the UI must not have started");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_before_the_ui_are_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("none.toml");
    let log = tmp.path().join("log");
    let log = log.to_str().unwrap();
    let cfg = missing.to_str().unwrap();

    // Nothing listens there.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", dead.local_addr().unwrap());
    drop(dead);
    let (code, err) = run_plain(
        &["--config", cfg],
        &[
            ("FRONTDESK_BASE_URL", &url),
            ("FRONTDESK_API_KEY", "k"),
            ("FRONTDESK_LOG", log),
        ],
    );
    assert_one_line_error(code, &err, "could not reach the server");

    // A wrong key.
    let server = common::spawn(ServerConfig {
        contacts: 5,
        ..Default::default()
    })
    .await;
    let base = server.base_url.clone();
    let (code, err) = tokio::task::spawn_blocking(move || {
        run_plain(
            &["--config", &missing.to_string_lossy()],
            &[
                ("FRONTDESK_BASE_URL", &base),
                ("FRONTDESK_API_KEY", "wrong-key"),
                ("FRONTDESK_LOG", "/dev/null"),
            ],
        )
    })
    .await
    .unwrap();
    assert_one_line_error(code, &err, "401");
    server.stop().await;

    // A config file that is not TOML.
    let bad = tmp.path().join("bad.toml");
    std::fs::write(&bad, "this is = = not toml\n").unwrap();
    let (code, err) = run_plain(&["--config", bad.to_str().unwrap()], &[("FRONTDESK_LOG", log)]);
    assert_one_line_error(code, &err, "bad.toml");
}

#[test]
fn demo_mode_starts_its_own_server_and_sigterm_restores_the_terminal() {
    demo_quits_cleanly_on("TERM");
}

/// The terminal window closing sends SIGHUP: the same clean exit.
#[test]
fn sighup_restores_the_terminal_too() {
    demo_quits_cleanly_on("HUP");
}

/// `kill -INT` (raw mode makes Ctrl-C a key, but the signal still comes)
/// and `kill -QUIT`: the same clean exit.
#[test]
fn sigint_and_sigquit_restore_the_terminal_too() {
    demo_quits_cleanly_on("INT");
    demo_quits_cleanly_on("QUIT");
}

fn demo_quits_cleanly_on(signal: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let config = tmp.path().join("none.toml");
    let mut cmd = under_sh_with_stty(&["--demo", "--config", config.to_str().unwrap()]);
    cmd.env("FRONTDESK_LOG", tmp.path().join("frontdesk.log"));
    // Each run its own local index: nothing shared between tests or runs.
    cmd.env("XDG_CACHE_HOME", tmp.path().join("cache"));
    cmd.env("TERM", "xterm-256color");
    cmd.env("FRONTDESK_IMAGE_PROTOCOL", "off");
    for k in ["FRONTDESK_BASE_URL", "FRONTDESK_API_KEY", "FRONTDESK_USER_UUID"] {
        cmd.env_remove(k);
    }
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let (screen, reader_thread) = watch(&*pair.master, 24, 80);
    // Narrow: one pane with its tab strip; DEMO in the status bar.
    wait_for(&screen, "the demo list", Duration::from_secs(30), |s| {
        let c = s.contents();
        c.contains("DEMO") && c.contains("[Contacts]") && selected_row(s).is_some()
    });
    // The title shows the waiting count once the views are counted: the
    // signal comes after it, so the test sees it set, then given back.
    assert!(
        common::wait_until(Duration::from_secs(10), || {
            let s = screen.lock().unwrap();
            String::from_utf8_lossy(&s.raw).contains("\x1b]2;frontdesk · demo account · ")
        }),
        "the title was never set"
    );
    let pid = child_of(child.process_id().expect("pid"));
    let mut demo = None;
    assert!(
        common::wait_until(Duration::from_secs(10), || {
            demo = common::demo_server_of(pid);
            demo.is_some()
        }),
        "no demo server child"
    );
    let (server_pid, manifest) = demo.unwrap();
    let ok = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let end = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < end, "frontdesk did not exit on SIG{signal}");
        std::thread::sleep(Duration::from_millis(50));
    };
    // 128 + the signal's number, as a shell reports a process it ended.
    let number = match signal {
        "HUP" => 1,
        "INT" => 2,
        "QUIT" => 3,
        _ => 15,
    };
    assert_eq!(status.exit_code(), 128 + number, "exit status on SIG{signal}");
    drop(pair.master);
    let _ = reader_thread.join();
    assert_terminal_restored(&screen.lock().unwrap());
    // The title showed the waiting count and the saved one was given back.
    let raw = String::from_utf8_lossy(&screen.lock().unwrap().raw).into_owned();
    let (push, set, pop) = (
        raw.find("\x1b[22;0t"),
        raw.find("\x1b]2;frontdesk · demo account · "),
        raw.rfind("\x1b[23;0t"),
    );
    assert!(
        push < set && set < pop && push.is_some(),
        "title saved, set, restored: {push:?} {set:?} {pop:?}"
    );
    // The demo server child is gone with it, and so are its manifest and
    // the private directory holding it.
    assert!(!manifest.exists(), "manifest left behind");
    assert!(!manifest.parent().unwrap().exists(), "manifest directory left behind");
    assert!(
        common::wait_until(Duration::from_secs(5), || !common::alive(server_pid)),
        "the demo server outlived the app"
    );
}

/// `Tab`, `d`, `y` in the thread deletes the selected sent message: gone
/// through the API, and the screen says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_a_sent_message_from_the_thread() {
    let server = common::spawn(common::config(40, 7)).await;
    let (base, key) = (server.base_url.clone(), server.api_key.clone());
    let http = reqwest::Client::new();

    // A contact on the first screen whose newest message is a sent one.
    let first = get_json(&http, &format!("{base}/contacts"), &key).await;
    let contacts = first["contacts"].as_array().unwrap().clone();
    let mut found = None;
    for (i, c) in contacts.iter().enumerate().take(15) {
        let uuid = c["uuid"].as_str().unwrap();
        let page = get_json(&http, &format!("{base}/contacts/{uuid}/messages"), &key).await;
        // The newest by time (the thread's last entry, where the cursor
        // starts), notes included: the listing's first is not always it.
        let Some(newest) = page["messages"].as_array().and_then(|ms| {
            ms.iter()
                .max_by_key(|m| m["createdAt"].as_str().unwrap_or_default().to_string())
        }) else {
            continue;
        };
        // A name the list shows as it is and no other contact has, so the
        // test can find its row.
        let name = c["name"].as_str().unwrap_or_default();
        let unique = contacts.iter().filter(|o| o["name"] == c["name"]).count() == 1;
        if newest["status"] == "sent" && newest["uuid"].is_string() && unique && name.is_ascii() && name.len() > 3 {
            found = Some((i, uuid.to_string(), newest.clone()));
            break;
        }
    }
    let (index, contact, message) = found.expect("a thread ending with a sent message");
    let message_uuid = message["uuid"].as_str().unwrap().to_string();
    let text: String = message["text"].as_str().unwrap().chars().take(12).collect();

    let tmp = tempfile::tempdir().unwrap();
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 30,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let config = tmp.path().join("no-such-config.toml");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_frontdesk"));
    cmd.args(["--config", config.to_str().unwrap()]);
    cmd.env("FRONTDESK_BASE_URL", &base);
    cmd.env("FRONTDESK_API_KEY", &key);
    cmd.env("FRONTDESK_LOG", tmp.path().join("frontdesk.log"));
    // Each run its own local index: nothing shared between tests or runs.
    cmd.env("XDG_CACHE_HOME", tmp.path().join("cache"));
    cmd.env("TERM", "xterm-256color");
    cmd.env("FRONTDESK_IMAGE_PROTOCOL", "off");
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let (screen, reader_thread) = watch(&*pair.master, 30, 100);
    let mut keys = pair.master.take_writer().unwrap();
    let mut press = |bytes: &[u8]| {
        keys.write_all(bytes).unwrap();
        keys.flush().unwrap();
    };

    wait_for(&screen, "the contact list", Duration::from_secs(30), |s| {
        s.contents().contains(" contacts │") && selected_row(s).is_some()
    });
    // The inbox opens on Mine (the key's user's, GET /auth/me), and live
    // activity reorders the lists: `/` and the contact's name (unique,
    // ASCII) select it wherever it is, Enter opens its thread.
    let name = contacts[index]["name"].as_str().unwrap().to_string();
    press(b"/");
    press(name.as_bytes());
    wait_for(&screen, "the search's match", Duration::from_secs(10), |s| {
        s.contents().lines().any(|l| l.contains("│▸") && l.contains(&name))
    });
    press(b"\r");
    wait_for(&screen, "the thread of the contact", Duration::from_secs(10), |s| {
        s.contents().contains(&format!("Thread · {name}"))
    });
    wait_for(
        &screen,
        "the thread with the sent message",
        Duration::from_secs(10),
        |s| s.contents().contains(&text),
    );
    press(b"\t");
    press(b"d");
    wait_for(&screen, "the confirmation", Duration::from_secs(10), |s| {
        s.contents().contains("Delete this message?")
    });
    let listed = get_json(&http, &format!("{base}/contacts/{contact}/messages"), &key).await;
    assert_eq!(
        listed["messages"][0]["uuid"], message["uuid"],
        "nothing deleted before y"
    );
    press(b"y");
    wait_for(&screen, "the deleted toast", Duration::from_secs(10), |s| {
        s.contents().contains("message deleted")
    });
    let listed = get_json(&http, &format!("{base}/contacts/{contact}/messages"), &key).await;
    let left: Vec<&str> = listed["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["uuid"].as_str())
        .collect();
    assert!(
        !left.contains(&message_uuid.as_str()),
        "the message is gone on the server"
    );

    press(b"q");
    let end = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < end, "frontdesk did not exit after q");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(pair.master);
    let _ = reader_thread.join();
    server.stop().await;
}

/// First run (no key, no config file, a terminal): the screen offers the
/// demo or an account; a wrong key is refused after a real request and a
/// working one is saved 0600 and opens the inbox. The key is never echoed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_run_sets_up_an_account_after_checking_the_key() {
    let server = common::spawn(ServerConfig {
        contacts: 5,
        activity: false,
        ..Default::default()
    })
    .await;
    let (base, key) = (server.base_url.clone(), server.api_key.clone());
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("conf/config.toml");
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: 24,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = under_sh_with_stty(&["--config", config.to_str().unwrap()]);
    cmd.env("FRONTDESK_LOG", tmp.path().join("frontdesk.log"));
    // Each run its own local index: nothing shared between tests or runs.
    cmd.env("XDG_CACHE_HOME", tmp.path().join("cache"));
    cmd.env("TERM", "xterm-256color");
    cmd.env("FRONTDESK_IMAGE_PROTOCOL", "off");
    for k in [
        "FRONTDESK_BASE_URL",
        "FRONTDESK_API_KEY",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_USER_EMAIL",
    ] {
        cmd.env_remove(k);
    }
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let (screen, reader_thread) = watch(&*pair.master, 24, 100);
    let mut input = pair.master.take_writer().unwrap();
    let mut send = |s: &str| {
        input.write_all(s.as_bytes()).unwrap();
        input.flush().unwrap();
    };
    let shows = |what: &'static str| move |s: &vt100::Screen| s.contents().contains(what);
    let wait = Duration::from_secs(30);
    wait_for(&screen, "the choice", wait, shows("Choose d or s"));
    // One key chooses: no Enter.
    send("s");
    wait_for(&screen, "the URL prompt", wait, shows("Base URL"));
    send(&format!("{base}\r"));
    wait_for(&screen, "the user prompt", wait, shows("user uuid"));
    send("\r");
    wait_for(&screen, "the email prompt", wait, shows("collaborator email"));
    send("alex at work\r");
    wait_for(&screen, "the email refusal", wait, shows("is not an email address"));
    send("alex@frontdesk.example\r");
    wait_for(&screen, "the key prompt", wait, shows("API key (not shown"));
    send("wrong-key-42\r");
    wait_for(&screen, "the refusal", wait, shows("That did not work"));
    assert!(!config.exists(), "nothing saved for a wrong key");
    send(&format!("{key}\r"));
    wait_for(&screen, "the inbox", wait, |s| {
        s.alternate_screen() && s.contents().contains("[Contacts]") || s.contents().contains("Contacts 5")
    });
    let saved = std::fs::read_to_string(&config).unwrap();
    assert!(saved.contains(&key) && saved.contains(&base), "{saved}");
    assert!(saved.contains("user_email = \"alex@frontdesk.example\""), "{saved}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&config).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    send("q");
    let end = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < end, "frontdesk did not quit");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(pair.master);
    let _ = reader_thread.join();
    let raw = String::from_utf8_lossy(&screen.lock().unwrap().raw).into_owned();
    assert!(!raw.contains(&key) && !raw.contains("wrong-key-42"), "a key was echoed");
    assert_terminal_restored(&screen.lock().unwrap());
    server.stop().await;
}

/// A TUI running in a pseudo-terminal: the process, the terminal, what it
/// shows, and the thread reading it.
type Running = (
    Box<dyn portable_pty::Child + Send + Sync>,
    Box<dyn portable_pty::MasterPty + Send>,
    Arc<Mutex<Screen>>,
    std::thread::JoinHandle<()>,
);

/// Runs the TUI against `base` with its own cache dir `tmp/cache`, in a
/// 120x30 terminal.
fn start_tui(tmp: &std::path::Path, base: &str, key: &str) -> Running {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 30,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_frontdesk"));
    cmd.args(["--config", tmp.join("no-such-config.toml").to_str().unwrap()]);
    cmd.env("FRONTDESK_BASE_URL", base);
    cmd.env("FRONTDESK_API_KEY", key);
    cmd.env("FRONTDESK_LOG", tmp.join("frontdesk.log"));
    cmd.env("XDG_CACHE_HOME", tmp.join("cache"));
    cmd.env("TERM", "xterm-256color");
    cmd.env("FRONTDESK_IMAGE_PROTOCOL", "off");
    let child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let (screen, reader) = watch(&*pair.master, 30, 120);
    (child, pair.master, screen, reader)
}

fn quit(
    mut child: Box<dyn portable_pty::Child + Send + Sync>,
    master: Box<dyn portable_pty::MasterPty + Send>,
    reader: std::thread::JoinHandle<()>,
) {
    let mut keys = master.take_writer().unwrap();
    keys.write_all(b"q").unwrap();
    keys.flush().unwrap();
    let end = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < end, "frontdesk did not quit");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(keys);
    drop(master);
    let _ = reader.join();
}

/// Issue 8: a second start draws the list from the local index before the
/// server (answering after 2 s) has said anything, then syncs behind it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_start_shows_the_cached_list_before_the_first_response() {
    let server = common::spawn(ServerConfig {
        contacts: 12,
        latency_ms: 2000,
        activity: false,
        ..Default::default()
    })
    .await;
    let (base, gate) = common::gated_proxy(&server.base_url, true).await;
    let key = server.api_key.clone();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();

    tokio::task::spawn_blocking(move || {
        // First start: nothing cached; the list comes from the server and
        // the first walk fills the index.
        let (child, master, screen, reader) = start_tui(&dir, &base, &key);
        wait_for(&screen, "the first walk to finish", Duration::from_secs(60), |s| {
            s.contents().contains("12 contacts │ synced") && selected_row(s).is_some()
        });
        let first_name = {
            let s = screen.lock().unwrap();
            let contents = s.parser.screen().contents();
            contents.lines().find(|l| l.contains("│▸")).unwrap().to_string()
        };
        quit(child, master, reader);
        assert!(std::fs::read_dir(dir.join("cache/frontdesk")).unwrap().count() > 0);

        // Second start, with the server held back: nothing can answer,
        // and the cached list is on screen all the same.
        gate.send_replace(false);
        let (child, master, screen, reader) = start_tui(&dir, &base, &key);
        wait_for(&screen, "the cached list", Duration::from_secs(10), |s| {
            s.contents().contains("12 contacts") && selected_row(s).is_some()
        });
        {
            let s = screen.lock().unwrap();
            let contents = s.parser.screen().contents();
            assert!(
                contents.contains("loading messages"),
                "no response has arrived yet:\n{contents}"
            );
            let name: String = first_name.chars().skip(4).take(20).collect();
            assert!(contents.contains(name.trim()), "the same first contact:\n{contents}");
        }
        // Then the server answers (after its 2 s) and the sync catches up
        // behind the list.
        gate.send_replace(true);
        wait_for(&screen, "the incremental pass", Duration::from_secs(30), |s| {
            s.contents().contains("synced just now")
        });
        quit(child, master, reader);
    })
    .await
    .unwrap();
    server.stop().await;
}
