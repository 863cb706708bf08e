use std::collections::{BTreeMap, HashSet};

use chrono::{DateTime, TimeZone, Utc};

use super::*;
use crate::api::{Contact, FieldValue, Message, MessageStatus};

fn at(secs: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_700_000_000 + secs, 0).single().unwrap_or_default()
}

fn contact(uuid: &str, name: &str, phone: &str, activity: i64) -> Contact {
    Contact {
        uuid: uuid.into(),
        name: name.into(),
        phone_number: phone.into(),
        source: "messaging_app".into(),
        created_at: Some(at(activity - 100)),
        activity_at: Some(at(activity)),
        ..Default::default()
    }
}

fn message(text: &str) -> Message {
    Message {
        uuid: Some("m1".into()),
        text: text.into(),
        created_at: Some(at(5)),
        status: MessageStatus::Other(String::new()),
        channel: String::new(),
        from: String::new(),
        to: String::new(),
        sent_by: None,
        rich: Default::default(),
    }
}

fn sample() -> Index {
    let mut ix = Index::in_memory().unwrap();
    let mut ada = contact("a", "Ada Lovelace", "+44 7700 900123", 30);
    ada.tags = vec!["vip".into(), "billing".into()];
    ada.note = Some("prefers email".into());
    let mut bob = contact("b", "Bob Marley", "+1 555 0100", 20);
    bob.custom_fields = BTreeMap::from([("City".into(), FieldValue::Text("Kingston".into()))]);
    bob.closed_at = Some(at(25));
    bob.assigned_user = Some("agent@example.com".into());
    let cy = contact("c", "Cy Twombly", "+39 06 1234", 10);
    ix.upsert_contacts(&[ada, bob, cy], at(0)).unwrap();
    ix
}

fn uuids(hits: Vec<(String, f64)>) -> Vec<String> {
    hits.into_iter().map(|(u, _)| u).collect()
}

#[test]
fn fts5_is_compiled_in() {
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    conn.execute_batch("CREATE VIRTUAL TABLE t USING fts5(x)").unwrap();
}

#[test]
fn contacts_round_trip_every_field_and_list_in_activity_order() {
    let ix = sample();
    assert_eq!(ix.count().unwrap(), 3);
    let bob = ix.get("b").unwrap().unwrap();
    assert_eq!(bob.closed_at, Some(at(25)));
    assert_eq!(bob.assigned_user.as_deref(), Some("agent@example.com"));
    assert_eq!(bob.custom_fields["City"], FieldValue::Text("Kingston".into()));
    let order: Vec<String> = ix
        .list(Order::Activity, 10, 0)
        .unwrap()
        .into_iter()
        .map(|c| c.uuid)
        .collect();
    assert_eq!(order, ["a", "b", "c"]);
    let page: Vec<String> = ix
        .list(Order::Name, 1, 1)
        .unwrap()
        .into_iter()
        .map(|c| c.uuid)
        .collect();
    assert_eq!(page, ["b"]);
    assert!(ix.get("nobody").unwrap().is_none());
}

#[test]
fn upsert_counts_only_changes_and_replaces_the_search_row() {
    let mut ix = sample();
    let mut ada = ix.get("a").unwrap().unwrap();
    assert_eq!(ix.upsert_contacts(std::slice::from_ref(&ada), at(1)).unwrap(), 0);
    ada.name = "Augusta King".into();
    assert_eq!(ix.upsert_contacts(&[ada], at(1)).unwrap(), 1);
    assert!(ix.search("lovelace", 10).unwrap().is_empty());
    assert_eq!(uuids(ix.search("augusta", 10).unwrap()), ["a"]);
}

#[test]
fn remove_missing_keeps_what_the_walk_saw_and_what_came_in_after_it_started() {
    let mut ix = sample();
    // "d" arrives through an incremental pass after the walk started.
    ix.upsert_contacts(&[contact("d", "Dee", "+1", 40)], at(60)).unwrap();
    let seen: HashSet<String> = ["a".to_string(), "c".to_string()].into();
    assert_eq!(ix.remove_missing(at(50), &seen).unwrap(), 1);
    assert!(ix.get("b").unwrap().is_none());
    assert!(ix.get("d").unwrap().is_some());
    assert!(ix.search("marley", 10).unwrap().is_empty());
}

#[test]
fn search_finds_every_field_by_prefix() {
    let mut ix = sample();
    ix.store_messages("c", Some(at(10)), &[message("the parcel arrived broken")])
        .unwrap();
    assert_eq!(uuids(ix.search("ada", 10).unwrap()), ["a"]);
    assert_eq!(uuids(ix.search("Lovel", 10).unwrap()), ["a"]);
    assert_eq!(uuids(ix.search("vip", 10).unwrap()), ["a"]);
    assert_eq!(uuids(ix.search("prefers em", 10).unwrap()), ["a"]);
    assert_eq!(uuids(ix.search("kingst", 10).unwrap()), ["b"]);
    assert_eq!(uuids(ix.search("parcel", 10).unwrap()), ["c"]);
    assert_eq!(uuids(ix.search("LOVÉLACE", 10).unwrap()), ["a"]);
}

