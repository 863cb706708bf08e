//! End to end: the real binary in a pseudo-terminal against the embedded
//! server on 127.0.0.1:0. Keys in, screen out (vt100), and the server's
//! state checked through the API after each action.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use frontdesk::server::{ServerConfig, start};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use serde_json::Value;

struct Screen {
    parser: vt100::Parser,
    raw: Vec<u8>,
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

/// The screen row holding the selection marker.
fn selected_row(s: &vt100::Screen) -> Option<usize> {
    s.contents().lines().position(|l| l.contains("│▸"))
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
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = start(
        listener,
        ServerConfig {
            contacts: 60,
            seed: 7,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let (base, key) = (server.base_url.clone(), server.api_key.clone());
    let user = server.manifest.users[0].uuid.clone();
    let http = reqwest::Client::new();

    // The first open contact after the top one: `j` moves there, `c` closes it.
    let first = get_json(&http, &format!("{base}/contacts"), &key).await;
    let contacts = first["contacts"].as_array().unwrap().clone();
    let target = (1..contacts.len())
        .find(|&i| contacts[i]["closedAt"].is_null())
        .expect("an open contact");
    let uuid = contacts[target]["uuid"].as_str().unwrap().to_string();

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
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_frontdesk"));
    cmd.arg("--config");
    cmd.arg(tmp.path().join("no-such-config.toml"));
    cmd.env("FRONTDESK_BASE_URL", &base);
    cmd.env("FRONTDESK_API_KEY", &key);
    cmd.env("FRONTDESK_USER_UUID", &user);
    cmd.env("FRONTDESK_LOG", tmp.path().join("frontdesk.log"));
    cmd.env("TERM", "xterm-256color");
    cmd.env_remove("NO_COLOR");
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);

    let screen = Arc::new(Mutex::new(Screen {
        parser: vt100::Parser::new(NonZeroU16::new(30).unwrap(), NonZeroU16::new(100).unwrap(), 0),
        raw: Vec::new(),
    }));
    let mut reader = pair.master.try_clone_reader().unwrap();
    let feed = screen.clone();
    let reader_thread = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let mut s = feed.lock().unwrap();
                    s.parser.process(&buf[..n]);
                    s.raw.extend_from_slice(&buf[..n]);
                }
            }
        }
    });
    let mut keys = pair.master.take_writer().unwrap();
    let mut press = |bytes: &[u8]| {
        keys.write_all(bytes).unwrap();
        keys.flush().unwrap();
    };

    // The list appears (status bar count, the selection on the first row).
    wait_for(&screen, "the contact list", Duration::from_secs(30), |s| {
        s.contents().contains("loaded") && selected_row(s).is_some()
    });
    assert!(screen.lock().unwrap().parser.screen().alternate_screen());
    let top = selected_row(screen.lock().unwrap().parser.screen()).unwrap();

    // Moving works.
    for _ in 0..target {
        press(b"j");
    }
    wait_for(&screen, "the selection to move", Duration::from_secs(10), |s| {
        selected_row(s) == Some(top + target)
    });

    // `c` closes the selected conversation: checked through the API.
    press(b"c");
    poll_contact(&http, &base, &key, &uuid, "closedAt to be set", |c| {
        !c["closedAt"].is_null()
    })
    .await;
    wait_for(&screen, "the close toast", Duration::from_secs(10), |s| {
        s.contents().contains("conversation closed")
    });

    // `n`, type, Ctrl-S: the note is saved.
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
        s.contents().contains("note saved")
    });

    // `q` quits with 0 and leaves the terminal as it was.
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
        assert!(!s.parser.screen().alternate_screen(), "still on the alternate screen");
        let tail = String::from_utf8_lossy(&s.raw[s.raw.len().saturating_sub(60)..]).into_owned();
        assert!(
            s.raw.ends_with(b"\x1b[?1049l"),
            "output must end by leaving the alternate screen: {tail:?}"
        );
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
