//! Issue 23 end to end: a customer writes to a contact in Mine while the
//! terminal reports it lost the focus, and the notification's bytes (OSC
//! 777, OSC 9, the bell) reach the terminal.

use std::time::{Duration, Instant};

use frontdesk::api::{ContactFilter, PageRequest};
use frontdesk::server::ServerConfig;

mod common;
mod pty;

const ME: &str = "alex@frontdesk.example";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_message_in_mine_notifies_an_unfocused_terminal() {
    let server = common::spawn(ServerConfig {
        contacts: 20,
        ..Default::default()
    })
    .await;
    let client = frontdesk::api::Client::new(&server.base_url, &server.api_key, Duration::from_secs(10)).unwrap();
    let page = client
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .unwrap();
    let mine = page
        .items
        .iter()
        .find(|c| c.is_open() && c.assigned_user.as_deref() == Some(ME))
        .expect("an open conversation of mine in the seed")
        .clone();

    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config.toml");
    std::fs::write(&config, format!("user_email = \"{ME}\"\nrefresh_secs = 1\n")).unwrap();
    let mut cmd = pty::command(tmp.path(), &["--config", config.to_str().unwrap()]);
    cmd.env("FRONTDESK_BASE_URL", &server.base_url);
    cmd.env("FRONTDESK_API_KEY", &server.api_key);
    let mut tui = pty::Tui::start(cmd, 24, 80);
    tui.wait_for("the list synced", Duration::from_secs(60), |s| {
        s.contents().contains("synced")
    });
    let name: String = mine.name.chars().take(10).collect();
    // The terminal says it lost the focus (focus reporting is on).
    tui.press(b"\x1b[O");
    assert!(server.customer_writes(&mine.uuid, "where is my parcel").await.unwrap());
    let end = Instant::now() + Duration::from_secs(60);
    let raw = loop {
        let raw = tui.screen.lock().unwrap().raw.clone();
        let text = String::from_utf8_lossy(&raw).to_string();
        if text.contains("\x1b]777;notify;") {
            break text;
        }
        assert!(Instant::now() < end, "no notification reached the terminal");
        std::thread::sleep(Duration::from_millis(100));
    };
    let at = raw.find("\x1b]777;notify;").unwrap();
    let tail = &raw[at..];
    assert!(tail.starts_with("\x1b]777;notify;frontdesk: "), "{tail:?}");
    assert!(tail.contains(name.trim()), "names the contact: {tail:?}");
    assert!(tail.contains("where is my parcel"), "{tail:?}");
    assert!(tail.contains("\x1b]9;frontdesk: "), "OSC 9 too: {tail:?}");
    assert!(tail.contains("parcel\x1b\\\x07"), "then the bell: {tail:?}");
    assert!(raw.contains("\x1b[?1004h"), "focus reporting was turned on");
    tui.press(b"q");
    assert_eq!(tui.wait_exit(Duration::from_secs(20)), 0);
    let all = String::from_utf8_lossy(&tui.finish()).to_string();
    assert!(all.contains("\x1b[?1004l"), "and off again at the end");
    server.stop().await;
}
