//! The change journal: what `take_changes` reports after upserts and
//! removals.

use super::*;

fn upserted(changes: &Changes) -> Vec<&str> {
    changes.upserted.iter().map(|c| c.uuid.as_str()).collect()
}

#[test]
fn nothing_is_reported_unless_recording() {
    let mut ix = sample();
    ix.upsert_contacts(&[contact("d", "Dee", "+1", 40)], at(1)).unwrap();
    assert!(ix.take_changes().unwrap().is_empty());
}

#[test]
fn new_and_changed_contacts_are_reported_once_as_stored_and_unchanged_ones_not() {
    let mut ix = sample();
    ix.record_changes(true);
    let mut ada = ix.get("a").unwrap().unwrap();
    // Unchanged: stored again exactly as it is.
    ix.upsert_contacts(std::slice::from_ref(&ada), at(1)).unwrap();
    assert!(
        ix.take_changes().unwrap().is_empty(),
        "an unchanged upsert is not a change"
    );

    ada.note = Some("call after 5".into());
    ix.upsert_contacts(&[ada.clone(), contact("d", "Dee", "+1", 40)], at(2))
        .unwrap();
    ada.tags = vec!["vip".into()];
    ix.upsert_contacts(std::slice::from_ref(&ada), at(3)).unwrap();
    let changes = ix.take_changes().unwrap();
    assert_eq!(upserted(&changes), ["a", "d"], "each once, in the order first changed");
    assert_eq!(changes.upserted[0].tags, ["vip"], "as stored now");
    assert_eq!(changes.upserted[0].note.as_deref(), Some("call after 5"));
    assert!(changes.removed.is_empty());
    assert!(ix.take_changes().unwrap().is_empty(), "taking empties the journal");
}

#[test]
fn removals_are_reported_and_a_changed_then_removed_contact_only_as_removed() {
    let mut ix = sample();
    ix.record_changes(true);
    let mut bob = ix.get("b").unwrap().unwrap();
    bob.name = "Robert Marley".into();
    ix.upsert_contacts(&[bob], at(1)).unwrap();
    let mut cy = ix.get("c").unwrap().unwrap();
    cy.name = "Cy T.".into();
    ix.upsert_contacts(&[cy], at(1)).unwrap();
    // A walk that started later saw only "a" and "c".
    let seen: HashSet<String> = ["a".to_string(), "c".to_string()].into();
    assert_eq!(ix.remove_missing(at(50), &seen).unwrap(), 1);
    let changes = ix.take_changes().unwrap();
    assert_eq!(changes.removed, ["b"]);
    assert_eq!(upserted(&changes), ["c"], "b changed, then went: removed only");
}

#[test]
fn turning_recording_off_forgets_what_was_recorded() {
    let mut ix = sample();
    ix.record_changes(true);
    ix.upsert_contacts(&[contact("d", "Dee", "+1", 40)], at(1)).unwrap();
    ix.record_changes(false);
    assert!(ix.take_changes().unwrap().is_empty());
}
