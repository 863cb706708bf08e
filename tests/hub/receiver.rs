//! The webhook receiver: signatures, bad input, redeliveries, order.

use std::sync::atomic::Ordering;

use chrono::{Duration as Span, SecondsFormat, Utc};
use frontdesk::index::IndexAccess;
use frontdesk::webhook;
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::common;
use super::support::{self, Team};

const SECRET: &str = "whsec_test";

async fn signed_team() -> Team {
    let t = support::team_with(30, |c| c.webhook_secret = Some(SECRET.into())).await;
    support::wait_for_contacts(&t.dana, 30).await;
    t
}

async fn deliver(t: &Team, body: &[u8], signature: Option<String>) -> (StatusCode, Value) {
    let mut req = reqwest::Client::new()
        .post(t.hub.hook_url())
        .header("content-type", "application/json")
        .body(body.to_vec());
    if let Some(s) = signature {
        req = req.header(webhook::SIGNATURE_HEADER, s);
    }
    let resp = req.send().await.expect("answer");
    let st = resp.status();
    (st, resp.json().await.unwrap_or(Value::Null))
}

async fn deliver_signed(t: &Team, body: &Value) -> (StatusCode, Value) {
    let bytes = body.to_string().into_bytes();
    let sig = webhook::sign(SECRET.as_bytes(), Utc::now().timestamp(), &bytes);
    deliver(t, &bytes, Some(sig)).await
}

/// A contact of the account as the service shows it, renamed.
async fn contact(t: &Team, i: usize, name: &str) -> Value {
    let raw = common::Raw::new(&t.server);
    let mut c = raw.ok("/contacts").await["contacts"][i].clone();
    c["name"] = json!(name);
    c
}