#[test]
fn phone_numbers_match_in_pieces_and_as_digits() {
    let ix = sample();
    assert_eq!(uuids(ix.search("+44 7700", 10).unwrap()), ["a"]);
    assert_eq!(uuids(ix.search("447700", 10).unwrap()), ["a"]);
    assert_eq!(uuids(ix.search("+447700900123", 10).unwrap()), ["a"]);
    assert_eq!(uuids(ix.search("7700 900", 10).unwrap()), ["a"]);
}

#[test]
fn a_name_hit_ranks_above_a_message_hit() {
    let mut ix = sample();
    ix.store_messages("b", Some(at(20)), &[message("ask Cy about it")])
        .unwrap();
    assert_eq!(uuids(ix.search("cy", 10).unwrap()), ["c", "b"]);
}

#[test]
fn fts_syntax_typed_by_the_user_never_errors() {
    let ix = sample();
    for text in [
        "\"", "*", "a*b", "NEAR(", "ada OR", "AND", "NOT bob", "(", "col:ada", "^ada", "'", "-", "+", "\u{0}", "name:",
        "{a b}", "ada\"bob",
    ] {
        assert!(ix.search(text, 10).is_ok(), "{text:?}");
    }
    assert!(ix.search("   ", 10).unwrap().is_empty());
    assert_eq!(uuids(ix.search("lovelace: (ada*", 10).unwrap()), ["a"]);
}

#[test]
fn cached_messages_round_trip_with_their_activity() {
    let mut ix = sample();
    assert!(ix.messages("a").unwrap().is_none());
    ix.store_messages("a", Some(at(30)), &[message("hello")]).unwrap();
    let (activity, msgs) = ix.messages("a").unwrap().unwrap();
    assert_eq!(activity, Some(at(30)));
    assert_eq!(msgs[0].text, "hello");
}

#[test]
fn sync_state_records_progress_and_completion() {
    let mut ix = sample();
    assert_eq!(ix.sync_state().unwrap(), SyncState::default());
    ix.set_walk_progress(at(1), 40, Some(100)).unwrap();
    let s = ix.sync_state().unwrap();
    assert_eq!(
        (s.walk_started_at, s.walk_done, s.walk_expected),
        (Some(at(1)), 40, Some(100))
    );
    ix.finish_walk(at(9)).unwrap();
    let s = ix.sync_state().unwrap();
    assert_eq!((s.full_walk_finished_at, s.walk_started_at), (Some(at(9)), None));
}

#[cfg(unix)]
fn mode(p: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn a_file_index_persists_with_private_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cache/frontdesk/ix.sqlite");
    {
        let opened = Index::open(&path).unwrap();
        assert!(opened.warning.is_none());
        let mut ix = opened.index;
        ix.upsert_contacts(&[contact("a", "Ada", "+1", 1)], at(0)).unwrap();
    }
    let again = Index::open(&path).unwrap();
    assert!(again.warning.is_none());
    assert_eq!(again.index.count().unwrap(), 1);
    #[cfg(unix)]
    {
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
    }
}

fn aside_files(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".corrupt-"))
        .collect()
}

#[test]
fn a_corrupt_file_is_moved_aside_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ix.sqlite");
    std::fs::write(&path, vec![0x5a; 8192]).unwrap();
    let opened = Index::open(&path).unwrap();
    let warning = opened.warning.unwrap();
    assert!(warning.contains("corrupt") && !warning.contains('\n'), "{warning}");
    assert_eq!(opened.index.count().unwrap(), 0);
    let aside = aside_files(dir.path());
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(dir.path().join(&aside[0])).unwrap(), vec![0x5a; 8192]);
}

#[test]
fn a_newer_or_foreign_file_is_moved_aside_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let newer = dir.path().join("newer.sqlite");
    {
        let mut ix = Index::open(&newer).unwrap().index;
        ix.upsert_contacts(&[contact("a", "Ada", "+1", 1)], at(0)).unwrap();
        ix.conn.pragma_update(None, "user_version", 99).unwrap();
    }
    let opened = Index::open(&newer).unwrap();
    assert!(opened.warning.unwrap().contains("newer frontdesk"));
    assert_eq!(opened.index.count().unwrap(), 0);

    let foreign = dir.path().join("foreign.sqlite");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE t(x)")
        .unwrap();
    let opened = Index::open(&foreign).unwrap();
    assert!(opened.warning.unwrap().contains("not a frontdesk index"));
    assert_eq!(aside_files(dir.path()).len(), 2);
}

