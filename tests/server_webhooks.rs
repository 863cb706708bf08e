//! The embedded server's webhooks: subscribe, deliver every kind (unsigned,
//! as the documented service; signed only when configured),
//! retry a failing receiver, unsubscribe, refuse non-loopback receivers and
//! drop deliveries on demand. Every receiver is an axum router bound on
//! 127.0.0.1:0 inside the test.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use frontdesk::server::{Clock, RunningServer, ServerConfig};
use frontdesk::webhook;
use reqwest::Method;
use serde_json::{Value, json};

mod common;

/// What the receiver saw: the signature header and the raw body, in order.
#[derive(Default)]
struct Seen {
    got: Mutex<Vec<(Option<String>, Vec<u8>)>>,
    /// Requests still to refuse with a 500 before answering 200.
    fail_first: AtomicU32,
    requests: AtomicU32,
}

async fn hook(State(seen): State<Arc<Seen>>, headers: HeaderMap, body: axum::body::Bytes) -> StatusCode {
    seen.requests.fetch_add(1, Ordering::SeqCst);
    let refuse = seen
        .fail_first
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok();
    if refuse {
        return StatusCode::INTERNAL_SERVER_ERROR;
    }
    let sig = headers
        .get(webhook::SIGNATURE_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    seen.got.lock().unwrap().push((sig, body.to_vec()));
    StatusCode::OK
}

/// A receiver on 127.0.0.1:0; its URL and what it saw.
async fn receiver(fail_first: u32) -> (String, Arc<Seen>) {
    let seen = Arc::new(Seen::default());
    seen.fail_first.store(fail_first, Ordering::SeqCst);
    let app = axum::Router::new()
        .route("/hook", axum::routing::post(hook))
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, seen)
}

/// Unsigned, as the documented service; signing is tested in
/// `tests/server/webhook_docs.rs`.
fn config() -> ServerConfig {
    ServerConfig {
        contacts: 30,
        clock: Clock::manual(),
        webhook_backoff_ms: 10,
        webhook_attempts: 6,
        ..ServerConfig::default()
    }
}

const ALL: [&str; 8] = [
    "message_created",
    "message_status_updated",
    "contact_created",
    "contact_updated",
    "contact_deleted",
    "conversation_opened",
    "conversation_closed",
    "agent_status_updated",
];

async fn subscribe(raw: &common::Raw, url: &str) {
    let (st, v) = raw
        .call(
            Method::POST,
            "/webhooks/subscribe",
            Some(json!({ "url": url, "subscriptions": ALL })),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["webhook"]["url"], url);
    assert_eq!(v["webhook"]["subscriptions"], json!(ALL));
}

