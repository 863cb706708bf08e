//! A bulk action over more than 20 contacts asks on the terminal: "n"
//! changes nothing, "y" goes ahead. Run in a pseudo-terminal.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

mod common;

/// Runs the binary in a PTY, answers `answer` once the question shows,
/// and returns its exit code and everything it wrote.
fn run_answering(srv: &frontdesk::server::RunningServer, home: &std::path::Path, answer: &str) -> (u32, String) {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 160,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_frontdesk"));
    cmd.args(["--config", home.join("no-config.toml").to_str().unwrap()]);
    cmd.args(["--sync-rate", "0", "contacts", "close", "--view", "open"]);
    cmd.env("FRONTDESK_BASE_URL", &srv.base_url);
    cmd.env("FRONTDESK_API_KEY", &srv.api_key);
    cmd.env("XDG_CACHE_HOME", home.join("cache"));
    cmd.env("HOME", home);
    cmd.env("TERM", "xterm-256color");
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let seen = Arc::new(Mutex::new(String::new()));
    let mut reader = pair.master.try_clone_reader().unwrap();
    let sink = seen.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    let asked = common::wait_until(Duration::from_secs(60), || seen.lock().unwrap().contains("[y/N]"));
    assert!(asked, "no question: {}", seen.lock().unwrap());
    let mut keys = pair.master.take_writer().unwrap();
    keys.write_all(answer.as_bytes()).unwrap();
    keys.flush().unwrap();
    let end = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(Instant::now() < end, "still running: {}", seen.lock().unwrap());
        std::thread::sleep(Duration::from_millis(50));
    };
    std::thread::sleep(Duration::from_millis(100));
    let out = seen.lock().unwrap().clone();
    (status.exit_code(), out)
}

fn open_count(srv: &frontdesk::server::RunningServer) -> usize {
    let api = frontdesk::api::Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10)).unwrap();
    let all = common::runtime()
        .block_on(api.all_contacts(frontdesk::api::ContactFilter::default()))
        .unwrap();
    all.iter().filter(|c| c.is_open()).count()
}

#[test]
fn more_than_20_contacts_are_confirmed_on_the_terminal() {
    let srv = common::spawn_blocking(common::config(80, 2));
    let home = tempfile::tempdir().unwrap();
    let open = open_count(&srv);
    assert!(open > 20, "{open}");

    let (code, out) = run_answering(&srv, home.path(), "n\r");
    assert!(out.contains(&format!("close {open} contacts (Open)?")), "{out}");
    assert_eq!(code, 2, "{out}");
    assert_eq!(open_count(&srv), open, "n changes nothing");

    let (code, out) = run_answering(&srv, home.path(), "y\r");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("closed {open} of {open} contacts")), "{out}");
    assert_eq!(open_count(&srv), 0);
}
