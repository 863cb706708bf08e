//! Issue 21: the index keeps the newest state it was given of each
//! contact; a slow answer that arrives after a write never puts the older
//! state back.

use super::*;

#[test]
fn an_older_answer_arriving_late_never_replaces_a_newer_state() {
    let mut ix = Index::in_memory().unwrap();
    let listed = contact("a", "Ada", "+1", 10);
    ix.upsert_states(std::slice::from_ref(&listed), at(0), at(0)).unwrap();
    // A write's answer at 20 s: closed.
    let closed = Contact {
        closed_at: Some(at(20)),
        ..listed.clone()
    };
    assert_eq!(ix.upsert_contacts(std::slice::from_ref(&closed), at(20)).unwrap(), 1);
    // A list page asked for at 15 s (before the write answered) arrives now.
    assert_eq!(
        ix.upsert_states(std::slice::from_ref(&listed), at(25), at(15)).unwrap(),
        0
    );
    assert_eq!(ix.get("a").unwrap(), Some(closed.clone()), "the newer state stays");
    // A page asked for after the write shows the newer state of the service.
    let renamed = Contact {
        name: "Ada King".into(),
        ..closed
    };
    assert_eq!(
        ix.upsert_states(std::slice::from_ref(&renamed), at(31), at(30))
            .unwrap(),
        1
    );
    assert_eq!(ix.get("a").unwrap(), Some(renamed));
}
