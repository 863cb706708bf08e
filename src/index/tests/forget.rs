//! Removing contacts: nothing of them stays readable in the file, and a
//! walk removes only what it could not have missed.

use super::*;

/// Every file of the index (the file, -wal, -shm), lowercased.
fn bytes_on_disk(path: &std::path::Path) -> Vec<u8> {
    let mut all = Vec::new();
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        if let Ok(b) = std::fs::read(std::path::PathBuf::from(p)) {
            all.extend(b.to_ascii_lowercase());
        }
    }
    all
}

fn holds(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// A file index of 300 contacts and Quentin Quorblax, who wrote about his
/// glorbnax.
fn with_quorblax(path: &std::path::Path) -> Index {
    let mut ix = Index::open(path).unwrap().index;
    let others: Vec<Contact> = (0..300)
        .map(|i| contact(&format!("o{i}"), &format!("Other Person {i}"), "+1 555", i))
        .collect();
    ix.upsert_contacts(&others, at(0)).unwrap();
    let mut q = contact("q", "Quentin Quorblax", "+44 7700 900999", 500);
    q.note = Some("keeps a zwimbleton".into());
    ix.upsert_contacts(&[q], at(0)).unwrap();
    ix.store_messages("q", Some(at(500)), &[message("my glorbnax arrived broken")])
        .unwrap();
    assert_eq!(uuids(ix.search("quorblax", 5).unwrap()), ["q"]);
    ix
}

#[test]
fn a_contact_removed_by_a_walk_leaves_no_text_in_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ix.sqlite");
    let mut ix = with_quorblax(&path);
    let seen: HashSet<String> = (0..300).map(|i| format!("o{i}")).collect();
    assert_eq!(ix.remove_missing(at(1000), &seen).unwrap(), 1);
    assert!(ix.search("glorbnax", 5).unwrap().is_empty());
    ix.conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
    let hay = bytes_on_disk(&path);
    for word in ["quorblax", "glorbnax", "zwimbleton", "900999"] {
        assert!(!holds(&hay, word), "{word:?} is still readable in the index files");
    }
    drop(ix);
    let hay = bytes_on_disk(&path);
    for word in ["quorblax", "glorbnax", "zwimbleton", "900999"] {
        assert!(!holds(&hay, word), "{word:?} is still readable after closing");
    }
}

#[test]
fn a_contact_deleted_event_removes_the_contact_its_messages_and_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ix.sqlite");
    let mut ix = with_quorblax(&path);
    ix.record_changes(true);
    assert!(ix.apply_contact_deleted("q").unwrap());
    assert!(!ix.apply_contact_deleted("q").unwrap(), "already gone");
    assert!(ix.get("q").unwrap().is_none());
    assert!(ix.messages("q").unwrap().is_none());
    assert!(ix.search("quorblax", 5).unwrap().is_empty());
    assert!(ix.search("glorbnax", 5).unwrap().is_empty());
    assert!(ix.search("quorblaks", 5).unwrap().is_empty(), "nor a typo of it");
    assert_eq!(ix.count().unwrap(), 300);
    assert_eq!(ix.take_changes().unwrap().removed, ["q"]);
    assert!(ix.is_consistent().unwrap());
    drop(ix);
    let hay = bytes_on_disk(&path);
    for word in ["quorblax", "glorbnax", "zwimbleton"] {
        assert!(!holds(&hay, word), "{word:?} is still readable in the index files");
    }
}

#[test]
fn a_walk_keeps_a_contact_it_did_not_see_whose_activity_is_newer_than_its_start() {
    let mut ix = sample();
    // "n" moved after the walk started (its activity says so): the walk
    // may have passed its place before it moved, the top-up pass sees it.
    ix.upsert_contacts(&[contact("n", "Nell Moved", "+1", 2000)], at(0))
        .unwrap();
    let seen: HashSet<String> = ["a".to_string(), "b".to_string()].into();
    assert_eq!(ix.remove_missing(at(1000), &seen).unwrap(), 1, "only Cy");
    assert!(ix.get("n").unwrap().is_some());
    assert!(ix.get("c").unwrap().is_none());
}

#[test]
fn starting_over_forgets_every_contact_and_says_which() {
    let mut ix = sample();
    ix.finish_walk(at(5)).unwrap();
    ix.record_changes(true);
    ix.start_over("acct-2").unwrap();
    assert_eq!(ix.count().unwrap(), 0);
    assert!(ix.search("lovelace", 5).unwrap().is_empty());
    assert!(ix.search("lovelaec", 5).unwrap().is_empty(), "no typo words kept");
    assert_eq!(ix.sync_state().unwrap(), SyncState::default(), "a walk is due");
    assert_eq!(ix.account().unwrap().as_deref(), Some("acct-2"));
    let mut removed = ix.take_changes().unwrap().removed;
    removed.sort();
    assert_eq!(removed, ["a", "b", "c"]);
}
