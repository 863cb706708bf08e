//! The snapshot into the local index.

use std::time::Duration;

use frontdesk::hubclient::HubClient;
use frontdesk::index::Index;
use serde_json::json;

use super::fake::*;

#[tokio::test]
async fn a_snapshot_fills_the_index_and_a_later_one_removes_what_the_hub_dropped() {
    let contacts = vec![
        contact("c3", "Chidi", 3),
        contact("c2", "Bea Ortiz", 2),
        contact("c1", "Ana", 1),
    ];
    let (url, shared) = fake_hub(fake_with(contacts)).await;
    let hub = HubClient::new(&url, TOKEN, Duration::from_secs(5)).unwrap();
    let mut index = Index::in_memory().unwrap();
    let mut progress = Vec::new();
    let r = hub
        .snapshot_into(&mut index, &mut |done, of| progress.push((done, of)))
        .await
        .unwrap();
    assert_eq!((r.header.cursor, r.seen, r.changed, r.removed), (41, 3, 3, 0));
    assert_eq!(progress.last(), Some(&(3, 3)));
    assert_eq!(index.count().unwrap(), 3);
    assert_eq!(index.get("c2").unwrap().unwrap().name, "Bea Ortiz");
    assert!(
        index.sync_state().unwrap().full_walk_finished_at.is_some(),
        "views are complete"
    );
    // Into an empty index the views come first: search rows are written
    // afterwards, by whoever loaded it.
    assert!(r.search_pending && index.search_pending().unwrap());
    assert!(index.search("Ortiz", 5).unwrap().is_empty());
    assert_eq!(index.build_all_search().unwrap(), 3);
    assert_eq!(index.search("Ortiz", 5).unwrap()[0].0, "c2");
    assert!(index.is_consistent().unwrap());

    shared.lock().unwrap().contacts.remove(1);
    let r = hub.snapshot_into(&mut index, &mut |_, _| {}).await.unwrap();
    assert_eq!((r.seen, r.changed, r.removed, r.started_over), (2, 0, 1, false));
    assert!(!r.search_pending, "an index holding contacts writes rows as it goes");
    assert!(index.is_consistent().unwrap());
    assert!(index.get("c2").unwrap().is_none());

    // Another account behind the hub: the index starts over.
    shared.lock().unwrap().account = "acct-hash-2".into();
    let r = hub.snapshot_into(&mut index, &mut |_, _| {}).await.unwrap();
    assert!(r.started_over);
    assert!(r.search_pending, "started over: empty again");
    assert_eq!(index.count().unwrap(), 2);
}

#[tokio::test]
async fn a_snapshot_cut_short_or_with_an_unreadable_line_removes_nothing() {
    let mut fake = fake_with(vec![contact("c1", "Ana", 1)]);
    fake.cursor = 7;
    let (url, shared) = fake_hub(fake).await;
    let hub = HubClient::new(&url, TOKEN, Duration::from_secs(5)).unwrap();
    let mut index = Index::in_memory().unwrap();
    hub.snapshot_into(&mut index, &mut |_, _| {}).await.unwrap();
    // The header promises two contacts but one line is garbage: nothing
    // is removed on its account.
    shared.lock().unwrap().contacts = vec![json!("not a contact")];
    let r = hub.snapshot_into(&mut index, &mut |_, _| {}).await.unwrap();
    assert_eq!((r.seen, r.skipped, r.removed), (0, 1, 0));
    assert_eq!(index.count().unwrap(), 1);
    // Fewer lines than the header promised: an error, nothing removed.
    {
        let mut f = shared.lock().unwrap();
        f.contacts = Vec::new();
        f.missing = 1;
    }
    let e = hub.snapshot_into(&mut index, &mut |_, _| {}).await.unwrap_err();
    assert!(e.to_string().contains("ended after 0 of 1"), "{e}");
    assert_eq!(index.count().unwrap(), 1);
}
