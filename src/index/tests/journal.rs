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

/// Another process (the CLI beside the TUI) closes a conversation in the
/// same file: the same close arriving here afterwards stores nothing, so
/// only `note_outside_writes` can put it in the journal (issue 36: a TUI's
/// Open stayed 10 over while its own index file matched the service).
#[test]
fn a_contact_another_process_stored_in_the_file_is_reported_once_it_committed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("index.sqlite");
    let mut tui = Index::open(&path).unwrap().index;
    tui.upsert_contacts(&[contact("a", "Ada", "+1", 30), contact("b", "Bob", "+2", 20)], at(1))
        .unwrap();
    tui.upsert_contacts(&[contact("c", "Cy", "+3", 10)], at(100)).unwrap();
    tui.record_changes(true);
    assert!(!tui.note_outside_writes().unwrap(), "the first look only measures");
    assert!(!tui.note_outside_writes().unwrap(), "nobody else wrote");

    let mut cli = Index::open(&path).unwrap().index;
    let mut ada = cli.get("a").unwrap().unwrap();
    ada.closed_at = Some(at(40));
    cli.upsert_contacts(std::slice::from_ref(&ada), Utc::now()).unwrap();

    // The hub's close event, applied here, finds it closed already.
    tui.upsert_contacts(std::slice::from_ref(&ada), Utc::now()).unwrap();
    assert!(tui.take_changes().unwrap().is_empty(), "nothing new to this connection");
    assert!(tui.note_outside_writes().unwrap());
    let changes = tui.take_changes().unwrap();
    // What it stored, and what was stored moments before the newest
    // already reported (`c`: harmless); never what is older.
    let got = upserted(&changes);
    assert!(got.contains(&"a") && !got.contains(&"b"), "{got:?}");
    let a = changes.upserted.iter().find(|c| c.uuid == "a").unwrap();
    assert_eq!(a.closed_at, Some(at(40)), "as the other process stored it");
    assert!(!tui.note_outside_writes().unwrap(), "reported once");
    assert!(tui.take_changes().unwrap().is_empty());
}