/// The deliveries seen so far, as `(signature, body)`; waits (bounded)
/// until at least `n` arrived.
async fn wait_for(seen: &Seen, n: usize) -> Vec<(Option<String>, Value)> {
    for _ in 0..500 {
        if seen.got.lock().unwrap().len() >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    seen.got
        .lock()
        .unwrap()
        .iter()
        .map(|(s, b)| (s.clone(), serde_json::from_slice(b).unwrap()))
        .collect()
}

async fn new_contact(raw: &common::Raw, phone: &str) -> Value {
    let (st, v) = raw
        .call(
            Method::POST,
            "/contacts",
            Some(json!({ "identifier": phone, "source": "whatsapp", "name": "Hook Person" })),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    v["contact"][0].clone()
}

/// The event log's entries made at or after `since_ms` (the seed's own
/// history lies before the server started), newest first.
async fn log_since(raw: &common::Raw, since_ms: i64) -> Vec<Value> {
    let log = raw.ok("/webhooks/events?items=100").await;
    log["webhook_events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            let at = chrono::DateTime::parse_from_rfc3339(e["createdAt"].as_str().unwrap()).unwrap();
            at.timestamp_millis() >= since_ms
        })
        .cloned()
        .collect()
}

async fn stop(s: RunningServer) {
    s.stop().await;
}

/// A template send to `contact` (from its channel), as documented.
fn template_send(contact: &Value, template: &Value) -> Value {
    json!({ "to": contact["phoneNumber"], "from": contact["channel"]["type"], "type": "text",
            "channel_uuid": contact["channel"]["uuid"], "content": { "text": "Ana" },
            "template_uuid": template["uuid"], "optin_contact": true })
}

#[tokio::test]
async fn every_kind_reaches_the_subscriber_unsigned_and_in_order() {
    let cfg = config();
    let clock = cfg.clock.clone();
    let since = clock.now_ms();
    let s = common::spawn(cfg).await;
    let raw = common::Raw::new(&s);
    let (url, seen) = receiver(0).await;
    subscribe(&raw, &url).await;

    let c = new_contact(&raw, "+4915100000077").await;
    let uuid = c["uuid"].as_str().unwrap().to_string();
    let (st, _) = raw
        .call(
            Method::PATCH,
            &format!("/contacts/{uuid}"),
            Some(json!({ "name": "Renamed" })),
        )
        .await;
    assert_eq!(st, StatusCode::OK);
    let (st, _) = raw
        .call(Method::POST, &format!("/contacts/{uuid}/conversation/close"), None)
        .await;
    assert_eq!(st, StatusCode::OK);
    let (st, _) = raw
        .call(Method::POST, &format!("/contacts/{uuid}/conversation/open"), None)
        .await;
    assert_eq!(st, StatusCode::OK);
    let templates = raw.ok("/templates").await["templates"].as_array().unwrap().clone();
    let approved = templates.iter().find(|t| t["status"] == "approved").unwrap();
    let (st, v) = raw
        .call(Method::POST, "/messages/send", Some(template_send(&c, approved)))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let message = v["message"]["uuid"].as_str().unwrap().to_string();
    clock.advance(Duration::from_secs(3));
    let (st, _) = raw.get(&format!("/messages/status/{message}")).await;
    assert_eq!(st, StatusCode::OK);
    // The status goes out (polled, or by the server's own tick) before the next write.
    wait_for(&seen, 6).await;
    let user = s.manifest.users[0].uuid.clone();
    let (st, _) = raw
        .call(
            Method::PUT,
            &format!("/users/{user}/status"),
            Some(json!({ "available": false })),
        )
        .await;
    assert_eq!(st, StatusCode::OK);

    let got = wait_for(&seen, 7).await;
    let kinds: Vec<&str> = got.iter().map(|(_, b)| b["event"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "contact_created",
            "contact_updated",
            "conversation_closed",
            "conversation_opened",
            "message_created",
            "message_status_updated",
            "agent_status_updated"
        ]
    );
    for (sig, body) in &got {
        assert_eq!(sig, &None, "the documented service signs nothing: {body}");
        assert!(body["payload"].is_object(), "{body}");
    }
    assert_eq!(got[0].1["payload"]["uuid"], uuid.as_str());
    assert_eq!(got[1].1["payload"]["name"], "Renamed");
    assert!(got[2].1["payload"].get("closingReason").is_some(), "{}", got[2].1);
    assert!(got[2].1["payload"]["closedAt"].is_string());
    assert_eq!(got[2].1["payload"]["contact"]["uuid"], uuid.as_str());
    let created = &got[4].1["payload"];
    assert!(created.get("uuid").is_none(), "no message uuid: {created}");
    assert_eq!(created["contact"]["uuid"], uuid.as_str());
    let status = &got[5].1["payload"];
    assert_eq!(status["uuid"], message.as_str());
    assert_eq!(status["status"], "sent");
    assert_eq!(status["contact"]["uuid"], uuid.as_str());
    assert_eq!(got[6].1["payload"]["email"], s.manifest.users[0].email.as_str());
    let _ = &user;

    // Every delivery is in the event log, as a success.
    let log = log_since(&raw, since).await;
    assert_eq!(log.len(), 7, "{log:?}");
    assert!(log.iter().all(|e| e["success"] == true && e["response"]["code"] == 200));
    stop(s).await;
}

#[tokio::test]
async fn a_receiver_failing_twice_gets_the_event_on_the_third_attempt() {
    let cfg = config();
    let since = cfg.clock.now_ms();
    let s = common::spawn(cfg).await;
    let raw = common::Raw::new(&s);
    let (url, seen) = receiver(2).await;
    subscribe(&raw, &url).await;
    let c = new_contact(&raw, "+4915100000078").await;

    let got = wait_for(&seen, 1).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].1["event"], "contact_created");
    assert_eq!(got[0].1["payload"]["uuid"], c["uuid"]);
    assert_eq!(seen.requests.load(Ordering::SeqCst), 3);
    // Each attempt is logged: two failures, then the success.
    let log = log_since(&raw, since).await;
    let results: Vec<(bool, i64)> = log
        .iter()
        .map(|e| (e["success"].as_bool().unwrap(), e["response"]["code"].as_i64().unwrap()))
        .collect();
    assert_eq!(results, [(true, 200), (false, 500), (false, 500)], "{log:?}");
    stop(s).await;
}

