use super::*;
use crate::api::{ContactTeam, FieldValue};
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

#[test]
fn links_funnels_and_teams_are_kept_compactly_and_given_back_exactly() {
    let mut cs = contacts(0..6);
    let dash = "https://app.example.com";
    for (i, c) in cs.iter_mut().enumerate() {
        c.href = Some(format!("{dash}/contacts/{}", c.uuid));
        c.conversation_href = Some(format!("{dash}/chat/{:032x}", 0xabc0 + i));
        c.funnel_id = Some("727c6f04-d35e-4634-b963-0fe5228cd3a2".into());
        c.team = Some(ContactTeam {
            uuid: Some("a26bde22e25bd8837a5d9e364cf83c54".into()),
            name: Some("VIP Care 💎".into()),
        });
    }
    // Links of other shapes are kept as they came.
    cs[1].conversation_href = Some(format!("{dash}/chat/ABCDEF0123456789ABCDEF0123456789"));
    cs[2].href = Some("https://elsewhere.example/c/1".into());
    cs[3].href = None;
    cs[4].conversation_href = Some(format!("{dash}/chat/95fa92f5-737d-c591-f519-cc948f9da83d"));
    cs[5].team = Some(ContactTeam {
        uuid: None,
        name: Some("Nameless".into()),
    });
    let mut store = ContactStore::default();
    store.set(cs.clone());
    for c in &cs {
        assert_eq!(&store.by_id(&c.uuid).unwrap().to_contact(), c, "{}", c.uuid);
    }
    let (a, b) = (store.by_id(&cs[0].uuid).unwrap(), store.by_id(&cs[1].uuid).unwrap());
    assert!(
        a.common
            .as_ref()
            .zip(b.common.as_ref())
            .is_some_and(|(a, b)| Arc::ptr_eq(a, b)),
        "one copy of the dashboard, funnel and team they share"
    );
    assert!(
        a.chat.is_some() && b.chat.is_none(),
        "an id of the usual shape is kept as bytes"
    );
}
