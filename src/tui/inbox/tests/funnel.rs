//! A wide list shows each conversation's funnel by the name the service
//! lists it under.

use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::view::tests::draw;

/// The list pane's lines alone (the details pane names the funnel too).
fn screen(m: &Model) -> String {
    let t = draw(m);
    let buf = t.backend().buffer();
    let w = m.areas().list.map_or(buf.area.width, |r| r.x + r.width);
    (0..buf.area.height)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}

fn model(w: u16) -> Model {
    let mut items = contacts(0..6);
    items[0].funnel_id = Some("f-negotiation".into());
    items[1].funnel_id = Some("f-unlisted-0123456".into());
    let mut m = model_of(items, None, w, 30);
    m.known
        .funnels
        .insert("f-negotiation".into(), ("🤝".into(), "Negotiation".into()));
    m
}

#[test]
fn a_wide_list_names_each_conversations_funnel() {
    let s = screen(&model(260));
    let row = |name: &str| {
        s.lines()
            .find(|l| l.starts_with('│') && l.contains(name))
            .unwrap_or_default()
            .to_string()
    };
    assert!(s.contains("Funnel"), "{s}");
    assert!(
        row(&contact(0).name).contains("Negotiation"),
        "{}",
        row(&contact(0).name)
    );
    assert!(
        !row(&contact(0).name).contains("🤝"),
        "no emoji: its width is the terminal's guess"
    );
    assert!(s.contains("f-unlist"), "an unknown funnel: its uuid's start\n{s}");
}

#[test]
fn a_narrower_list_keeps_its_columns() {
    let s = screen(&model(160));
    assert!(!s.contains("Funnel"), "{s}");
    assert!(!s.contains("Negotiation"), "{s}");
}
