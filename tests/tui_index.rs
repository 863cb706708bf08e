//! The TUI's index worker against the real embedded server: it fills an
//! empty index and says so, brings in another client's changes on an
//! incremental pass, fetches last messages, stores what the TUI wrote, and
//! reports the server going away as offline.

use std::collections::HashSet;
use std::time::Duration;

use frontdesk::api::{Client, ContactFilter, ContactId, MessageStatus, PageRequest};
use frontdesk::index::{Index, SharedIndex, Who};
use frontdesk::server::ServerConfig;
use frontdesk::tui::index_worker::{self, IndexCmd, Worker};
use frontdesk::tui::msg::Msg;
use frontdesk::tui::msg::index::{IndexMsg, SyncStatus};
use tokio::sync::mpsc::UnboundedReceiver;

mod common;

/// Index messages until `done` says stop (at most 60 s).
async fn until(rx: &mut UnboundedReceiver<Msg>, mut done: impl FnMut(&IndexMsg) -> bool) -> Vec<IndexMsg> {
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .expect("the worker answers within a minute")
            .expect("the worker is running");
        if let Msg::Index(m) = msg {
            let stop = done(&m);
            seen.push(m);
            if stop {
                return seen;
            }
        }
    }
}

fn complete(m: &IndexMsg) -> bool {
    matches!(
        m,
        IndexMsg::Status(SyncStatus {
            complete: true,
            walking: None,
            ..
        })
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_worker_keeps_an_index_and_the_list_up_to_date() {
    let server = common::spawn(ServerConfig {
        contacts: 60,
        activity: false,
        ..Default::default()
    })
    .await;
    let client = Client::new(&server.base_url, &server.api_key, Duration::from_secs(10)).unwrap();
    let index = SharedIndex::new(Index::in_memory().unwrap());
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let link = index_worker::spawn(
        Worker {
            client: client.clone(),
            index,
            sync_rate: 0.0,
            full_every: Duration::from_secs(1800),
            hub: None,
            in_memory: true,
        },
        tx,
    );

    // An empty index: the first walk fills it, with progress on the way.
    let seen = until(&mut rx, complete).await;
    let walked: HashSet<String> = seen
        .iter()
        .filter_map(|m| match m {
            IndexMsg::Changed(c) => Some(c.upserted.iter().map(|c| c.uuid.clone())),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(walked.len(), 60, "every contact reaches the list once");
    assert!(
        seen.iter()
            .any(|m| matches!(m, IndexMsg::Status(SyncStatus { walking: Some(_), .. }))),
        "the walk's progress is reported"
    );
    let last = seen.last().unwrap();
    assert!(matches!(last, IndexMsg::Status(s) if s.synced_at.is_some() && s.in_memory));

    // Last messages trickle in for open conversations; who wrote last is
    // what the API says.
    let previews = until(&mut rx, |m| matches!(m, IndexMsg::Previews(_))).await;
    let Some(IndexMsg::Previews(batch)) = previews.last() else {
        unreachable!()
    };
    let (uuid, preview) = &batch[0];
    let page = client
        .list_messages(&ContactId::from(uuid.as_str()), &PageRequest::First)
        .await
        .unwrap();
    let newest = page.items.iter().max_by_key(|m| m.created_at);
    let want = newest.map(|m| match m.status {
        MessageStatus::Received => Who::Customer,
        MessageStatus::Sent => Who::Agent,
        _ => Who::Note,
    });
    assert_eq!(preview.who, want, "who wrote last, for {uuid}");

    // Another client closes a conversation; one pass brings it in.
    let first = client
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .unwrap();
    let target = first.items.iter().find(|c| c.closed_at.is_none()).unwrap().uuid.clone();
    client
        .close_conversation(&ContactId::from(target.as_str()))
        .await
        .unwrap();
    link.cmds.send(IndexCmd::Incremental).unwrap();
    let seen = until(
        &mut rx,
        |m| matches!(m, IndexMsg::Changed(c) if c.upserted.iter().any(|c| c.uuid == target && c.closed_at.is_some())),
    )
    .await;
    assert!(!seen.is_empty());

    // What the TUI wrote is stored at once and handed back.
    let mut written = first.items[1].clone();
    written.note = Some("written by the agent".into());
    link.cmds.send(IndexCmd::Store(Box::new(written.clone()))).unwrap();
    until(&mut rx, |m| {
        matches!(m, IndexMsg::Changed(c) if c.upserted.iter().any(|c| c.uuid == written.uuid && c.note == written.note))
    })
    .await;

    // The server goes away: the index stays, the status says offline.
    server.stop().await;
    link.cmds.send(IndexCmd::Incremental).unwrap();
    until(&mut rx, |m| matches!(m, IndexMsg::Status(s) if s.offline)).await;
    let mut index = link.index.clone();
    use frontdesk::index::IndexAccess;
    assert_eq!(index.with(|ix| ix.count()).unwrap(), 60, "the index is still readable");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_index_of_another_account_starts_over_with_a_notice_and_its_contacts_leave_the_list() {
    let old = common::spawn(common::config(20, 3)).await;
    let now = common::spawn(common::config(15, 4)).await;
    let old_client = Client::new(&old.base_url, &old.api_key, Duration::from_secs(10)).unwrap();
    let client = Client::new(&now.base_url, &now.api_key, Duration::from_secs(10)).unwrap();
    let mut index = Index::in_memory().unwrap();
    let budget = frontdesk::index::sync::Budget::new(0.0);
    frontdesk::index::sync::full_sync(&old_client, &mut index, &budget, &mut |_| {})
        .await
        .unwrap();
    let old_uuids: HashSet<String> = index
        .list(frontdesk::index::Order::Activity, 100, 0)
        .unwrap()
        .into_iter()
        .map(|c| c.uuid)
        .collect();
    // A walk finished recently: the worker starts with an incremental pass.
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let link = index_worker::spawn(
        Worker {
            client,
            index: SharedIndex::new(index),
            sync_rate: 0.0,
            full_every: Duration::from_secs(1800),
            hub: None,
            in_memory: true,
        },
        tx,
    );
    let seen = until(&mut rx, |m| matches!(m, IndexMsg::Notice(_))).await;
    let removed: HashSet<String> = seen
        .iter()
        .filter_map(|m| match m {
            IndexMsg::Changed(c) => Some(c.removed.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(removed, old_uuids, "the old account's contacts leave the list");
    let Some(IndexMsg::Notice(text)) = seen.last() else {
        unreachable!()
    };
    assert!(text.contains("started over") && !text.contains('\n'), "{text}");
    // And the new account's walk follows at once.
    until(&mut rx, complete).await;
    let mut index = link.index.clone();
    use frontdesk::index::IndexAccess;
    assert_eq!(index.with(|ix| ix.count()).unwrap(), 15);
}

/// The trickle walks every open conversation once, from a cursor, and
/// hands its last messages to the list in a few batches rather than one
/// message (and one recount of every view) per request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_trickle_brings_every_open_conversation_once_in_a_few_hand_overs() {
    let server = common::spawn(ServerConfig {
        contacts: 120,
        activity: false,
        ..Default::default()
    })
    .await;
    let client = Client::new(&server.base_url, &server.api_key, Duration::from_secs(10)).unwrap();
    let mut open = HashSet::new();
    let mut page = PageRequest::First;
    loop {
        let got = client.list_contacts(&ContactFilter::default(), &page).await.unwrap();
        open.extend(
            got.items
                .iter()
                .filter(|c| c.closed_at.is_none())
                .map(|c| c.uuid.clone()),
        );
        match got.meta.next {
            Some(next) => page = PageRequest::After(next),
            None => break,
        }
    }
    assert!(
        open.len() > 40,
        "enough open conversations for several batches: {}",
        open.len()
    );
    let index = SharedIndex::new(Index::in_memory().unwrap());
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let _link = index_worker::spawn(
        Worker {
            client,
            index,
            sync_rate: 0.0,
            full_every: Duration::from_secs(1800),
            hub: None,
            in_memory: true,
        },
        tx,
    );
    until(&mut rx, complete).await;
    let mut arrived: Vec<String> = Vec::new();
    let mut hand_overs = 0;
    until(&mut rx, |m| {
        if let IndexMsg::Previews(batch) = m {
            hand_overs += 1;
            arrived.extend(batch.iter().map(|(u, _)| u.clone()));
        }
        open.iter().all(|u| arrived.contains(u))
    })
    .await;
    let distinct: HashSet<&String> = arrived.iter().collect();
    assert_eq!(distinct.len(), arrived.len(), "each conversation fetched once");
    let batches = open.len().div_ceil(8);
    assert!(
        hand_overs * 2 <= batches,
        "{hand_overs} hand-overs for {} conversations fetched in {batches} batches",
        open.len()
    );
}
