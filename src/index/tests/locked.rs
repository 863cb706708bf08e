//! A file another process holds: memory this time, with one line saying so.

use super::*;

#[test]
fn a_file_whose_write_lock_another_connection_holds_falls_back_to_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ix.sqlite");
    {
        let mut ix = Index::open(&path).unwrap().index;
        ix.upsert_contacts(&[contact("a", "Ada", "+1", 1)], at(0)).unwrap();
    }
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();

    let opened = Index::open(&path).unwrap();
    let warning = opened.warning.expect("a warning");
    assert!(
        warning.contains("busy") && warning.contains("memory") && warning.contains("ix.sqlite"),
        "{warning}"
    );
    assert!(!warning.contains('\n'), "one line: {warning}");
    let mut ix = opened.index;
    assert!(ix.path().is_none(), "in memory");
    assert_eq!(ix.count().unwrap(), 0);
    ix.upsert_contacts(&[contact("b", "Bob", "+2", 2)], at(0)).unwrap();
    assert_eq!(uuids(ix.search("bob", 5).unwrap()), ["b"], "and usable");

    // Released: the file opens as usual, untouched.
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    let again = Index::open(&path).unwrap();
    assert!(again.warning.is_none(), "{:?}", again.warning);
    assert_eq!(again.index.count().unwrap(), 1);
    assert!(aside_files(dir.path()).is_empty(), "a busy file is never moved aside");
}

#[test]
fn a_search_while_a_sync_waits_on_another_process_answers_busy_at_once_then_hits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ix.sqlite");
    let mut ix = Index::open(&path).unwrap().index;
    ix.upsert_contacts(&[contact("a", "Ada", "+1", 1)], at(0)).unwrap();
    let shared = SharedIndex::new(ix);
    // Another process (a `frontdesk sync`) holds the write lock...
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    // ...so the worker's write waits on it, holding the index.
    let (entered_tx, entered) = std::sync::mpsc::channel();
    let mut writer = shared.clone();
    let worker = std::thread::spawn(move || {
        writer.with(|ix| {
            let _ = entered_tx.send(());
            ix.upsert_contacts(&[contact("b", "Bob", "+2", 2)], at(0))
        })
    });
    entered.recv().unwrap();
    let busy = shared.try_with_for(std::time::Duration::from_millis(50), |ix| ix.search("ada", 5));
    assert!(busy.is_none(), "answered busy rather than waiting for the write");

    holder.execute_batch("ROLLBACK").unwrap();
    worker.join().unwrap().unwrap();
    let hits = shared
        .try_with_for(std::time::Duration::from_secs(5), |ix| ix.search("ada", 5))
        .expect("free again")
        .unwrap();
    assert_eq!(uuids(hits), ["a"]);
}
