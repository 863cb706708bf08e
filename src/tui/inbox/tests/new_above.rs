//! New conversations above the first row shown: the list keeps its place
//! and says "↑ N new" on its border until the agent goes up (`g`).

use chrono::Duration;

use crate::index::Changes;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::msg::index::IndexMsg;
use crate::tui::update::update;
use crate::tui::view::tests::draw;

fn border(m: &Model) -> String {
    let t = draw(m);
    let buf = t.backend().buffer();
    let list = m.areas().list.unwrap();
    (list.x..list.x + list.width)
        .map(|x| buf[(x, list.y)].symbol().to_string())
        .collect()
}

/// `n` conversations newer than any listed come in.
fn arrive(m: &mut Model, n: usize) {
    let upserted = (0..n)
        .map(|i| {
            let mut c = contact(500 + i);
            c.closed_at = None;
            c.assigned_user = None;
            c.activity_at = Some(now() + Duration::minutes(1 + i as i64));
            c
        })
        .collect();
    update(
        m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted,
            removed: Vec::new(),
        })),
    );
}

#[test]
fn new_conversations_above_the_cursor_are_counted_on_the_border_and_g_clears_it() {
    let mut m = indexed_model(80, 80, 24);
    // The All view: every conversation, newest first.
    update(&mut m, key('5'));
    for _ in 0..3 {
        update(&mut m, code(crossterm::event::KeyCode::PageDown));
    }
    let reading = m.list.selected_uuid().unwrap();
    assert!(m.list.view.offset > 0, "scrolled down");
    arrive(&mut m, 3);
    assert_eq!(
        m.list.selected_uuid().as_deref(),
        Some(reading.as_str()),
        "the cursor stays"
    );
    let top = border(&m);
    assert!(top.contains("↑ 3 new"), "{top}");
    update(&mut m, key('g'));
    let top = border(&m);
    assert!(!top.contains("new"), "{top}");
}

#[test]
fn at_the_top_new_conversations_show_without_a_marker() {
    let mut m = indexed_model(80, 80, 24);
    update(&mut m, key('5'));
    arrive(&mut m, 2);
    assert!(!border(&m).contains("new"), "{}", border(&m));
}
