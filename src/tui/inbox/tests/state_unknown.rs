//! A conversation whose state the list did not carry (issue 33): its row
//! says "unknown", never "open", and the views on the state count `≥`.

use chrono::Duration;

use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::msg::index::{IndexMsg, SyncStatus};
use crate::tui::update::update;
use crate::tui::view::tests::draw;

/// A complete index of `n` contacts, the first `unknown` of them of
/// unknown state.
fn model(n: usize, unknown: usize) -> Model {
    let mut m = empty_model(80, 24);
    m.sync.status = Some(SyncStatus {
        synced_at: Some(now() - Duration::seconds(20)),
        complete: true,
        ..SyncStatus::default()
    });
    let generation = m.list.paging.generation;
    m.sync.loading = Some(generation);
    let mut contacts = contacts(0..n);
    for c in contacts.iter_mut().take(unknown) {
        c.closed_at = None;
        c.state_unknown = true;
    }
    update(
        &mut m,
        Msg::Index(IndexMsg::Loaded {
            generation,
            contacts,
            done: true,
        }),
    );
    update(&mut m, Msg::Tick(now()));
    m
}

fn lines(m: &Model) -> Vec<String> {
    let t = draw(m);
    let buf = t.backend().buffer();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect()
}

#[test]
fn a_row_of_unknown_state_says_unknown_and_open_counts_at_least() {
    let known = model(10, 0);
    let name = contact(0).name;
    let row = |m: &Model| {
        lines(m)
            .into_iter()
            .find(|l| l.contains(&name))
            .unwrap_or_else(|| panic!("a row for {name}"))
    };
    assert!(row(&known).contains("open"), "{}", row(&known));
    assert!(
        lines(&known).iter().any(|l| l.contains("Open 8")),
        "{:#?}",
        lines(&known)
    );

    let m = model(10, 1);
    let r = row(&m);
    assert!(r.contains("unknown") && !r.contains("open"), "{r}");
    let strip = lines(&m).into_iter().find(|l| l.contains("Open")).unwrap_or_default();
    assert!(strip.contains("Open ≥7"), "{strip}");
}