#[tokio::test]
async fn unsubscribe_stops_deliveries() {
    let s = common::spawn(config()).await;
    let raw = common::Raw::new(&s);
    let (url, seen) = receiver(0).await;
    subscribe(&raw, &url).await;
    new_contact(&raw, "+4915100000079").await;
    assert_eq!(wait_for(&seen, 1).await.len(), 1);

    let (st, v) = raw.call(Method::DELETE, "/webhooks/unsubscribe", None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v, json!({ "status": "webhook was destroyed" }));
    new_contact(&raw, "+4915100000080").await;
    // A second receiver subscribed afterwards proves the queue moved past
    // the event created while nobody was subscribed.
    let (url2, seen2) = receiver(0).await;
    subscribe(&raw, &url2).await;
    let c3 = new_contact(&raw, "+4915100000081").await;
    let got2 = wait_for(&seen2, 1).await;
    assert_eq!(got2.len(), 1);
    assert_eq!(got2[0].1["payload"]["uuid"], c3["uuid"]);
    assert_eq!(seen.got.lock().unwrap().len(), 1, "the first receiver got nothing more");
    stop(s).await;
}

#[tokio::test]
async fn drop_one_delivers_nothing_but_logs_every_event() {
    let (url, seen) = receiver(0).await;
    let cfg = config();
    let since = cfg.clock.now_ms();
    let s = common::spawn(ServerConfig {
        webhook_url: Some(url),
        drop_webhooks: 1.0,
        ..cfg
    })
    .await;
    let raw = common::Raw::new(&s);
    for i in 0..3 {
        new_contact(&raw, &format!("+49151000001{i}")).await;
    }
    // The log records the three events once the worker has passed them.
    let mut events = Vec::new();
    for _ in 0..500 {
        events = log_since(&raw, since).await;
        if events.len() >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(events.iter().all(|e| e["event"] == "contact_created"));
    assert_eq!(seen.requests.load(Ordering::SeqCst), 0, "nothing was delivered");
    stop(s).await;
}

#[tokio::test]
async fn a_contact_deleted_outside_the_api_reaches_the_subscriber() {
    let s = common::spawn(config()).await;
    let raw = common::Raw::new(&s);
    let (url, seen) = receiver(0).await;
    subscribe(&raw, &url).await;
    let c = new_contact(&raw, "+4915100000090").await;
    let uuid = c["uuid"].as_str().unwrap();

    assert!(s.delete_contact(uuid).await.unwrap(), "it existed");
    assert!(!s.delete_contact(uuid).await.unwrap(), "already gone");
    let got = wait_for(&seen, 2).await;
    assert_eq!(got.len(), 2);
    assert_eq!(got[1].1["event"], "contact_deleted");
    assert_eq!(got[1].1["payload"]["uuid"], uuid);
    let (st, _) = raw.get(&format!("/contacts/{uuid}")).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    stop(s).await;
}

#[tokio::test]
async fn delivery_statuses_reach_the_subscriber_without_anyone_polling() {
    let s = common::spawn(ServerConfig {
        clock: Clock::system(),
        status_step_ms: 20,
        ..config()
    })
    .await;
    let raw = common::Raw::new(&s);
    let (url, seen) = receiver(0).await;
    subscribe(&raw, &url).await;
    let c = new_contact(&raw, "+4915100000091").await;
    let templates = raw.ok("/templates").await["templates"].as_array().unwrap().clone();
    let approved = templates.iter().find(|t| t["status"] == "approved").unwrap();
    let (st, v) = raw
        .call(Method::POST, "/messages/send", Some(template_send(&c, approved)))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let got = wait_for(&seen, 5).await;
    let statuses: Vec<&str> = got
        .iter()
        .filter(|(_, b)| b["event"] == "message_status_updated")
        .map(|(_, b)| b["payload"]["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["sent", "delivered", "read"]);
    stop(s).await;
}

/// A receiver that holds every request until released.
async fn stuck_receiver() -> (String, Arc<Seen>, Arc<tokio::sync::Notify>) {
    let seen = Arc::new(Seen::default());
    let release = Arc::new(tokio::sync::Notify::new());
    let (s2, r2) = (seen.clone(), release.clone());
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |body: axum::body::Bytes| {
            let (seen, release) = (s2.clone(), r2.clone());
            async move {
                seen.requests.fetch_add(1, Ordering::SeqCst);
                release.notified().await;
                seen.got.lock().unwrap().push((None, body.to_vec()));
                StatusCode::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, seen, release)
}

#[tokio::test]
async fn a_full_queue_drops_and_logs_instead_of_growing() {
    let cfg = config();
    let since = cfg.clock.now_ms();
    let s = common::spawn(ServerConfig {
        webhook_queue: 1,
        webhook_timeout: Duration::from_secs(60),
        ..cfg
    })
    .await;
    let raw = common::Raw::new(&s);
    let (url, seen, release) = stuck_receiver().await;
    subscribe(&raw, &url).await;
    let a = new_contact(&raw, "+4915100000092").await;
    // The worker holds A at the receiver; B waits in the queue; C finds it full.
    for _ in 0..500 {
        if seen.requests.load(Ordering::SeqCst) >= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(seen.requests.load(Ordering::SeqCst), 1);
    let b = new_contact(&raw, "+4915100000093").await;
    new_contact(&raw, "+4915100000094").await;
    let log = log_since(&raw, since).await;
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0]["success"], false);
    assert_eq!(log[0]["response"]["body"]["error"], "delivery queue full");

    release.notify_one();
    for _ in 0..500 {
        if seen.requests.load(Ordering::SeqCst) >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    release.notify_one();
    let got = wait_for(&seen, 2).await;
    let uuids: Vec<&Value> = got.iter().map(|(_, b)| &b["payload"]["uuid"]).collect();
    assert_eq!(uuids, [&a["uuid"], &b["uuid"]]);
    stop(s).await;
}

#[tokio::test]
async fn a_restart_on_the_same_database_keeps_the_subscription_and_its_absence() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = || ServerConfig {
        db: Some(dir.path().join("server.sqlite")),
        api_key: Some("fd_restart_key".into()),
        ..config()
    };
    let (url, seen) = receiver(0).await;
    let s = common::spawn(cfg()).await;
    subscribe(&common::Raw::new(&s), &url).await;
    stop(s).await;

    let s = common::spawn(cfg()).await;
    let raw = common::Raw::new(&s);
    let c = new_contact(&raw, "+4915100000090").await;
    let got = wait_for(&seen, 1).await;
    assert_eq!(got.len(), 1, "the restarted server still delivers");
    assert_eq!(got[0].1["payload"]["uuid"], c["uuid"]);
    let (st, _) = raw.call(Method::DELETE, "/webhooks/unsubscribe", None).await;
    assert_eq!(st, StatusCode::OK);
    stop(s).await;

    // Unsubscribed, then restarted: the event is logged with the simulated
    // receiver's answer and never reaches the old one.
    let s = common::spawn(cfg()).await;
    let raw = common::Raw::new(&s);
    let before = raw.ok("/webhooks/events?items=1").await;
    new_contact(&raw, "+4915100000091").await;
    let after = raw.ok("/webhooks/events?items=1").await;
    assert_ne!(before, after, "the event was logged at once (no queue)");
    assert_eq!(
        seen.got.lock().unwrap().len(),
        1,
        "nothing more reached the old receiver"
    );
    stop(s).await;
}
