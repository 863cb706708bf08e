//! Issue 20, end to end: two agents' TUIs in pseudo-terminals on one team
//! hub (the embedded server behind it, all on 127.0.0.1:0). Each sees the
//! other on a conversation ("dana viewing"), a close by one shows on the
//! other's screen from the hub's event stream (no polling: the refresh
//! interval is an hour), and a send while a colleague answers asks first.

use std::time::Duration;

use frontdesk::server::ServerConfig;

mod common;
mod pty;

#[path = "hub/support.rs"]
mod support;

fn tui(tmp: &std::path::Path, hub: &str, token: &str) -> pty::Tui {
    // An hour between refreshes: whatever arrives comes from the stream.
    let config = tmp.join("config.toml");
    std::fs::write(&config, "refresh_secs = 3600\n").unwrap();
    let mut cmd = pty::command(tmp, &["--config", config.to_str().unwrap()]);
    cmd.env("FRONTDESK_HUB_URL", hub);
    cmd.env("FRONTDESK_HUB_TOKEN", token);
    pty::Tui::start(cmd, 24, 80)
}

/// The number on the Open tab.
fn open(s: &vt100::Screen) -> Option<u32> {
    let c = s.contents();
    let at = c.find("Open ")? + "Open ".len();
    c[at..].split(|ch: char| !ch.is_ascii_digit()).next()?.parse().ok()
}

/// The selected row's line.
fn selected(s: &vt100::Screen) -> String {
    s.contents()
        .lines()
        .find(|l| l.contains('▸'))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_close_by_one_agent_shows_on_the_others_screen_and_each_sees_the_other() {
    let server = common::spawn_blocking(ServerConfig {
        contacts: 8,
        activity: false,
        ..Default::default()
    });
    let team = common::runtime().block_on(async {
        let team = support::team_on(server, |_| {}).await;
        support::wait_for_contacts(&team.dana, 8).await;
        team
    });
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut dana = tui(a.path(), &team.hub.url, &team.dana.token);
    let mut lee = tui(b.path(), &team.hub.url, &team.lee.token);
    for (who, app) in [("dana", &dana), ("lee", &lee)] {
        app.wait_for(&format!("{who}'s list, live"), Duration::from_secs(30), |s| {
            let c = s.contents();
            c.contains("live (hub)") && c.contains("8 contacts")
        });
    }
    // Both on the same first row of the Open view: each sees the other.
    for app in [&mut dana, &mut lee] {
        app.press(b"4");
        app.wait_for("the Open view", Duration::from_secs(10), |s| {
            s.contents().contains("[4 Open")
        });
    }
    dana.wait_for("lee on the selected conversation", Duration::from_secs(20), |s| {
        selected(s).contains("lee viewing")
    });
    lee.wait_for("dana on the selected conversation", Duration::from_secs(20), |s| {
        selected(s).contains("dana viewing")
    });
    let (row, opened) = {
        let screen = lee.screen.lock().unwrap();
        let s = screen.parser.screen();
        (selected(s), open(s).expect("the Open tab's count"))
    };
    assert!(row.contains("open"), "an open conversation first: {row}");
    // The name: after the cursor and who wrote last (`‹`, `›`).
    let name: String = row
        .split("  ")
        .map(|p| p.trim().trim_start_matches(['‹', '›', ' ']))
        .find(|p| p.chars().count() > 3)
        .unwrap_or_default()
        .into();

    // dana answers: lee sees her replying, and lee's send asks first.
    dana.press(b"R");
    lee.wait_for("dana replying", Duration::from_secs(20), |s| {
        selected(s).contains("dana replying")
    });
    lee.press(b"R");
    lee.press(b"on it");
    lee.press(b"\x13"); // Ctrl-s
    lee.wait_for("the question before sending", Duration::from_secs(10), |s| {
        s.contents().contains("dana is replying now: send anyway?")
    });
    lee.press(b"n");
    // dana sends (asked too: lee answers), then lee's send names her reply.
    // dana must have heard that lee is composing first: under load the
    // presence can reach her screen after her keys.
    dana.wait_for("lee replying on dana's screen", Duration::from_secs(20), |s| {
        s.contents().contains("lee replying")
    });
    dana.press(b"hello\x13");
    dana.wait_for("dana asked", Duration::from_secs(10), |s| {
        s.contents().contains("lee is replying now: send anyway?")
    });
    dana.press(b"y");
    lee.wait_for("dana's reply in lee's thread, named", Duration::from_secs(10), |s| {
        let c = s.contents();
        c.contains("dana ›") && c.contains("hello")
    });
    lee.press(b"\x13");
    lee.wait_for("the question naming dana's reply", Duration::from_secs(10), |s| {
        s.contents().contains("dana replied") && s.contents().contains("ago: send anyway?")
    });
    lee.press(b"n");
    lee.press(b"\x1b"); // Esc closes the composer and keeps the draft.
    lee.wait_for("lee's composer closed", Duration::from_secs(10), |s| {
        !s.contents().contains("write a reply")
    });
    dana.press(b"\x1b");
    dana.wait_for("dana's composer closed", Duration::from_secs(10), |s| {
        !s.contents().contains("write a reply")
    });

    // dana closes it: lee's row says so, from the stream.
    dana.press(b"c");
    dana.wait_for("dana's close done", Duration::from_secs(20), |s| {
        s.contents().contains("closed")
    });
    // It leaves lee's Open count at once; the row lee is reading stays
    // under the cursor, marked, until lee moves (issue 36).
    lee.wait_for("the close on lee's screen", Duration::from_secs(10), |s| {
        open(s) == Some(opened - 1) && s.contents().contains("moved: closed")
    });
    lee.press(b"j");
    lee.wait_for("the closed row gone once lee moves", Duration::from_secs(10), |s| {
        !s.contents().contains(&name)
    });
    for app in [&mut dana, &mut lee] {
        app.press(b"q");
        assert_eq!(app.wait_exit(Duration::from_secs(20)), 0);
    }
    dana.finish();
    lee.finish();
}
