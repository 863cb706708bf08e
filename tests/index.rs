//! The local index against the real embedded server: full and incremental
//! sync, deletions, faults and rate limits, two writers on one file, and
//! the last-message previews.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use frontdesk::api::{
    Client, Contact, ContactFilter, ContactId, ContactPatch, Message, MessageStatus, NewContact, PageRequest,
    RetryPolicy, SendMessage,
};
use frontdesk::index::sync::{Budget, STARTED_OVER, check_account, fetch_previews, full_sync, incremental_sync};
use frontdesk::index::{Index, Order, Who};
use frontdesk::server::{RunningServer, ServerConfig};

mod common;

fn retry(max_attempts: u32) -> RetryPolicy {
    RetryPolicy {
        max_attempts,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(200),
    }
}

fn client(srv: &RunningServer, attempts: u32) -> Client {
    Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10))
        .unwrap()
        .with_retry(retry(attempts))
}

/// The server's contacts by a fresh walk, by uuid.
async fn fresh_walk(client: &Client) -> BTreeMap<String, Contact> {
    let all = client.all_contacts(ContactFilter::default()).await.unwrap();
    let n = all.len();
    let map: BTreeMap<String, Contact> = all.into_iter().map(|c| (c.uuid.clone(), c)).collect();
    assert_eq!(map.len(), n, "the walk yields each contact once");
    map
}

/// The index's contacts as the service gave them: without the activity
/// frontdesk learned itself (the service sends none).
fn indexed(index: &Index) -> BTreeMap<String, Contact> {
    let all = index.list(Order::Activity, usize::MAX >> 1, 0).unwrap();
    all.into_iter()
        .map(|c| (c.uuid.clone(), Contact { activity_at: None, ..c }))
        .collect()
}

fn unlimited() -> Budget {
    Budget::new(0.0)
}

#[tokio::test]
async fn a_full_sync_equals_a_fresh_cursor_walk() {
    let srv = common::spawn(common::config(250, 7)).await;
    let api = client(&srv, 3);
    let mut index = Index::in_memory().unwrap();
    let mut last = None;
    let report = full_sync(&api, &mut index, &unlimited(), &mut |p| last = Some(p))
        .await
        .unwrap();
    assert_eq!((report.seen, report.changed, report.removed), (250, 250, 0));
    assert_eq!(last.map(|p| p.done), Some(250));
    assert_eq!(indexed(&index), fresh_walk(&api).await);
    let state = index.sync_state().unwrap();
    assert!(state.full_walk_finished_at.is_some() && state.walk_started_at.is_none());
    // The order is the API's.
    let first = api
        .list_contacts(&ContactFilter::default(), &Default::default())
        .await
        .unwrap();
    let ours: Vec<String> = index
        .list(Order::Activity, 20, 0)
        .unwrap()
        .into_iter()
        .map(|c| c.uuid)
        .collect();
    let theirs: Vec<String> = first.items.into_iter().map(|c| c.uuid).collect();
    assert_eq!(ours, theirs);
}

