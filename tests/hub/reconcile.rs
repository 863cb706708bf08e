//! Reconciliation: with webhooks lost, one pass makes the hub's index
//! equal the service's; and a new agent's snapshot carries the last
//! message of each conversation, so its Waiting count is exact.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

use frontdesk::api::{Client, Contact, ContactFilter, ContactId, PageRequest};
use frontdesk::hubclient::HubClient;
use frontdesk::index::{Index, IndexAccess, Order, Preview, SharedIndex};
use frontdesk::triage::{Facts, builtin_views, count_views};
use frontdesk::tui::index_worker;
use frontdesk::tui::msg::Msg;
use frontdesk::tui::msg::index::IndexMsg;
use serde_json::json;

use super::common;
use super::support::{self, Agent, PATIENCE, Team};

/// The contacts of the hub's snapshot, by uuid (read as the service's
/// contacts: whatever else a line carries is left out).
async fn hub_contacts(agent: &Agent) -> BTreeMap<String, Contact> {
    let text = agent.snapshot_text().await;
    text.lines()
        .skip(1)
        .map(|l| support::as_service(&serde_json::from_str::<Contact>(l).expect("a contact line")))
        .map(|c| (c.uuid.clone(), c))
        .collect()
}

fn direct(t: &Team) -> Client {
    Client::new(&t.server.base_url, &t.server.api_key, Duration::from_secs(10)).expect("client")
}

async fn truth(t: &Team) -> BTreeMap<String, Contact> {
    direct(t)
        .all_contacts(ContactFilter::default())
        .await
        .expect("walk")
        .into_iter()
        .map(|c| (c.uuid.clone(), c))
        .collect()
}