/// `minutes` from now, as the service writes times.
fn from_now(minutes: i64) -> String {
    (Utc::now() + Span::minutes(minutes)).to_rfc3339_opts(SecondsFormat::Secs, true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_signed_deliveries_inside_the_window_are_applied() {
    let t = signed_team().await;
    let mut lee = t.lee.events(None).await;
    let bad = json!({ "event": "contact_updated", "payload": contact(&t, 0, "Forged").await });
    let bytes = bad.to_string().into_bytes();
    let now = Utc::now().timestamp();
    let wrong = webhook::sign(b"another secret", now, &bytes);
    let stale = webhook::sign(SECRET.as_bytes(), now - 6 * 60, &bytes);
    for sig in [None, Some(wrong), Some(stale)] {
        let (st, _) = deliver(&t, &bytes, sig).await;
        assert_eq!(st, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(t.hub.state.counters.bad_signatures.load(Ordering::Relaxed), 3);
    let good = json!({ "event": "contact_updated", "payload": contact(&t, 1, "Renamed").await });
    let (st, _) = deliver_signed(&t, &good).await;
    assert_eq!(st, StatusCode::OK);
    let ev = lee.next_of("contact_changed").await;
    assert_eq!(ev.data["contact"]["name"], "Renamed", "the forged ones changed nothing");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_bodies_get_clear_answers_and_unknown_kinds_are_ignored() {
    let t = signed_team().await;
    let big = vec![b' '; 1024 * 1024 + 10];
    let (st, _) = deliver(&t, &big, None).await;
    assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE);
    let junk = b"{not json".to_vec();
    let sig = webhook::sign(SECRET.as_bytes(), Utc::now().timestamp(), &junk);
    let (st, v) = deliver(&t, &junk, Some(sig)).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(v["error"].is_string());
    let mut lee = t.lee.events(None).await;
    let (st, _) = deliver_signed(&t, &json!({ "event": "\u{1b}[2Jweird_kind", "payload": { "x": 1 } })).await;
    assert_eq!(
        st,
        StatusCode::OK,
        "an unknown kind is accepted, so the service does not retry it"
    );
    let marker = json!({ "event": "contact_updated", "payload": contact(&t, 2, "Marker").await });
    deliver_signed(&t, &marker).await;
    let ev = lee.next().await.expect("an event");
    assert_eq!(
        ev.data["contact"]["name"], "Marker",
        "nothing came of the unknown kind: {ev:?}"
    );
    assert_eq!(t.hub.state.counters.unknown_kinds.load(Ordering::Relaxed), 1);
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redelivery_is_ignored_and_an_older_event_never_overwrites_a_newer_one() {
    let t = signed_team().await;
    let mut lee = t.lee.events(None).await;
    let newer = json!({ "event": "contact_updated", "payload": contact(&t, 0, "Newer").await });
    assert_eq!(deliver_signed(&t, &newer).await.0, StatusCode::OK);
    let (st, v) = deliver_signed(&t, &newer).await;
    assert_eq!((st, v["duplicate"].clone()), (StatusCode::OK, json!(true)));
    // The documented contact carries no time (no lastMessageAt): what
    // dates a delivery is a message's `createdAt`, and deliveries come in
    // any order. A later message delivered first stays the last one.
    let uuid = newer["payload"]["uuid"].as_str().unwrap_or_default().to_string();
    let message = |text: &str, minutes: i64| {
        json!({ "event": "message_created", "payload": { "to": "+1", "from": "+2", "text": text,
            "status": "received", "createdAt": from_now(minutes), "contact": { "uuid": uuid } } })
    };
    let later = message("Later", -1);
    assert_eq!(deliver_signed(&t, &later).await.0, StatusCode::OK);
    assert_eq!(deliver_signed(&t, &message("Earlier", -2)).await.0, StatusCode::OK);
    // Deliveries are worked in order: once the marker is out, the rest is done.
    let marker = json!({ "event": "contact_updated", "payload": contact(&t, 3, "Marker").await });
    deliver_signed(&t, &marker).await;
    let names: Vec<Value> = [
        lee.next_of("contact_changed").await,
        lee.next_of("contact_changed").await,
    ]
    .iter()
    .map(|e| e.data["contact"]["name"].clone())
    .collect();
    assert_eq!(names, vec![json!("Newer"), json!("Marker")], "one Newer");
    let (_, v) = t.dana.json(&format!("/v1/contacts/{uuid}")).await;
    assert_eq!(v["contact"][0]["name"], "Newer");
    let mut index = t.hub.state.index.clone();
    let held = index.with(|ix| ix.get(&uuid)).expect("get").expect("held");
    let at = chrono::DateTime::parse_from_rfc3339(later["payload"]["createdAt"].as_str().unwrap_or_default())
        .expect("a time");
    assert_eq!(
        held.last_activity(),
        Some(at.with_timezone(&Utc)),
        "the later message's time"
    );
    let previews = index.with(|ix| ix.previews(&[uuid.as_str()])).expect("previews");
    assert_eq!(
        previews[&uuid].text, "Later",
        "the earlier message did not overwrite it"
    );
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bare_payloads_and_the_embedded_servers_form_are_understood() {
    let t = signed_team().await;
    let mut lee = t.lee.events(None).await;
    let c = contact(&t, 0, "Bare").await;
    deliver_signed(&t, &c).await;
    assert_eq!(lee.next_of("contact_changed").await.data["contact"]["name"], "Bare");
    let c2 = contact(&t, 1, "Data form").await;
    deliver_signed(
        &t,
        &json!({ "event": "contact_updated", "payload": "contact_object", "data": c2 }),
    )
    .await;
    assert_eq!(
        lee.next_of("contact_changed").await.data["contact"]["name"],
        "Data form"
    );
    let c3 = contact(&t, 2, "Writer").await;
    let message = json!({ "to": "+1", "from": "+2", "text": "hello", "status": "received",
        "createdAt": Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true), "contact": c3 });
    deliver_signed(&t, &message).await;
    let ev = lee.next_of("message_created").await;
    assert_eq!(ev.data["contact"], c3["uuid"]);
    assert_eq!(ev.data["message"]["text"], "hello");
    assert_eq!(ev.data["agent"], Value::Null);
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_event_without_its_contact_is_matched_by_phone_and_its_statuses_follow() {
    let t = signed_team().await;
    let mut lee = t.lee.events(None).await;
    let c = contact(&t, 4, "unchanged").await;
    let message = json!({ "event": "message_created", "payload": {
        "uuid": "m-1", "text": "where is my order?", "status": "received",
        "from": c["phoneNumber"], "to": "+10000000000", "createdAt": c["lastMessageAt"] } });
    assert_eq!(deliver_signed(&t, &message).await.0, StatusCode::OK);
    let ev = lee.next_of("message_created").await;
    assert_eq!(ev.data["contact"], c["uuid"]);
    let status = json!({ "event": "message_status_updated", "payload": { "uuid": "m-1", "status": "read" } });
    deliver_signed(&t, &status).await;
    let ev = lee.next_of("message_status").await;
    assert_eq!(
        ev.data,
        json!({ "contact": c["uuid"], "message": "m-1", "status": "read" })
    );
    t.hub.stop().await;
}
