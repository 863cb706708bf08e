//! The list backed by the local index: who wrote last, the last message,
//! the customer's wait, and how fresh the index is, at both sizes.

use insta::assert_snapshot;

use super::draw;
use crate::api::Contact;
use crate::index::{Preview, Who};
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::msg::index::{IndexMsg, SyncStatus};
use crate::tui::update::update;

/// An indexed list whose conversations differ in who wrote last.
fn with_previews(w: u16, h: u16) -> Model {
    let mut m = indexed_model(30, w, h);
    let who = [Some(Who::Customer), Some(Who::Agent), Some(Who::Note), None];
    let texts = [
        "Where is my order? It was due \u{1b}[31myesterday\u{1b}[0m",
        "We have issued a refund, it takes 3–5 days",
        "VIP: call back before 5pm",
        "",
    ];
    let previews: Vec<(String, Preview)> = (0..24)
        .map(|i| {
            let c: Contact = contact(i);
            (
                c.uuid.clone(),
                Preview {
                    who: who[i % 4],
                    text: texts[i % 4].into(),
                    at: c.activity_at,
                    activity: c.last_activity(),
                    wait: Default::default(),
                },
            )
        })
        .collect();
    update(&mut m, Msg::Index(IndexMsg::Previews(previews)));
    m
}

fn status_line(m: &Model) -> String {
    let t = draw(m);
    let buf = t.backend().buffer();
    let y = m.height - 1;
    (0..m.width)
        .map(|x| buf[(x, y)].symbol().to_string())
        .collect::<String>()
}

#[test]
fn previews_and_waiting_at_both_sizes() {
    for (w, h) in [(80, 24), (160, 48)] {
        let m = with_previews(w, h);
        assert_snapshot!(format!("index_previews_{w}x{h}"), draw(&m).backend());
    }
}

#[test]
fn who_wrote_last_reads_without_colour() {
    let m = with_previews(80, 24);
    let t = draw(&m);
    let text = format!("{}", t.backend());
    // Customer, agent and note each have their mark in the row.
    for mark in ['‹', '›', '✎'] {
        assert!(text.contains(mark), "{mark} is on screen");
    }
    assert!(text.contains("Last message"));
}

#[test]
fn the_status_bar_says_how_fresh_the_index_is() {
    let mut m = with_previews(80, 24);
    let base = m.sync.status.clone().unwrap();
    let cases: Vec<(SyncStatus, &str)> = vec![
        (base.clone(), "synced 15 s ago"),
        (
            SyncStatus {
                walking: Some((41_200, Some(100_000))),
                ..base.clone()
            },
            "syncing 41,200 / ~100,000",
        ),
        (
            SyncStatus {
                offline: true,
                synced_at: Some(now() - chrono::Duration::minutes(18)),
                ..base.clone()
            },
            "offline: showing the index from 15:12",
        ),
        (
            SyncStatus {
                retry_at: Some(now() + chrono::Duration::seconds(5)),
                ..base.clone()
            },
            "rate limited: next try in 5 s",
        ),
        (
            SyncStatus {
                offline: true,
                retry_at: Some(now() + chrono::Duration::seconds(5)),
                synced_at: Some(now() - chrono::Duration::minutes(18)),
                ..base.clone()
            },
            "offline: showing the index from 15:12",
        ),
        (
            SyncStatus {
                synced_at: Some(now() - chrono::Duration::minutes(3)),
                in_memory: true,
                ..base.clone()
            },
            "synced 3 min ago (in memory)",
        ),
        (
            SyncStatus {
                indexing: Some((40_000, 100_000)),
                ..base.clone()
            },
            "indexing for search 40%",
        ),
        (
            SyncStatus {
                indexing: Some((99_999, 100_000)),
                hub: Some(crate::tui::msg::index::HubLink::Live),
                ..base.clone()
            },
            "live (hub) · indexing for search 99%",
        ),
        (
            SyncStatus {
                synced_at: None,
                complete: false,
                ..base
            },
            "not synced yet",
        ),
    ];
    for (status, want) in cases {
        update(&mut m, Msg::Index(IndexMsg::Status(status)));
        let line = status_line(&m);
        assert!(line.contains(want), "{want:?} in {line:?}");
        assert!(line.contains("30 contacts"), "{line:?}");
    }
}

#[test]
fn a_search_that_found_the_index_busy_says_so_in_the_status_bar() {
    let mut m = indexed_model(30, 120, 30);
    update(&mut m, Msg::Index(IndexMsg::Status(SyncStatus::default())));
    m.list.view.search = Some(crate::tui::inbox::contact_list::Search {
        query: "ada".into(),
        ..Default::default()
    });
    update(&mut m, Msg::Index(IndexMsg::SearchBusy(true)));
    assert!(status_line(&m).contains("index busy (sync)"), "{}", status_line(&m));
    update(&mut m, Msg::Index(IndexMsg::SearchBusy(false)));
    assert!(!status_line(&m).contains("index busy"), "{}", status_line(&m));
    // Search rows still being written: the search says it is partial.
    let indexing = SyncStatus {
        indexing: Some((2_000, 30_000)),
        ..SyncStatus::default()
    };
    update(&mut m, Msg::Index(IndexMsg::Status(indexing)));
    assert!(
        status_line(&m).contains("search incomplete: 28,000 left to index"),
        "{}",
        status_line(&m)
    );
}

#[test]
fn the_status_bar_says_while_the_hub_finds_the_service_unreachable() {
    use crate::hubclient::{HubEvent, ServiceState, ServiceStatus};
    use crate::tui::msg::index::{HubLink, HubNote};
    let mut m = indexed_model(30, 120, 30);
    let live = SyncStatus {
        hub: Some(HubLink::Live),
        ..SyncStatus::default()
    };
    update(&mut m, Msg::Index(IndexMsg::Status(live)));
    let said = |state, since| {
        Msg::Index(IndexMsg::Hub(HubNote::Event(Box::new(HubEvent::ServiceStatus(
            ServiceStatus { state, since },
        )))))
    };
    update(
        &mut m,
        said(ServiceState::Down, Some(now() - chrono::Duration::minutes(5))),
    );
    let line = status_line(&m);
    assert!(line.contains("service unreachable (hub) since "), "{line:?}");
    update(&mut m, said(ServiceState::Up, Some(now())));
    let line = status_line(&m);
    assert!(line.contains("live (hub)") && !line.contains("unreachable"), "{line:?}");
}

#[test]
fn the_assignee_shows_whenever_the_width_allows() {
    // Several customers may share a name: who has each tells them apart.
    for (w, h) in [(120, 30), (160, 48), (200, 50)] {
        let m = with_previews(w, h);
        let t = draw(&m);
        let shown = format!("{}", t.backend());
        assert!(shown.contains("Assignee"), "at {w}x{h}:\n{shown}");
        assert!(shown.contains("agent@exam"), "at {w}x{h}: the assignee's name shows");
    }
}
