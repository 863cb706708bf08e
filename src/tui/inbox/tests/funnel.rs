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

/// At 80 columns there is no room for the column: `/funnel:NAME` lists the
/// conversations of the funnel whose name starts with NAME.
#[test]
fn funnel_in_the_search_keeps_the_funnels_conversations_at_80_columns() {
    use crate::tui::effect::Effect;
    use crate::tui::inbox::InboxEffect;
    use crate::tui::inbox::msg::InboxMsg;
    use crate::tui::msg::Msg;
    use crate::tui::update::update;
    let mut items = contacts(0..6);
    for i in [1, 4] {
        items[i].funnel_id = Some("f-negotiation".into());
    }
    items[2].funnel_id = Some("f-won".into());
    let mut m = model_of(items, None, 80, 24);
    m.known
        .funnels
        .insert("f-negotiation".into(), ("🤝".into(), "Negotiation".into()));
    m.known.funnels.insert("f-won".into(), ("🏆".into(), "Won".into()));
    update(&mut m, key('/'));
    let mut job = None;
    for c in "funnel:neg".chars() {
        for e in update(&mut m, key(c)) {
            if let Effect::Inbox(InboxEffect::SearchContacts(j)) = e {
                job = Some(j);
            }
        }
    }
    let done = job.expect("a search").run().expect("the newest");
    update(&mut m, Msg::Inbox(InboxMsg::ContactsSearched(done)));
    let shown: Vec<String> = (0..m.list.visible_len())
        .filter_map(|r| m.list.row(r).map(|c| c.uuid.to_string()))
        .collect();
    assert_eq!(shown, vec![contact(1).uuid, contact(4).uuid]);
    let s = screen(&m);
    assert!(s.contains("/funnel:neg 2 found"), "{s}");
}