#[tokio::test]
async fn one_incremental_pass_brings_in_exactly_what_another_client_changed() {
    let srv = common::spawn(common::config(300, 11)).await;
    let api = client(&srv, 3);
    let mut index = Index::in_memory().unwrap();
    full_sync(&api, &mut index, &unlimited(), &mut |_| {}).await.unwrap();

    // Another client closes, reassigns, retags and writes to ten contacts
    // among the newest, and creates one.
    let other = client(&srv, 3);
    let top = index.list(Order::Activity, 30, 0).unwrap();
    let m = &srv.manifest;
    let mut changed = HashSet::new();
    for (i, c) in top.iter().step_by(3).take(10).enumerate() {
        let id = ContactId::new(c.uuid.clone());
        match i % 4 {
            0 if c.is_open() => drop(other.close_conversation(&id).await.unwrap()),
            0 => drop(other.open_conversation(&id).await.unwrap()),
            1 => {
                let who = m
                    .collaborators
                    .iter()
                    .find(|e| Some(*e) != c.assigned_user.as_ref())
                    .unwrap();
                let patch = ContactPatch {
                    assigned_user: Some(who.clone()),
                    ..Default::default()
                };
                other.update_contact(&id, &patch).await.unwrap();
            }
            2 => {
                let tag = m.tags.iter().find(|t| !c.tags.contains(t)).unwrap();
                let patch = ContactPatch {
                    tags: Some(vec![tag.clone()]),
                    ..Default::default()
                };
                other.update_contact(&id, &patch).await.unwrap();
            }
            _ => {
                let patch = ContactPatch {
                    note: Some(format!("called back {i}")),
                    ..Default::default()
                };
                other.update_contact(&id, &patch).await.unwrap();
            }
        }
        changed.insert(c.uuid.clone());
    }
    let new = other
        .create_contact(&NewContact {
            identifier: "+15550199000".into(),
            source: m.sources[0].clone(),
            name: "Newcomer Nell".into(),
            ..Default::default()
        })
        .await
        .unwrap();

    let report = incremental_sync(&api, &mut index, &unlimited()).await.unwrap();
    assert_eq!(report.changed, 11, "the ten changed contacts and the new one");
    assert!(report.requests <= 2 + 3, "{} requests", report.requests);
    assert_eq!(indexed(&index), fresh_walk(&api).await);
    assert_eq!(index.get(&new.uuid).unwrap().unwrap().name, "Newcomer Nell");
    assert_eq!(index.search("newcomer", 5).unwrap()[0].0, new.uuid);

    // Nothing changed since: the first two pages match.
    let again = incremental_sync(&api, &mut index, &unlimited()).await.unwrap();
    assert_eq!((again.requests, again.changed), (2, 0));
}

fn db_config(dir: &std::path::Path, contacts: usize) -> ServerConfig {
    ServerConfig {
        db: Some(dir.join("server.sqlite")),
        ..common::config(contacts, 5)
    }
}

