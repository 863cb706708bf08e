//! What is on the screen takes the keys: an overlay that leaves the
//! screen (the selection moved, a refresh, a view change) gives them back.

use super::*;
use crate::api::Template;
use crate::index::Changes;
use crate::tui::account::{AccountEffect, AccountMsg};
use crate::tui::compose::Stage;
use crate::tui::inbox::views::Views;
use crate::tui::msg::index::IndexMsg;

fn template() -> Template {
    Template {
        uuid: "t-ok".into(),
        title: "Order update".into(),
        status: "approved".into(),
        text: "Hi {{1}}".into(),
        ..Default::default()
    }
}

/// The "Open" view at `w` x `h`, the first row shown with the composer
/// open and its template picker up.
fn picker_open(w: u16, h: u16) -> (Model, String) {
    let mut m = indexed_model(10, w, h);
    m.views = Views::new(Vec::new(), Some("agent@example.test".into()));
    m.views.current = m.views.all.iter().position(|v| v.name == "Open").unwrap();
    step(&mut m, Msg::Tick(now()));
    let first = m.list.selected_uuid().unwrap().to_string();
    step(&mut m, code(KeyCode::Enter));
    assert_eq!(m.thread.contact.as_deref(), Some(first.as_str()));
    step(&mut m, key('R'));
    let fx = update(&mut m, ctrl('t'));
    let id = fx
        .iter()
        .find_map(|e| match e {
            Effect::Account(AccountEffect::FetchTemplates { id }) => Some(*id),
            _ => None,
        })
        .expect("GET /templates");
    update(
        &mut m,
        Msg::Account(AccountMsg::Templates {
            id,
            result: Ok(vec![template()]),
        }),
    );
    assert!(matches!(m.compose.stage, Stage::Templates(_)), "{:?}", m.compose.stage);
    (m, first)
}

/// A colleague closes `uuid`: it leaves the "Open" view.
fn closed_by_a_colleague(m: &mut Model, uuid: &str) -> Vec<Effect> {
    let mut c = (0..10).map(contact).find(|c| c.uuid == uuid).unwrap();
    c.closed_at = Some(now());
    step(
        m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![c],
            removed: vec![],
        })),
    )
}

/// The contacts a close was asked for.
fn closed(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Apply {
                uuid,
                action: crate::triage::bulk::Action::Close,
                ..
            } => Some(uuid.clone()),
            _ => None,
        })
        .collect()
}

fn screen(m: &Model) -> String {
    format!("{}", crate::tui::view::tests::draw(m).backend())
}

#[test]
fn a_template_picker_hidden_by_a_colleagues_close_gives_the_close_key_back() {
    for (w, h) in [(160, 48), (80, 24)] {
        let (mut m, first) = picker_open(w, h);
        hidden_picker_gives_the_keys_back(&mut m, &first);
    }
}

fn hidden_picker_gives_the_keys_back(m: &mut Model, first: &str) {
    assert!(screen(m).contains("Order update"), "the picker shows");
    closed_by_a_colleague(m, first);
    let next = m.list.selected_uuid().unwrap().to_string();
    // Issue 36: the conversation being read stays under the cursor
    // (marked as moved) until the agent moves; it does not jump.
    assert_eq!(next, first, "the selection stays on it");
    if screen(m).contains("Order update") {
        // Kept on screen: it still takes the keys.
        update(m, code(KeyCode::Esc));
        assert!(!matches!(m.compose.stage, Stage::Templates(_)));
    } else {
        // The picker left the screen: `c` closes the contact in view.
        let fx = step(m, key('c'));
        assert_eq!(closed(&fx), vec![next], "the close acts on what the agent sees");
    }
}

#[test]
fn a_search_started_from_a_narrow_thread_pane_shows_the_line_it_types_in() {
    let mut m = model_with(5, 80, 24);
    m.focus = Pane::Thread;
    update(&mut m, key('/'));
    type_text(&mut m, "zzz");
    let shown = screen(&m);
    assert!(shown.contains("zzz"), "what is typed shows:\n{shown}");
}
