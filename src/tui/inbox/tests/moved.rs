//! A colleague's change to the conversation the agent is reading takes it
//! out of the current view: the selection and the thread stay on it, its
//! row says where it went, and it goes once the agent moves.

use crate::index::Changes;
use crate::tui::fixtures::*;
use crate::tui::inbox::views::Views;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::msg::index::IndexMsg;
use crate::tui::update::update;
use crate::tui::view::tests::draw;

fn screen(m: &Model) -> String {
    format!("{}", draw(m).backend())
}

#[test]
fn a_colleague_taking_the_conversation_being_read_keeps_the_selection_on_it() {
    let mut m = indexed_model(30, 160, 48);
    m.views = Views::new(Vec::new(), Some("agent@example.test".into()));
    update(&mut m, Msg::Tick(now()));
    update(&mut m, key('j'));
    let reading = m.list.selected_uuid().expect("a row");
    let open = m.thread.contact.clone();
    let mut c = m.list.get(&reading).unwrap().to_contact();
    c.assigned_user = Some("alex@example.test".into());
    update(
        &mut m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![c],
            removed: Vec::new(),
        })),
    );
    update(&mut m, Msg::Tick(now()));
    assert_eq!(
        m.list.selected_uuid().as_deref(),
        Some(reading.as_str()),
        "the selection stays"
    );
    assert_eq!(m.thread.contact, open, "the thread stays");
    let text = screen(&m);
    assert!(text.contains("moved to Mine of"), "{text}");
    let said = m.views.moved.as_ref().map(|(_, l)| l.as_str());
    assert_eq!(said, Some("moved to Mine of alex@example.test"));
    // The agent moves: the row goes.
    update(&mut m, key('j'));
    update(&mut m, Msg::Tick(now()));
    assert!(m.list.row_of(&reading).is_none(), "gone from Mine once the agent moved");
    assert!(!screen(&m).contains("moved to Mine"));
}

#[test]
fn a_colleague_or_a_rule_giving_me_a_conversation_says_so() {
    let mut m = indexed_model(30, 160, 48);
    m.views = Views::new(Vec::new(), Some("agent@example.test".into()));
    update(&mut m, Msg::Tick(now()));
    // Contact 1 is unassigned (the fixtures assign every other one).
    let mut c = crate::tui::fixtures::contact(1);
    assert_eq!(c.assigned_user, None);
    c.assigned_user = Some("AGENT@example.test".into());
    let name = c.name.clone();
    update(
        &mut m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![c.clone()],
            removed: Vec::new(),
        })),
    );
    let said = m.status.current().map(|t| t.text.clone()).unwrap_or_default();
    // The name is the customer's text: made inert.
    assert_eq!(said, format!("assigned to you: {}", crate::text::sanitize_line(&name)));
    assert!(!said.contains('\u{1b}'));
    // Heard again (a later pass): not said twice.
    m.status = Default::default();
    update(
        &mut m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![c],
            removed: Vec::new(),
        })),
    );
    assert!(m.status.current().is_none_or(|t| !t.text.contains("assigned to you")));
}