/// Waits until `n` passes have finished.
async fn passes_done(t: &Team, n: u64) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while t.hub.state.counters.passes.load(Ordering::Relaxed) < n {
        assert!(tokio::time::Instant::now() < deadline, "no pass {n} in time");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One reconciliation pass now, waited for.
async fn one_pass(t: &Team) {
    let before = t.hub.state.counters.passes.load(Ordering::Relaxed);
    t.hub.state.reconcile_now.notify_one();
    passes_done(t, before + 1).await;
}

fn differing(a: &BTreeMap<String, Contact>, b: &BTreeMap<String, Contact>) -> Vec<String> {
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.into_iter().filter(|k| a.get(*k) != b.get(*k)).cloned().collect()
}

/// The TUI's index worker as dana through the hub, on `index` (`rate`:
/// its own request budget), and what it tells the screen.
fn dana_worker(
    t: &Team,
    index: Index,
    rate: f64,
) -> (index_worker::IndexLink, tokio::sync::mpsc::UnboundedReceiver<Msg>) {
    let hub = HubClient::new(&t.hub.url, &t.dana.token, Duration::from_secs(10)).expect("hub client");
    let in_memory = index.path().is_none();
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let link = index_worker::spawn(
        index_worker::Worker {
            client: t.dana.client(),
            index: SharedIndex::new(index),
            sync_rate: rate,
            full_every: Duration::from_secs(3600),
            in_memory,
            hub: Some(hub),
        },
        tx,
    );
    (link, rx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_pass_catches_lost_webhooks_below_contacts_that_match() {
    let mut cfg = common::config(100, 42);
    cfg.drop_webhooks = 1.0;
    let server = common::spawn(cfg).await;
    let t = support::team_on(server, |_| {}).await;
    support::wait_for_contacts(&t.dana, 100).await;
    passes_done(&t, 1).await;
    support::subscribe(&t).await;
    let before = truth(&t).await;
    // Five customers of open conversations (whose last message the hub
    // keeps) write: every delivery is lost.
    let lost: Vec<String> = before
        .values()
        .filter(|c| c.is_open())
        .skip(5)
        .take(5)
        .map(|c| c.uuid.clone())
        .collect();
    assert_eq!(lost.len(), 5);
    let first: Vec<String> = before.into_keys().filter(|u| !lost.contains(u)).collect();
    for u in &lost {
        assert!(t.server.customer_writes(u, "where is my order?").await.expect("writes"));
    }
    // Then 45 others, whose deliveries the hub gets (here by hand): the
    // top 45 of the list match the hub's index, the five lie below them.
    let others: Vec<String> = first[35..80].to_vec();
    for u in &others {
        assert!(t.server.customer_writes(u, "hello").await.expect("writes"));
    }
    let want = truth(&t).await;
    let http = reqwest::Client::new();
    let mut written = BTreeMap::new();
    for u in &others {
        let at = newest_message(&t, u).await.expect("a message");
        written.insert(u.clone(), at);
        let payload = json!({ "to": "+1", "from": want[u].phone_number, "text": "hello", "status": "received",
            "createdAt": at.to_rfc3339(), "contact": { "uuid": u } });
        let body = json!({ "event": "message_created", "payload": payload });
        let r = http.post(t.hub.hook_url()).json(&body).send().await.expect("delivered");
        assert!(r.status().is_success(), "{}", r.status());
    }
    let last_texts = |uuids: &[String]| {
        let mut index = t.hub.state.index.clone();
        let refs: Vec<&str> = uuids.iter().map(String::as_str).collect();
        let held = index.with(|ix| ix.previews(&refs)).expect("previews");
        uuids
            .iter()
            .map(|u| held.get(u).map(|p| p.text.clone()).unwrap_or_default())
            .collect::<Vec<_>>()
    };
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let mut index = t.hub.state.index.clone();
        let moved = others.iter().all(|u| {
            let held = index.with(|ix| ix.get(u)).expect("get");
            held.is_some_and(|c| c.last_activity() >= Some(written[u]))
        });
        if moved {
            assert!(
                last_texts(&lost).iter().all(|t| t != "where is my order?"),
                "the lost ones are not in the hub yet"
            );
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the deliveries were never worked"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    one_pass(&t).await;
    let held = hub_contacts(&t.dana).await;
    assert_eq!(
        differing(&held, &want),
        Vec::<String>::new(),
        "one pass made them equal"
    );
    // The pass moved the lost ones up, so their last messages are read.
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while last_texts(&lost).iter().any(|t| t != "where is my order?") {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the lost messages never reached the hub: {:?}",
            last_texts(&lost)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_fifth_of_deliveries_lost_one_pass_makes_the_hub_equal() {
    let mut cfg = common::config(120, 7);
    cfg.drop_webhooks = 0.2;
    let server = common::spawn(cfg).await;
    let t = support::team_on(server, |_| {}).await;
    support::wait_for_contacts(&t.dana, 120).await;
    passes_done(&t, 1).await;
    support::subscribe(&t).await;
    let uuids: Vec<String> = truth(&t).await.into_keys().collect();
    let client = t.dana.client();
    for (i, u) in uuids.iter().enumerate().take(60) {
        match i % 3 {
            0 => assert!(t.server.customer_writes(u, "any news?").await.expect("writes")),
            1 => {
                // Through the hub: its index learns from the answer too.
                client
                    .close_conversation(&ContactId::from(u.as_str()))
                    .await
                    .expect("closed");
            }
            _ => assert!(t.server.customer_writes(u, "thanks").await.expect("writes")),
        }
    }
    let want = truth(&t).await;
    one_pass(&t).await;
    let held = hub_contacts(&t.dana).await;
    assert_eq!(
        differing(&held, &want),
        Vec::<String>::new(),
        "one pass made them equal"
    );
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closes_and_edits_made_elsewhere_with_their_webhooks_lost_are_caught_by_the_next_pass() {
    // Every delivery lost, and no scheduled full walk in sight.
    let mut cfg = common::config(60, 11);
    cfg.drop_webhooks = 1.0;
    let server = common::spawn(cfg).await;
    let t = support::team_on(server, |c| c.full_walk_every = 1000).await;
    support::wait_for_contacts(&t.dana, 60).await;
    passes_done(&t, 1).await;
    support::subscribe(&t).await;
    // A pass with nothing lost yet stays incremental.
    let walks = || t.hub.state.counters.full_walks.load(Ordering::Relaxed);
    let before = walks();
    one_pass(&t).await;
    assert_eq!(walks(), before, "nothing lost: no full walk");
    // Another tool (the web dashboard, a script) closes, reopens and
    // assigns: none of it moves the contacts in the list, and every
    // delivery is lost.
    let api = direct(&t);
    let held = truth(&t).await;
    let open: Vec<&Contact> = held.values().filter(|c| c.is_open()).take(3).collect();
    let closed = held.values().find(|c| !c.is_open()).expect("a closed one");
    for c in &open[..2] {
        api.close_conversation(&ContactId::from(c.uuid.as_str()))
            .await
            .expect("closed");
    }
    api.open_conversation(&ContactId::from(closed.uuid.as_str()))
        .await
        .expect("reopened");
    // To a collaborator the service knows, other than the one it has.
    let to = held
        .values()
        .filter_map(|c| c.assigned_user.clone())
        .find(|a| open[2].assigned_user.as_ref() != Some(a))
        .expect("another collaborator");
    let patch = frontdesk::api::ContactPatch {
        assigned_user: Some(to),
        ..Default::default()
    };
    api.update_contact(&ContactId::from(open[2].uuid.as_str()), &patch)
        .await
        .expect("assigned");
    let want = truth(&t).await;
    assert_eq!(differing(&held, &want).len(), 4, "four contacts changed");
    one_pass(&t).await;
    assert_eq!(walks(), before + 1, "the log's failed deliveries made it a full walk");
    let got = hub_contacts(&t.dana).await;
    assert_eq!(differing(&got, &want), Vec::<String>::new(), "one pass made them equal");
    // Those failures are behind it now: the next pass is incremental.
    one_pass(&t).await;
    assert_eq!(walks(), before + 1);
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_close_starts_a_full_walk_without_waiting_for_the_period() {
    let mut cfg = common::config(40, 13);
    cfg.drop_webhooks = 1.0;
    let server = common::spawn(cfg).await;
    // The next scheduled pass is an hour away; the log is read often.
    let t = support::team_on(server, |c| {
        c.full_walk_every = 1000;
        c.lost_check_every = Duration::from_millis(200);
    })
    .await;
    support::wait_for_contacts(&t.dana, 40).await;
    passes_done(&t, 1).await;
    support::subscribe(&t).await;
    let walks = || t.hub.state.counters.full_walks.load(Ordering::Relaxed);
    let before = walks();
    let target = truth(&t)
        .await
        .into_values()
        .find(Contact::is_open)
        .expect("an open one")
        .uuid;
    direct(&t)
        .close_conversation(&ContactId::from(target.as_str()))
        .await
        .expect("closed");
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while hub_contacts(&t.dana).await[&target].is_open() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the lost close never reached the hub"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // It came with a full walk, started by the log (counted when it ends).
    while walks() == before {
        assert!(tokio::time::Instant::now() < deadline, "no full walk");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(walks(), before + 1, "one walk for one lost delivery");
    t.hub.stop().await;
}

/// When the newest message of `uuid`'s conversation was written, read from
/// the service.
async fn newest_message(t: &Team, uuid: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    let page = direct(t)
        .list_messages(&ContactId::from(uuid), &PageRequest::First)
        .await
        .expect("messages");
    page.items.iter().filter_map(|m| m.created_at).max()
}

/// Who wrote last in each open conversation, read from the service.
async fn service_counts(t: &Team, me: &str) -> Vec<usize> {
    let api = direct(t);
    let all = api.all_contacts(ContactFilter::default()).await.expect("walk");
    let mut facts = Vec::new();
    for c in &all {
        let preview = if c.is_open() {
            let page = api
                .list_messages(&ContactId::from(c.uuid.as_str()), &PageRequest::First)
                .await
                .expect("messages");
            Some(Preview::of(&page.items, c.last_activity()))
        } else {
            None
        };
        facts.push(Facts::new(c, preview.as_ref()));
    }
    let views: Vec<_> = builtin_views().into_iter().take(3).collect();
    count_views(&facts, &views, Some(me), chrono::Utc::now())
}

fn agent_counts(index: &Index, me: &str) -> Vec<usize> {
    let previews: std::collections::HashMap<String, Preview> =
        index.all_previews().expect("previews").into_iter().collect();
    let facts: Vec<Facts> = index
        .list(Order::Activity, usize::MAX, 0)
        .expect("list")
        .iter()
        .map(|c| Facts::new(c, previews.get(&c.uuid)))
        .collect();
    let views: Vec<_> = builtin_views().into_iter().take(3).collect();
    count_views(&facts, &views, Some(me), chrono::Utc::now())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_agents_waiting_count_is_exact_after_the_snapshot() {
    let t = support::team_with(60, |_| {}).await;
    support::wait_for_contacts(&t.dana, 60).await;
    support::subscribe(&t).await;
    // A customer writes after the walk: the webhook brings the last message.
    let first = truth(&t)
        .await
        .into_values()
        .find(Contact::is_open)
        .expect("an open conversation")
        .uuid;
    assert!(t.server.customer_writes(&first, "still waiting").await.expect("writes"));
    // The hub read the last message of every open conversation.
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let mut index = t.hub.state.index.clone();
        let stale = index.with(|ix| ix.stale_previews(1)).expect("stale");
        let held = index.with(|ix| ix.get(&first)).expect("get");
        // The service tells no activity: the customer's message is it.
        let now = newest_message(&t, &first).await;
        let moved = held.is_some_and(|c| now.is_some_and(|n| c.last_activity() >= Some(n)));
        if stale.is_empty() && moved {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hub never held every last message"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The snapshot carries the waiting facts: when the customer last wrote.
    let text = t.dana.snapshot_text().await;
    let line = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a json line"))
        .find(|v| v["uuid"] == json!(first))
        .expect("its line");
    let said = line["hubPreview"]["lastCustomerAt"].as_str().expect("lastCustomerAt");
    let said = chrono::DateTime::parse_from_rfc3339(said).expect("a time");
    assert_eq!(Some(said.with_timezone(&chrono::Utc)), newest_message(&t, &first).await);
    let me = truth(&t)
        .await
        .into_values()
        .find_map(|c| c.assigned_user)
        .expect("someone is assigned");
    let want = service_counts(&t, &me).await;
    assert!(want[2] > 0, "some customers are waiting: {want:?}");
    let mut index = Index::in_memory().expect("index");
    let hub = HubClient::new(&t.hub.url, &t.dana.token, Duration::from_secs(10)).expect("hub client");
    let report = hub.snapshot_into(&mut index, &mut |_, _| {}).await.expect("snapshot");
    assert!(report.previews > 0, "{report:?}");
    assert_eq!(agent_counts(&index, &me), want, "Mine, Unassigned, Waiting");
    let waiting_first = index.previews(&[first.as_str()]).expect("previews");
    assert!(waiting_first[&first].waiting(), "{waiting_first:?}");

    // The TUI's worker through the hub: what it hands the screen (the
    // contacts, every last message) makes the same counts, and the search
    // rows are written after the views are whole.
    let (link, mut rx) = dana_worker(&t, Index::in_memory().expect("index"), 0.0);
    let mut contacts: std::collections::HashMap<String, Contact> = Default::default();
    let mut previews: std::collections::HashMap<String, Preview> = Default::default();
    let mut indexing = Vec::new();
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .expect("the worker goes on")
            .expect("the worker runs");
        let Msg::Index(m) = msg else { continue };
        match m {
            IndexMsg::Changed(c) => contacts.extend(c.upserted.into_iter().map(|c| (c.uuid.clone(), c))),
            IndexMsg::Previews(p) => previews.extend(p),
            IndexMsg::Status(s) => {
                indexing.push(s.indexing);
                if s.complete && s.walking.is_none() && s.indexing.is_none() && indexing.iter().any(Option::is_some) {
                    break;
                }
            }
            _ => {}
        }
    }
    let facts: Vec<Facts> = contacts
        .values()
        .map(|c| Facts::new(c, previews.get(&c.uuid)))
        .collect();
    let views: Vec<_> = builtin_views().into_iter().take(3).collect();
    assert_eq!(
        count_views(&facts, &views, Some(&me), chrono::Utc::now()),
        want,
        "the screen's Mine, Unassigned, Waiting"
    );
    let (done, total) = indexing.iter().rev().flatten().next().copied().expect("progress");
    assert_eq!((done, total), (60, 60), "every contact got its search row");
    let mut shared = link.index.clone();
    let name = contacts[&first].name.clone();
    let found = shared.with(|ix| ix.search(&name, 5)).expect("search");
    assert!(found.iter().any(|(u, _)| *u == first), "{name}: {found:?}");
    assert!(shared.with(|ix| ix.is_consistent()).expect("check"));
    t.hub.stop().await;
}

/// An agent connected before the hub had read the conversations' last
/// messages learns each one as the hub reads it (`last_message`): its
/// Waiting count becomes the service's without loading the snapshot again
/// and without reading the messages itself (issue 36: a TUI's Waiting
/// stayed `≥80` of 398 all shift).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_connected_before_the_hub_read_the_last_messages_learns_them_as_it_does() {
    use frontdesk::server::{FaultKnobs, HoldGate, ServerConfig};
    // Every read of a conversation's messages waits at the gate: the hub's
    // trickle stops at its first until the agent is connected.
    let gate = HoldGate::new();
    let server = common::spawn(ServerConfig {
        knobs: FaultKnobs {
            gate: Some(gate.clone()),
            hold_path: Some("/contacts/*/messages".into()),
            ..FaultKnobs::default()
        },
        ..common::config(40, 42)
    })
    .await;
    let t = support::team_on(server, |_| {}).await;
    support::wait_for_contacts(&t.dana, 40).await;
    gate.held().await;

    // Next to nothing of its own: one read, then one in 1,000 s.
    let (_link, mut rx) = dana_worker(&t, Index::in_memory().expect("index"), 0.001);
    let mut contacts: std::collections::HashMap<String, Contact> = Default::default();
    let mut previews: std::collections::HashMap<String, Preview> = Default::default();
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let take = |m: IndexMsg,
                contacts: &mut std::collections::HashMap<String, Contact>,
                previews: &mut std::collections::HashMap<String, Preview>| match m {
        IndexMsg::Changed(c) => {
            contacts.extend(c.upserted.into_iter().map(|c| (c.uuid.clone(), c)));
            false
        }
        IndexMsg::Previews(p) => {
            previews.extend(p);
            false
        }
        IndexMsg::Status(s) => s.hub == Some(frontdesk::fill::msg::HubLink::Live),
        _ => false,
    };
    // The snapshot loaded and the stream is live, before the hub has read
    // any last message.
    loop {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .expect("the worker goes on")
            .expect("the worker runs");
        if let Msg::Index(m) = msg
            && take(m, &mut contacts, &mut previews)
        {
            break;
        }
    }
    let open = contacts.values().filter(|c| c.is_open()).count();
    assert!(
        previews.len() < open / 2,
        "the snapshot already held {} of {open} last messages",
        previews.len()
    );
    for _ in 0..100_000 {
        gate.release();
    }
    let me = truth(&t)
        .await
        .into_values()
        .find_map(|c| c.assigned_user)
        .expect("someone is assigned");
    let want = service_counts(&t, &me).await;
    assert!(want[2] > 0, "some customers are waiting: {want:?}");
    let views: Vec<_> = builtin_views().into_iter().take(3).collect();
    loop {
        let facts: Vec<Facts> = contacts
            .values()
            .map(|c| Facts::new(c, previews.get(&c.uuid)))
            .collect();
        let got = count_views(&facts, &views, Some(&me), chrono::Utc::now());
        if got == want {
            break;
        }
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .unwrap_or_else(|_| panic!("the agent's Mine, Unassigned, Waiting stayed {got:?}, the service's {want:?}"));
        if let Some(Msg::Index(m)) = msg {
            take(m, &mut contacts, &mut previews);
        }
    }
    t.hub.stop().await;
}

/// The CLI beside the TUI (same home, same index file) closes a
/// conversation: it stores the close in the file itself, so the hub's
/// event finds nothing to change there. The TUI's worker still tells the
/// screen (issue 36: after a shift a TUI's Open read 10
/// over, while its own index file matched the service exactly).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_close_the_cli_stored_in_the_shared_index_file_reaches_the_tuis_screen() {
    let t = support::team_with(20, |_| {}).await;
    support::wait_for_contacts(&t.dana, 20).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("index.sqlite");
    let (_link, mut rx) = dana_worker(&t, Index::open(&path).expect("index file").index, 0.0);
    let mut contacts: std::collections::HashMap<String, Contact> = Default::default();
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let mut next = async || -> IndexMsg {
        loop {
            let msg = tokio::time::timeout_at(deadline, rx.recv())
                .await
                .expect("the worker goes on")
                .expect("the worker runs");
            if let Msg::Index(m) = msg {
                return m;
            }
        }
    };
    // Live, every contact in, and the last message of every open one read
    // (each read stores the contact's activity, which would report it by
    // chance).
    let mut live = false;
    let mut read = std::collections::HashSet::new();
    while !(live
        && contacts.len() == 20
        && contacts
            .values()
            .filter(|c| c.is_open())
            .all(|c| read.contains(&c.uuid)))
    {
        match next().await {
            IndexMsg::Changed(c) => contacts.extend(c.upserted.into_iter().map(|c| (c.uuid.clone(), c))),
            IndexMsg::Previews(p) => read.extend(p.into_iter().map(|(uuid, _)| uuid)),
            IndexMsg::Status(s) => live |= s.hub == Some(frontdesk::fill::msg::HubLink::Live),
            _ => {}
        }
    }
    let open = contacts
        .values()
        .find(|c| c.is_open())
        .expect("an open conversation")
        .clone();
    // The CLI stores its close's answer in the file. Whether the hub's
    // events then bring anything depends on the order (and on what the
    // hub's copy says): here none comes, as when they found the file
    // holding the change already.
    let mut closed = open.clone();
    closed.closed_at = Some(chrono::Utc::now());
    let mut cli = Index::open(&path).expect("the same file").index;
    cli.upsert_contacts(std::slice::from_ref(&closed), chrono::Utc::now())
        .expect("stored");
    loop {
        if let IndexMsg::Changed(c) = next().await
            && let Some(c) = c.upserted.into_iter().find(|c| c.uuid == open.uuid)
            && !c.is_open()
        {
            break;
        }
    }
    t.hub.stop().await;
}
