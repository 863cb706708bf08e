use super::*;
use crate::tui::fixtures::contacts;

#[test]
fn a_row_gives_back_the_contact_it_was_made_from() {
    let mut cs = contacts(0..8);
    cs[1].team = Some(ContactTeam {
        uuid: Some("t1".into()),
        name: Some("Sales".into()),
    });
    cs[2]
        .custom_fields
        .insert("size".into(), FieldValue::List(vec!["a".into(), "b".into()]));
    cs[2].note = Some("call back".into());
    cs[2]
        .custom_fields
        .insert("raw".into(), FieldValue::Text("[\"not\", \"a list\"]".into()));
    cs[3].funnel_id = Some("f1".into());
    let mut store = ContactStore::default();
    store.set(cs.clone());
    for c in cs {
        let mut want = c.clone();
        want.custom_fields_metadata = None;
        assert_eq!(store.by_id(&c.uuid).unwrap().to_contact(), want);
    }
}

#[test]
fn repeated_values_are_shared_not_copied() {
    let mut store = ContactStore::default();
    store.set(contacts(0..30));
    let a = store.get(0).unwrap();
    let b = store.get(12).unwrap();
    assert_eq!((&*a.source, &*a.tags[0]), (&*b.source, &*b.tags[0]));
    assert!(Arc::ptr_eq(&a.source, &b.source), "one copy of each source");
    assert!(Arc::ptr_eq(&a.tags[0], &b.tags[0]), "one copy of each tag");
}

#[test]
fn the_index_follows_rows_inserted_in_front() {
    let mut store = ContactStore::default();
    store.set(contacts(0..5));
    let mut known = contacts(0..1);
    known[0].name = "Renamed".into();
    assert!(!store.push(known.remove(0)), "a known contact is replaced, not added");
    assert_eq!(store.len(), 5);
    store.insert(0, contacts(10..12));
    assert_eq!(store.len(), 7);
    for (i, r) in store.iter().enumerate() {
        assert_eq!(store.position(&r.uuid), Some(i));
    }
    assert_eq!(&*store.get(2).unwrap().name, "Renamed");
    assert_eq!(&*store.haystacks()[2], store.get(2).unwrap().haystack().as_ref());
}
