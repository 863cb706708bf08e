//! The event stream, presence, the snapshot and reconciliation.

use std::sync::atomic::Ordering;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::common;
use super::support::{self, Agent, PATIENCE};

async fn presence(a: &Agent, contact: &str, state: &str) -> StatusCode {
    a.post("/hub/v1/presence")
        .json(&json!({ "contact": contact, "state": state }))
        .send()
        .await
        .expect("answer")
        .status()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnect_replays_what_was_missed_and_past_the_buffer_says_resync() {
    let t = support::team_with(30, |c| c.replay = 4).await;
    support::wait_for_contacts(&t.dana, 30).await;
    let mut lee = t.lee.events(None).await;
    assert_eq!(presence(&t.dana, "c-1", "viewing").await, StatusCode::NO_CONTENT);
    let seen = lee.next_of("presence").await.id.expect("an id");
    drop(lee);
    for c in ["c-2", "c-3"] {
        presence(&t.dana, c, "viewing").await;
    }
    let mut lee = t.lee.events(Some(seen)).await;
    let a = lee.next().await.expect("replayed");
    let b = lee.next().await.expect("replayed");
    assert_eq!(
        (a.data["contact"].clone(), b.data["contact"].clone()),
        (json!("c-2"), json!("c-3"))
    );
    assert!(a.id > Some(seen) && b.id > a.id, "ids grow");
    for c in ["c-4", "c-5", "c-6", "c-7"] {
        presence(&t.dana, c, "viewing").await;
    }
    let mut late = t.lee.events(Some(seen)).await;
    let first = late.next().await.expect("an event");
    assert_eq!(first.kind, "resync", "{first:?}");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_client_is_told_to_resync_and_slows_no_other() {
    let t = support::team_with(30, |c| {
        c.client_queue = 4;
        c.max_event_bytes = 1 << 20;
    })
    .await;
    support::wait_for_contacts(&t.dana, 30).await;
    let mut slow = t.dana.events(None).await;
    let mut lee = t.lee.events(None).await;
    let bus = &t.hub.state.bus;
    assert_eq!(bus.clients(), 2);
    let pad = "x".repeat(64 * 1024);
    let mut published = 0;
    // The slow one reads nothing: once the socket's buffers are full its
    // queue fills and it is cut off. Lee reads each event as it comes.
    while bus.clients() == 2 {
        assert!(published < 5000, "the stalled client was never cut off");
        let id = bus.publish(
            "agent_status",
            &json!({ "agent": "x", "status": published, "pad": pad }),
        );
        let ev = lee.next().await.expect("lee gets every event");
        assert_eq!(ev.id, Some(id));
        published += 1;
    }
    let mut last = None;
    while let Some(ev) = slow.next().await {
        last = Some(ev);
    }
    assert_eq!(
        last.map(|e| e.kind),
        Some("resync".to_string()),
        "the stalled client ends with resync"
    );
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_reaches_the_others_and_expires_to_idle() {
    let t = support::team_with(30, |c| c.presence_ttl = Duration::from_millis(300)).await;
    let mut lee = t.lee.events(None).await;
    assert_eq!(presence(&t.dana, "abc-1", "composing").await, StatusCode::NO_CONTENT);
    let ev = lee.next_of("presence").await;
    assert_eq!(
        (
            ev.data["agent"].clone(),
            ev.data["contact"].clone(),
            ev.data["state"].clone()
        ),
        (json!("dana"), json!("abc-1"), json!("composing"))
    );
    assert!(
        ev.data["expires_at"]
            .as_str()
            .is_some_and(|s| chrono::DateTime::parse_from_rfc3339(s).is_ok())
    );
    let ev = lee.next_of("presence").await;
    assert_eq!(
        (ev.data["state"].clone(), ev.data["agent"].clone()),
        (json!("idle"), json!("dana"))
    );
    assert_eq!(
        presence(&t.dana, "abc-1", "dancing").await,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        presence(&t.dana, "../x", "viewing").await,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let st = t
        .dana
        .post("/hub/v1/presence")
        .body("nope")
        .send()
        .await
        .expect("answer")
        .status();
    assert_eq!(st, StatusCode::BAD_REQUEST);
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_snapshot_holds_the_whole_account_and_its_cursor_loses_nothing() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let resp = t.lee.get("/hub/v1/snapshot").send().await.expect("snapshot");
    assert_eq!(resp.headers()["content-type"], "application/x-ndjson");
    let text = resp.text().await.expect("body");
    let mut lines = text.lines();
    let head: Value = serde_json::from_str(lines.next().expect("head")).expect("json");
    let contacts: Vec<Value> = lines
        .map(|l| serde_json::from_str(l).expect("a contact a line"))
        .collect();
    assert_eq!(head["contacts"], json!(contacts.len()));
    assert!(head["account"].as_str().is_some_and(|a| !a.is_empty()));
    let raw = common::Raw::new(&t.server);
    let direct =
        frontdesk::api::Client::new(&t.server.base_url, &raw.api_key, Duration::from_secs(10)).expect("client");
    let all = direct.all_contacts(Default::default()).await.expect("all");
    let mut a: Vec<&str> = all.iter().map(|c| c.uuid.as_str()).collect();
    let mut b: Vec<&str> = contacts.iter().filter_map(|c| c["uuid"].as_str()).collect();
    let order: Vec<&str> = b.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b, "every contact of the account, once");
    // The service sends no activity: its list's order is the only word
    // on it (most recent conversation first), and the snapshot keeps it.
    let listed: Vec<&str> = all.iter().map(|c| c.uuid.as_str()).collect();
    assert_eq!(order, listed, "the list's order: most recent conversation first");
    let cursor = head["cursor"].as_u64().expect("cursor");
    presence(&t.dana, "after-1", "viewing").await;
    let mut lee = t.lee.events(Some(cursor)).await;
    let ev = lee.next().await.expect("an event");
    assert_eq!(ev.data["contact"], "after-1", "what came after the snapshot: {ev:?}");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconciliation_finds_a_change_no_webhook_told_and_a_restart_needs_no_full_walk() {
    let server = common::spawn(support::server_config()).await;
    let raw = common::Raw::new(&server);
    let t = support::team_on(server, |c| c.reconcile_every = Duration::from_millis(100)).await;
    support::wait_for_contacts(&t.dana, 30).await;
    let uuid = raw.ok("/contacts").await["contacts"][0]["uuid"]
        .as_str()
        .expect("uuid")
        .to_string();
    let mut lee = t.lee.events(None).await;
    let (st, _) = raw
        .call(
            reqwest::Method::PATCH,
            &format!("/contacts/{uuid}"),
            Some(json!({ "name": "Behind your back" })),
        )
        .await;
    assert_eq!(st, StatusCode::OK);
    let ev = lee.next_of("contact_changed").await;
    assert_eq!(ev.data["contact"]["name"], "Behind your back");
    let config = support::config(t.dir.path(), &t.server);
    t.hub.stop().await;
    let hub = support::start_hub(config).await;
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while hub.state.counters.passes.load(Ordering::Relaxed) == 0 {
        assert!(tokio::time::Instant::now() < deadline, "no pass after the restart");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        hub.state.counters.full_walks.load(Ordering::Relaxed),
        0,
        "the restart walked everything again"
    );
    hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_walk_that_changes_many_contacts_is_one_resync_not_an_event_each() {
    let t = support::team_with(30, |c| c.bulk = 10).await;
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while t.hub.state.counters.passes.load(Ordering::Relaxed) == 0 {
        assert!(tokio::time::Instant::now() < deadline, "the first walk never ended");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let bus = &t.hub.state.bus;
    assert_eq!(
        bus.oldest_id(),
        Some(bus.last_id()),
        "the first walk of 30 contacts sent one event, not one per contact"
    );
    let mut lee = t.lee.events(Some(bus.last_id() - 1)).await;
    let ev = lee.next().await.expect("the walk's event");
    assert_eq!(ev.kind, "resync", "{ev:?}");
    assert!(ev.data["changed"].as_u64().is_some_and(|n| n >= 30), "{ev:?}");
    // The stream goes on after it: a later change is an event of its own.
    assert_eq!(presence(&t.dana, "c-1", "viewing").await, StatusCode::NO_CONTENT);
    assert_eq!(lee.next().await.expect("presence").kind, "presence");
    support::wait_for_contacts(&t.lee, 30).await;
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_taken_before_the_first_walk_ends_says_so_and_a_resync_follows() {
    let mut cfg = common::config(120, 5);
    // Slow enough that the hub's first walk is under way when asked.
    cfg.latency_ms = 150;
    let server = common::spawn(cfg).await;
    let t = support::team_on(server, |_| {}).await;
    let mut events = t.lee.events(None).await;
    let head = |text: &str| -> Value { serde_json::from_str(text.lines().next().expect("a head")).expect("json") };
    let early = head(&t.lee.snapshot_text().await);
    assert_eq!(early["complete"], json!(false), "{early}");
    let ev = events.next_of("resync").await;
    assert!(ev.data["reason"].is_string(), "{:?}", ev.data);
    let late = head(&t.lee.snapshot_text().await);
    assert_eq!(late["complete"], json!(true), "{late}");
    t.hub.stop().await;
}

/// Against a service that pages as the documentation shows (`page` only,
/// no `meta`, 20 a page), the hub still walks the whole account: 45
/// contacts over three pages reach an agent's snapshot, each once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hub_in_front_of_a_page_only_service_walks_the_whole_account() {
    let server = common::spawn(frontdesk::server::ServerConfig {
        paging: frontdesk::server::Paging::Docs,
        ..common::config(45, 42)
    })
    .await;
    let t = support::team_on(server, |_| {}).await;
    support::wait_for_contacts(&t.dana, 45).await;
    let text = t.lee.snapshot_text().await;
    let mut lines = text.lines();
    let head: Value = serde_json::from_str(lines.next().expect("head")).expect("json");
    let mut uuids: Vec<String> = lines
        .map(|l| serde_json::from_str::<Value>(l).expect("a contact a line"))
        .filter_map(|c| c["uuid"].as_str().map(str::to_string))
        .collect();
    assert_eq!(head["contacts"], json!(45), "{head}");
    uuids.sort();
    uuids.dedup();
    assert_eq!(uuids.len(), 45, "each contact once");
    t.hub.stop().await;
}
