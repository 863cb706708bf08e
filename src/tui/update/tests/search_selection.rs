//! The selection (and a range of marks) is a contact, never a row number,
//! in search results: a refresh that reorders the rows under a search
//! leaves both on the contacts the agent chose.

use super::*;
use crate::index::Changes;
use crate::tui::msg::index::IndexMsg;

fn jobs(fx: &[Effect]) -> Vec<crate::tui::inbox::contact_list::SearchJob> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Inbox(InboxEffect::SearchContacts(j)) => Some(j.clone()),
            _ => None,
        })
        .collect()
}

/// An indexed model searching "contact" (contacts 8 to 19 match by name),
/// its result in.
fn searching() -> Model {
    let mut m = indexed_model(20, 160, 48);
    update(&mut m, key('/'));
    let job = jobs(&type_text(&mut m, "contact")).pop().unwrap();
    update(&mut m, Msg::Inbox(InboxMsg::ContactsSearched(job.run().unwrap())));
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.list.visible_len(), 12);
    m
}

/// Contact `i` gets a new message: the sync moves it to the top of the
/// store. The search jobs it hands out.
fn new_message(m: &mut Model, i: usize) -> Vec<crate::tui::inbox::contact_list::SearchJob> {
    let mut c = contact(i);
    c.activity_at = Some(now());
    jobs(&update(
        m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![c],
            removed: vec![],
        })),
    ))
}

fn visible(m: &Model) -> Vec<String> {
    (0..m.list.visible_len())
        .map(|r| m.list.row(r).unwrap().uuid.to_string())
        .collect()
}

#[test]
fn a_reorder_under_a_search_keeps_the_selection_on_its_contact() {
    let mut m = searching();
    update(&mut m, key('j'));
    update(&mut m, key('j'));
    let chosen = m.list.selected_uuid().unwrap();
    let shown = visible(&m);
    // The customer the agent is looking at writes again.
    let again = new_message(&mut m, 10);
    assert_eq!(chosen, contact(10).uuid);
    assert_eq!(
        m.list.selected_uuid().as_deref(),
        Some(chosen.as_str()),
        "before the new answer"
    );
    assert_eq!(visible(&m), shown, "the same results until the new answer");
    for job in again {
        update(&mut m, Msg::Inbox(InboxMsg::ContactsSearched(job.run().unwrap())));
    }
    assert_eq!(m.list.selected_uuid().as_deref(), Some(chosen.as_str()), "after it");
    let fx = update(&mut m, key('c'));
    let acted: Vec<&String> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Apply { uuid, .. } => Some(uuid),
            _ => None,
        })
        .collect();
    assert_eq!(acted, vec![&chosen], "the close goes to the contact selected");
}

#[test]
fn a_reorder_under_a_search_keeps_a_range_of_marks_on_its_contacts() {
    let mut m = searching();
    update(&mut m, key('j'));
    update(&mut m, key('V'));
    update(&mut m, key('j'));
    update(&mut m, key('j'));
    let mut marked: Vec<String> = m.marks.iter().cloned().collect();
    marked.sort();
    assert_eq!(marked.len(), 3);
    assert!(marked.contains(&contact(11).uuid));
    new_message(&mut m, 11); // the end of the range writes again
    let mut now_marked: Vec<String> = m.marks.iter().cloned().collect();
    now_marked.sort();
    assert_eq!(now_marked, marked);
}