#[test]
fn the_file_name_depends_on_profile_and_url_only() {
    let a = file_name("work", "https://api.example.com");
    assert_eq!(a, file_name("work", "https://api.example.com/"));
    assert_ne!(a, file_name("home", "https://api.example.com"));
    assert_ne!(a, file_name("work", "https://other.example.com"));
    assert!(a.starts_with("index-") && a.ends_with(".sqlite"));
}

#[test]
fn threads_stored_together_are_searchable() {
    let mut ix = sample();
    let threads = vec![
        ("a".to_string(), Some(at(30)), vec![message("invoice overdue")]),
        ("b".to_string(), Some(at(20)), vec![message("refund please")]),
    ];
    ix.store_threads(&threads).unwrap();
    assert_eq!(uuids(ix.search("invoice", 10).unwrap()), ["a"]);
    assert_eq!(uuids(ix.search("refund", 10).unwrap()), ["b"]);
    assert_eq!(ix.messages("b").unwrap().unwrap().1[0].text, "refund please");
}

#[test]
fn contacts_and_threads_stored_together_are_as_stored_apart() {
    let mut apart = Index::in_memory().unwrap();
    let mut together = Index::in_memory().unwrap();
    together.record_changes(true);
    let mut ada = contact("a", "Ada Lovelace", "+44 7700 900123", 30);
    ada.tags = vec!["vip".into()];
    let contacts = vec![ada, contact("b", "Bob Stone", "+1 555 0100", 20)];
    let threads = vec![
        ("a".to_string(), Some(at(30)), vec![message("invoice overdue")]),
        ("z".to_string(), Some(at(10)), vec![message("no such contact")]),
    ];
    assert_eq!(apart.upsert_contacts(&contacts, at(40)).unwrap(), 2);
    apart.store_threads(&threads).unwrap();
    assert_eq!(together.upsert_with_threads(&contacts, &threads, at(40)).unwrap(), 2);
    for ix in [&apart, &together] {
        assert_eq!(uuids(ix.search("invoice", 10).unwrap()), ["a"]);
        assert_eq!(uuids(ix.search("vip", 10).unwrap()), ["a"]);
        assert_eq!(uuids(ix.search("bob", 10).unwrap()), ["b"]);
        assert_eq!(uuids(ix.search("+1 555", 10).unwrap()), ["b"]);
        assert!(ix.is_consistent().unwrap());
    }
    assert_eq!(
        apart.all_previews().unwrap().len(),
        together.all_previews().unwrap().len()
    );
    let changes = together.take_changes().unwrap();
    assert_eq!(changes.upserted.len(), 2);
    // Again, unchanged: nothing new, the page still searchable.
    assert_eq!(together.upsert_with_threads(&contacts, &threads, at(50)).unwrap(), 0);
    assert_eq!(uuids(together.search("invoice", 10).unwrap()), ["a"]);
    assert!(together.take_changes().unwrap().is_empty());
}

#[test]
fn a_429_halves_the_pace_down_to_an_eighth_and_other_failures_leave_it() {
    let budget = sync::Budget::new(2000.0);
    budget.back_off(Some(std::time::Duration::ZERO));
    budget.back_off(Some(std::time::Duration::ZERO));
    assert_eq!(budget.rate(), 500.0, "two 429s: a quarter of the pace");
    for _ in 0..5 {
        budget.back_off(Some(std::time::Duration::ZERO));
    }
    assert_eq!(budget.rate(), 250.0, "never below an eighth of the asked pace");
    let other = sync::Budget::new(2000.0);
    other.pause(std::time::Duration::ZERO);
    assert_eq!(other.rate(), 2000.0, "a 5xx pauses without slowing the pace");
    let slow = sync::Budget::new(0.1);
    slow.back_off(Some(std::time::Duration::ZERO));
    assert_eq!(slow.rate(), 0.1, "a 429 never makes a slow pace faster");
    let mid = sync::Budget::new(2.0);
    slow.back_off(Some(std::time::Duration::ZERO));
    mid.back_off(Some(std::time::Duration::ZERO));
    mid.back_off(Some(std::time::Duration::ZERO));
    assert_eq!(mid.rate(), 0.5, "nor slower than one request every two seconds");
}

#[test]
fn words_of_removed_contacts_leave_the_typo_list() {
    let mut ix = sample();
    let started = at(1000);
    // A walk that saw only Ada and Bob: Cy Twombly goes, and so do the
    // words only he had.
    let seen: HashSet<String> = ["a".to_string(), "b".to_string()].into();
    assert_eq!(ix.remove_missing(started, &seen).unwrap(), 1);
    let terms: Vec<String> = ix
        .conn
        .prepare("SELECT term FROM search_terms")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!terms.iter().any(|t| t == "twombly"), "{terms:?}");
    assert!(terms.iter().any(|t| t == "lovelace"), "{terms:?}");
}

mod budget;
mod damaged;
mod forget;
mod journal;
mod locked;
mod newest;
mod previews;
mod report;
mod typos;
