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

/// Two conversations active in the same instant may be listed either way:
/// the one above keeps its activity, so its last message known at that
/// instant stays current (no microsecond added to a tie).
#[test]
fn a_tie_in_the_lists_order_moves_no_activity() {
    let mut ix = Index::in_memory().unwrap();
    let mut a = contact("a", "Ann", "+1", 0);
    let mut b = contact("b", "Bo", "+2", 0);
    a.activity_at = Some(at(50));
    b.activity_at = Some(at(50));
    ix.upsert_contacts(&[a.clone(), b.clone()], at(60)).unwrap();
    let listed = ix.known_activity(&[a, b.clone()], at(60)).unwrap();
    assert_eq!(listed[0].last_activity(), Some(at(50)), "a tie, not newer");
    // Strictly older above a newer one is raised just above it.
    let mut c = contact("c", "Cy", "+3", 0);
    c.activity_at = Some(at(40));
    let listed = ix.known_activity(&[c, b], at(60)).unwrap();
    assert!(listed[0].last_activity() > Some(at(50)));
}

/// A walk's order tells of the activity known when it was listed: a reply
/// noted while the walk went on (a colleague's, by webhook) lifts none of
/// the conversations the walk had listed above that one, and neither does
/// one noted between a page's request and its storing.
#[test]
fn activity_learned_after_the_listing_lifts_nobody_above() {
    let mut ix = Index::in_memory().unwrap();
    let mut old = contact("old", "Ann", "+1", 0);
    old.activity_at = Some(at(10));
    let mut moved = contact("moved", "Bo", "+2", 0);
    moved.activity_at = Some(at(20));
    ix.upsert_contacts(&[old.clone(), moved.clone()], at(30)).unwrap();
    // The walk begins at 40 s and lists `old` above `moved`; `moved`'s
    // customer is answered at 50 s, before the walk ends.
    ix.note_activity("moved", at(50)).unwrap();
    ix.settle_order(&["old".into(), "moved".into()], at(40)).unwrap();
    // What `moved` had at 40 s is not held any more: nothing is inferred
    // of `old` (the next walk will tell), rather than a reply it never had.
    let old_now = ix.get("old").unwrap().unwrap().last_activity();
    assert_eq!(old_now, Some(at(10)), "not lifted to the reply's 50 s");
    // A page asked for at 40 s, stored after the reply noted at 50 s.
    let page = ix.known_activity(&[old, moved], at(40)).unwrap();
    assert!(page[0].last_activity() < Some(at(50)), "not lifted to the reply's 50 s");
}
