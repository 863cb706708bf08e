//! The last message of each cached conversation: who wrote it, its first
//! line, and which open conversations need fetching again.

use super::*;

fn msg(text: &str, status: &str, secs: i64) -> Message {
    Message {
        uuid: Some(format!("m{secs}")),
        text: text.into(),
        created_at: Some(at(secs)),
        status: MessageStatus::from(status),
        channel: "messaging_app".into(),
        from: String::new(),
        to: String::new(),
        sent_by: None,
        rich: Default::default(),
    }
}

#[test]
fn the_preview_is_the_newest_message_in_any_order() {
    let page = [
        msg("older", "received", 10),
        msg("newest", "sent", 30),
        msg("middle", "received", 20),
    ];
    let p = Preview::of(&page, Some(at(31)));
    assert_eq!(
        (p.who, p.text.as_str(), p.at),
        (Some(Who::Agent), "newest", Some(at(30)))
    );
    assert_eq!(p.activity, Some(at(31)));
    assert!(!p.waiting(), "an agent answered last");
}

#[test]
fn who_follows_the_kind_of_the_last_message() {
    for (status, who) in [
        ("received", Some(Who::Customer)),
        ("sent", Some(Who::Agent)),
        ("note", Some(Who::Note)),
        ("something-new", None),
    ] {
        let p = Preview::of(&[msg("x", "sent", 1), msg("y", status, 2)], None);
        assert_eq!(p.who, who, "{status}");
        assert_eq!(p.waiting(), status == "received", "{status}");
    }
    let none = Preview::of(&[], Some(at(1)));
    assert_eq!((none.who, none.text.as_str(), none.at), (None, "", None));
}

#[test]
fn the_text_is_the_first_non_blank_line_trimmed() {
    let p = Preview::of(
        &[msg("\n  \n   Where is my parcel?  \nIt was due Monday", "received", 1)],
        None,
    );
    assert_eq!(p.text, "Where is my parcel?");
    let long = "é".repeat(500);
    assert_eq!(
        Preview::of(&[msg(&long, "received", 1)], None).text.chars().count(),
        120,
        "wider than any list column, cut"
    );
}

#[test]
fn stored_pages_give_previews_by_uuid_and_all_at_once() {
    let mut ix = sample();
    ix.store_messages(
        "a",
        Some(at(30)),
        &[msg("hi", "received", 29), msg("hello back", "sent", 30)],
    )
    .unwrap();
    ix.store_messages("c", Some(at(10)), &[msg("internal: refund approved", "note", 9)])
        .unwrap();
    let some = ix.previews(&["a", "b", "nobody"]).unwrap();
    assert_eq!(some.len(), 1, "only contacts with a cached page: {some:?}");
    let a = &some["a"];
    assert_eq!(
        (a.who, a.text.as_str(), a.at, a.activity),
        (Some(Who::Agent), "hello back", Some(at(30)), Some(at(30)))
    );
    let mut all = ix.all_previews().unwrap();
    all.sort_by(|x, y| x.0.cmp(&y.0));
    let got: Vec<(&str, Option<Who>)> = all.iter().map(|(u, p)| (u.as_str(), p.who)).collect();
    assert_eq!(got, [("a", Some(Who::Agent)), ("c", Some(Who::Note))]);
    // An empty page is a preview with nobody.
    ix.store_messages("c", Some(at(10)), &[]).unwrap();
    assert_eq!(ix.previews(&["c"]).unwrap()["c"].who, None);
}

#[test]
fn stale_previews_are_open_contacts_moved_since_or_never_fetched_newest_first() {
    let mut ix = sample();
    // a (open, 30), b (closed, 20), c (open, 10); d (open, 40) is fresh.
    ix.upsert_contacts(&[contact("d", "Dee", "+1", 40), contact("e", "Eve", "+2", 5)], at(0))
        .unwrap();
    ix.store_messages("d", Some(at(40)), &[msg("ok", "sent", 40)]).unwrap();
    ix.store_messages("a", Some(at(25)), &[msg("old", "received", 25)])
        .unwrap();
    let stale: Vec<String> = ix.stale_previews(10).unwrap().into_iter().map(|w| w.0).collect();
    assert_eq!(stale, ["a", "c", "e"], "not d (fresh), not b (closed)");
    let first = ix.stale_previews(1).unwrap();
    assert_eq!(first, [("a".to_string(), Some(at(30)))], "with the activity now");
    // Fetched at its current activity: no longer stale.
    ix.store_messages("a", Some(at(30)), &[msg("new", "received", 30)])
        .unwrap();
    assert_eq!(ix.stale_previews(1).unwrap()[0].0, "c");
}

#[test]
fn stale_previews_after_a_cursor_go_on_from_it_in_the_same_order() {
    let mut ix = sample();
    // Open: a (30), c (10); f and g share an activity (15), so the uuid
    // breaks the tie; d (40) is fresh; b is closed.
    ix.upsert_contacts(
        &[
            contact("d", "Dee", "+1", 40),
            contact("f", "Fay", "+3", 15),
            contact("g", "Gus", "+4", 15),
        ],
        at(0),
    )
    .unwrap();
    ix.store_messages("d", Some(at(40)), &[msg("ok", "sent", 40)]).unwrap();
    let all = ix.stale_previews(10).unwrap();
    let order: Vec<&str> = all.iter().map(|w| w.0.as_str()).collect();
    assert_eq!(order, ["a", "g", "f", "c"]);
    // Walked two at a time from each batch's last, the same four, once each.
    let mut walked = Vec::new();
    let mut cursor: Option<crate::index::Wanted> = None;
    loop {
        let batch = ix.stale_previews_after(cursor.as_ref(), 2).unwrap();
        let Some(last) = batch.last().cloned() else { break };
        walked.extend(batch.into_iter().map(|w| w.0));
        cursor = Some(last);
    }
    assert_eq!(walked, order);
    // A contact with no activity is after every cursor, found from the top.
    assert!(
        ix.stale_previews_after(Some(&("z".into(), None)), 5)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_version_1_file_migrated_marks_its_cached_pages_stale() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.sqlite");
    let ada = contact("a", "Ada", "+1", 30);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(crate::index::schema::MIGRATIONS[0]).unwrap();
        conn.execute_batch(&format!(
            "PRAGMA application_id = {}; PRAGMA user_version = 1;",
            crate::index::schema::APPLICATION_ID
        ))
        .unwrap();
        conn.execute(
            "INSERT INTO contacts (uuid, name, phone, source, tags, custom_fields, activity, json, seen_at)
             VALUES ('a', 'Ada', '+1', 'messaging_app', '[]', '{}', ?1, ?2, ?1)",
            rusqlite::params![crate::index::store::stamp(at(30)), serde_json::to_string(&ada).unwrap()],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO messages (contact_uuid, activity, fetched_at, json) VALUES ('a', ?1, ?1, ?2)",
            rusqlite::params![
                crate::index::store::stamp(at(30)),
                serde_json::to_string(&[msg("hello", "received", 30)]).unwrap()
            ],
        )
        .unwrap();
    }
    let opened = Index::open(&path).unwrap();
    assert!(opened.warning.is_none(), "{:?}", opened.warning);
    let ix = opened.index;
    assert_eq!(
        ix.conn
            .query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))
            .unwrap(),
        crate::index::schema::VERSION
    );
    assert_eq!(
        ix.messages("a").unwrap().unwrap().1[0].text,
        "hello",
        "the page is kept"
    );
    assert_eq!(
        ix.stale_previews(10).unwrap(),
        [("a".to_string(), Some(at(30)))],
        "but fetched again for its preview"
    );
}