fn server_uuids(dir: &std::path::Path) -> HashSet<String> {
    let conn = rusqlite::Connection::open(dir.join("server.sqlite")).unwrap();
    let mut stmt = conn.prepare("SELECT uuid FROM contacts").unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

#[tokio::test]
async fn contacts_deleted_on_the_server_disappear_after_a_full_pass() {
    let dir = tempfile::tempdir().unwrap();
    let srv = common::spawn(db_config(dir.path(), 120)).await;
    let api = client(&srv, 3);
    let mut index = Index::in_memory().unwrap();
    full_sync(&api, &mut index, &unlimited(), &mut |_| {}).await.unwrap();
    let gone: Vec<String> = index
        .list(Order::Name, 5, 0)
        .unwrap()
        .into_iter()
        .map(|c| c.uuid)
        .collect();
    let conn = rusqlite::Connection::open(dir.path().join("server.sqlite")).unwrap();
    for uuid in &gone {
        conn.execute("DELETE FROM contacts WHERE uuid = ?1", [uuid]).unwrap();
    }
    let report = full_sync(&api, &mut index, &unlimited(), &mut |_| {}).await.unwrap();
    assert_eq!(report.removed, 5);
    assert_eq!(index.count().unwrap(), 115);
    for uuid in &gone {
        assert!(index.get(uuid).unwrap().is_none());
    }
    assert_eq!(indexed(&index), fresh_walk(&api).await);
}

#[tokio::test]
async fn a_server_reset_to_other_data_starts_the_index_over_and_the_same_account_keeps_it() {
    let first = common::spawn(common::config(40, 5)).await;
    let reset = common::spawn(common::config(30, 6)).await;
    let (first, reset) = (client(&first, 3), client(&reset, 3));
    let mut index = Index::in_memory().unwrap();
    index.record_changes(true);
    let report = full_sync(&first, &mut index, &unlimited(), &mut |_| {}).await.unwrap();
    assert!(!report.started_over, "a first sync only learns the account");
    assert_eq!(check_account(&first, &mut index, &unlimited()).await.unwrap(), None);
    assert_eq!(index.count().unwrap(), 40, "the same account keeps its index");
    let old: HashSet<String> = indexed(&index).into_keys().collect();
    index.take_changes().unwrap();

    // The same profile now reaches other data: before any walk, the old
    // account's contacts are gone from views and search, and the removals
    // are in the journal for the list.
    let said = check_account(&reset, &mut index, &unlimited()).await.unwrap();
    assert_eq!(said, Some(STARTED_OVER));
    assert!(!STARTED_OVER.contains('\n'));
    assert_eq!(index.count().unwrap(), 0);
    assert!(
        index.sync_state().unwrap().full_walk_finished_at.is_none(),
        "a full walk is due"
    );
    let removed: HashSet<String> = index.take_changes().unwrap().removed.into_iter().collect();
    assert_eq!(removed, old);
    let report = full_sync(&reset, &mut index, &unlimited(), &mut |_| {}).await.unwrap();
    assert!(!report.started_over);
    assert_eq!(indexed(&index), fresh_walk(&reset).await);

    // A full sync notices it by itself too.
    let report = full_sync(&first, &mut index, &unlimited(), &mut |_| {}).await.unwrap();
    assert!(report.started_over);
    assert_eq!(indexed(&index), fresh_walk(&first).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_sync_of_10000_contacts_survives_faults_and_a_rate_limit() {
    let dir = tempfile::tempdir().unwrap();
    let srv = common::spawn(ServerConfig {
        fail_rate: 0.2,
        rate_limit: Some(20),
        ..db_config(dir.path(), 10_000)
    })
    .await;
    // One request in five fails: with 4 attempts a 500-page walk met four
    // failures in a row once in a few runs. 12 make that ~4e-9 a request,
    // so the test checks the walk's bookkeeping, not the dice.
    let api = client(&srv, 12);
    let mut index = Index::in_memory().unwrap();
    let report = full_sync(&api, &mut index, &Budget::new(25.0), &mut |_| {})
        .await
        .unwrap();
    let ours: HashSet<String> = indexed(&index).into_keys().collect();
    assert_eq!(index.count().unwrap(), 10_000, "nothing duplicated");
    assert_eq!(ours, server_uuids(dir.path()), "nothing missing");
    assert_eq!(report.seen, 10_000);
}

#[test]
fn two_handles_syncing_one_file_at_once_leave_it_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frontdesk/index.sqlite");
    let srv = common::spawn_blocking(common::config(400, 3));
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let (base, key, path) = (srv.base_url.clone(), srv.api_key.clone(), path.clone());
            std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                rt.block_on(async {
                    let api = Client::new(&base, &key, Duration::from_secs(10))
                        .unwrap()
                        .with_retry(retry(3));
                    let opened = Index::open(&path).unwrap();
                    assert!(opened.warning.is_none(), "{:?}", opened.warning);
                    let mut index = opened.index;
                    full_sync(&api, &mut index, &Budget::new(0.0), &mut |_| {})
                        .await
                        .unwrap();
                    incremental_sync(&api, &mut index, &Budget::new(0.0)).await.unwrap();
                });
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let index = Index::open(&path).unwrap().index;
    assert!(index.is_consistent().unwrap());
    let api = client(&srv, 3);
    assert_eq!(indexed(&index), common::runtime().block_on(fresh_walk(&api)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contact_created_during_a_full_walk_arrives_with_the_next_pass() {
    let srv = common::spawn(common::config(300, 13)).await;
    let api = client(&srv, 3);
    let other = client(&srv, 3);
    let source = srv.manifest.sources[0].clone();
    let started = std::sync::Arc::new(tokio::sync::Notify::new());
    let signal = started.clone();
    // Created once the walk has stored its first page.
    let creator = tokio::spawn(async move {
        signal.notified().await;
        other
            .create_contact(&NewContact {
                identifier: "+15550142000".into(),
                source,
                name: "Midwalk Mo".into(),
                ..Default::default()
            })
            .await
            .unwrap()
    });
    let mut index = Index::in_memory().unwrap();
    let mut first = true;
    full_sync(&api, &mut index, &Budget::new(10.0), &mut |_| {
        if std::mem::take(&mut first) {
            started.notify_one();
        }
    })
    .await
    .unwrap();
    let new = creator.await.unwrap();
    incremental_sync(&api, &mut index, &unlimited()).await.unwrap();
    assert_eq!(index.get(&new.uuid).unwrap().unwrap().name, "Midwalk Mo");
    assert_eq!(index.count().unwrap(), 301);
    assert_eq!(indexed(&index), fresh_walk(&api).await);
}

/// The newest message of a contact's first page, as the API gives it.
async fn last_message(api: &Client, uuid: &str) -> Option<Message> {
    let page = api
        .list_messages(&ContactId::from(uuid), &PageRequest::First)
        .await
        .unwrap();
    page.items.into_iter().max_by_key(|m| m.created_at)
}

fn who(status: &MessageStatus) -> Option<Who> {
    match status {
        MessageStatus::Received => Some(Who::Customer),
        MessageStatus::Sent => Some(Who::Agent),
        MessageStatus::Note => Some(Who::Note),
        MessageStatus::Other(_) => None,
    }
}

#[tokio::test]
async fn previews_of_stale_open_conversations_are_fetched_and_fetched_again_when_they_move() {
    let srv = common::spawn(common::config(120, 21)).await;
    let api = client(&srv, 3);
    let mut index = Index::in_memory().unwrap();
    full_sync(&api, &mut index, &unlimited(), &mut |_| {}).await.unwrap();
    let open = index
        .list(Order::Activity, 1000, 0)
        .unwrap()
        .into_iter()
        .filter(Contact::is_open)
        .count();
    let stale = index.stale_previews(1000).unwrap();
    assert_eq!(stale.len(), open, "every open conversation lacks its preview");
    let wanted = &stale[..30];
    let (fetched, failed) = fetch_previews(&api, &mut index, &unlimited(), wanted).await;
    assert!(failed.is_none(), "{failed:?}");
    assert_eq!(fetched.len(), 30);
    let uuids: Vec<&str> = wanted.iter().map(|w| w.0.as_str()).collect();
    let stored = index.previews(&uuids).unwrap();
    assert_eq!(stored.len(), 30, "kept in the index");
    let mut kinds = std::collections::HashSet::new();
    for (uuid, _) in wanted {
        let last = last_message(&api, uuid)
            .await
            .expect("a seeded conversation has messages");
        let p = &stored[uuid];
        assert_eq!(p.who, who(&last.status), "{uuid}");
        assert_eq!(p.at, last.created_at, "{uuid}");
        let first_line = last.text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
        assert!(
            first_line.starts_with(&p.text) && !p.text.is_empty(),
            "{uuid}: {:?}",
            p.text
        );
        kinds.insert(format!("{:?}", p.who));
    }
    assert!(kinds.len() >= 2, "the seed varies who wrote last: {kinds:?}");
    let still: Vec<String> = index.stale_previews(1000).unwrap().into_iter().map(|w| w.0).collect();
    assert_eq!(still.len(), open - 30);
    assert!(uuids.iter().all(|u| !still.contains(&u.to_string())), "fetched: fresh");

    // An agent writes to one of them: it moves, the next pass sees it move,
    // and its preview is stale until fetched again.
    let target = index.get(uuids[5]).unwrap().unwrap();
    let template = common::approved_template(&api).await;
    let send = SendMessage::template(target.phone_number.clone(), "messaging_app", template.uuid, vec![]);
    api.send_to(&target, send).await.unwrap();
    incremental_sync(&api, &mut index, &unlimited()).await.unwrap();
    let stale = index.stale_previews(1000).unwrap();
    assert_eq!(stale[0].0, target.uuid, "stale again, and the newest");
    let (fetched, failed) = fetch_previews(&api, &mut index, &unlimited(), &stale[..1]).await;
    assert!(failed.is_none(), "{failed:?}");
    let last = last_message(&api, &target.uuid).await.unwrap();
    assert_eq!(last.status, MessageStatus::Sent);
    let p = &index.previews(&[target.uuid.as_str()]).unwrap()[&target.uuid];
    assert_eq!((p.who, p.at), (Some(Who::Agent), last.created_at));
    assert_eq!(fetched[0].1, p.clone());
    assert!(!index.stale_previews(1000).unwrap().iter().any(|w| w.0 == target.uuid));
}
