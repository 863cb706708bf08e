//! The local index against the real embedded server: full and incremental
//! sync, deletions, faults and rate limits, and two writers on one file.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use frontdesk::api::{Client, Contact, ContactFilter, ContactId, ContactPatch, NewContact, RetryPolicy};
use frontdesk::index::sync::{Budget, full_sync, incremental_sync};
use frontdesk::index::{Index, Order};
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

fn indexed(index: &Index) -> BTreeMap<String, Contact> {
    let all = index.list(Order::Activity, usize::MAX >> 1, 0).unwrap();
    all.into_iter().map(|c| (c.uuid.clone(), c)).collect()
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_sync_of_10000_contacts_survives_faults_and_a_rate_limit() {
    let dir = tempfile::tempdir().unwrap();
    let srv = common::spawn(ServerConfig {
        fail_rate: 0.2,
        rate_limit: Some(20),
        ..db_config(dir.path(), 10_000)
    })
    .await;
    let api = client(&srv, 4);
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
