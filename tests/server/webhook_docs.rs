//! Webhook deliveries in the documented shapes (key sets from the
//! documentation's example payloads), unsigned; the documented connection
//! checks; rich messages from the simulated activity.

use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::HeaderMap;

use super::*;

/// What the receiver saw: method, whether a signature came, and the body;
/// and each request's signature header and raw body.
#[derive(Default)]
struct Seen(Mutex<Vec<(String, bool, Value)>>, Mutex<Vec<(Option<String>, Vec<u8>)>>);

async fn hook(
    State(seen): State<Arc<Seen>>,
    method: axum::http::Method,
    headers: HeaderMap,
    raw: axum::body::Bytes,
) -> axum::Json<Value> {
    let body = serde_json::from_slice(&raw).unwrap_or(Value::Null);
    let sig = headers
        .get(frontdesk::webhook::SIGNATURE_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    seen.0.lock().unwrap().push((method.to_string(), sig.is_some(), body));
    seen.1.lock().unwrap().push((sig, raw.to_vec()));
    axum::Json(json!({ "status": "ok" }))
}

async fn receiver() -> (String, Arc<Seen>) {
    let seen = Arc::new(Seen::default());
    let app = axum::Router::new()
        .route("/hook", axum::routing::get(hook).post(hook))
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, seen)
}

/// The deliveries (POSTs) seen once `done` holds for them; bounded wait.
async fn wait_until(seen: &Seen, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    for _ in 0..1000 {
        let got: Vec<Value> = seen
            .0
            .lock()
            .unwrap()
            .iter()
            .filter(|(m, _, _)| m == "POST")
            .map(|(_, _, b)| b.clone())
            .collect();
        if done(&got) {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the deliveries never arrived");
}

/// No `lastMessageAt` anywhere in `v`: the service has none.
fn assert_no_last_message_at(v: &Value) {
    match v {
        Value::Object(m) => {
            assert!(!m.contains_key("lastMessageAt"), "{v}");
            m.values().for_each(assert_no_last_message_at);
        }
        Value::Array(a) => a.iter().for_each(assert_no_last_message_at),
        _ => {}
    }
}

fn keys(v: &Value) -> HashSet<String> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .cloned()
        .collect()
}

fn set(k: &[&str]) -> HashSet<String> {
    k.iter().map(|s| s.to_string()).collect()
}

const SHORT: [&str; 9] = [
    "href",
    "conversationHref",
    "name",
    "tags",
    "uuid",
    "source",
    "avatarUrl",
    "createdAt",
    "phoneNumber",
];

async fn subscribed(cfg: ServerConfig) -> (Srv, Arc<Seen>) {
    let srv = spawn(cfg).await;
    let (url, seen) = receiver().await;
    let (st, v) = srv
        .post(
            "/webhooks/subscribe",
            json!({ "url": url, "subscriptions": [
            "message_created", "message_status_updated", "contact_created", "contact_updated",
            "contact_deleted", "conversation_opened", "conversation_closed", "agent_status_updated"] }),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        keys(&v["webhook"]),
        set(&["url", "subscriptions", "createdAt", "enabled"])
    );
    assert_eq!(v["webhook"]["enabled"], true);
    (srv, seen)
}

fn of<'a>(got: &'a [Value], kind: &str) -> Vec<&'a Value> {
    got.iter()
        .filter(|b| b["event"] == kind)
        .map(|b| &b["payload"])
        .collect()
}

#[tokio::test]
async fn deliveries_carry_the_documented_shapes_unsigned() {
    let (srv, seen) = subscribed(ServerConfig {
        contacts: 30,
        status_step_ms: 20,
        ..Default::default()
    })
    .await;
    let (st, v) = srv
        .create(json!({ "identifier": "+4917000000001", "source": "whatsapp", "name": "Doc Shape" }))
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let c = v["contact"][0].clone();
    let uuid = c["uuid"].as_str().unwrap().to_string();
    srv.post(&format!("/contacts/{uuid}/conversation/close"), json!({}))
        .await;
    srv.post(&format!("/contacts/{uuid}/conversation/open"), json!({}))
        .await;
    assert!(
        srv.s
            .customer_sends_rich(&uuid, "Here I am", "messageLocation")
            .await
            .unwrap()
    );
    let send = json!({ "to": c["phoneNumber"], "from": c["channel"]["type"], "type": "text",
                       "channel_uuid": c["channel"]["uuid"], "content": { "text": "Got it" },
                       "metadata": { "order": "A-17" } });
    let (st, v) = srv.post("/messages/send", send).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let sent_uuid = v["message"]["uuid"].clone();
    let user = srv.s.manifest.users[0].uuid.clone();
    srv.put(&format!("/users/{user}/status"), json!({ "available": false }))
        .await;
    wait_until(&seen, |g| of(g, "message_status_updated").len() >= 3).await;
    srv.call(Method::DELETE, &format!("/contacts/{uuid}"), None).await;
    let got = wait_until(&seen, |g| !of(g, "contact_deleted").is_empty()).await;
    assert!(seen.0.lock().unwrap().iter().all(|(_, signed, _)| !signed), "unsigned");
    for body in &got {
        assert_eq!(keys(body), set(&["event", "payload"]), "{body}");
        assert_no_last_message_at(body);
    }

    let created = of(&got, "contact_created");
    assert_eq!(keys(created[0]), set(&SHORT), "{}", created[0]);
    let closed = of(&got, "conversation_closed")[0];
    assert_eq!(
        keys(closed),
        set(&["source", "href", "contact", "closingReason", "createdAt", "closedAt"])
    );
    assert!(closed["closedAt"].is_string());
    assert_eq!(keys(&closed["contact"]), set(&SHORT));
    let opened = of(&got, "conversation_opened")[0];
    assert!(!keys(opened).contains("closingReason"), "{opened}");
    assert_eq!(opened["contact"]["uuid"], uuid.as_str());

    let messages = of(&got, "message_created");
    let base = [
        "to",
        "from",
        "text",
        "attachments",
        "status",
        "channel",
        "contact",
        "createdAt",
    ];
    let received = messages.iter().find(|m| m["status"] == "received").unwrap();
    let mut want = set(&base);
    want.insert("messageLocation".into());
    assert_eq!(keys(received), want, "no message uuid: {received}");
    assert_eq!(keys(&received["contact"]), set(&SHORT));
    assert!(received["messageLocation"]["coordinates"]["x"].is_f64());
    let sent = messages.iter().find(|m| m["text"] == "Got it").unwrap();
    let mut want = set(&base);
    want.insert("metadata".into());
    assert_eq!(keys(sent), want, "{sent}");
    assert_eq!(sent["metadata"], json!({ "order": "A-17" }));
    assert_eq!(sent["attachments"], json!([]));

    let status = of(&got, "message_status_updated")
        .into_iter()
        .find(|s| s["uuid"] == sent_uuid)
        .unwrap();
    assert_eq!(
        keys(status),
        set(&["uuid", "status", "contact", "metadata", "messageStatusPayload"])
    );
    assert!(
        status["messageStatusPayload"]["payload"]["whatsappMessageId"].is_string(),
        "{status}"
    );
    assert_eq!(status["metadata"], json!({ "order": "A-17" }));

    let agent = of(&got, "agent_status_updated")[0];
    for k in ["email", "name", "available", "lastUpdatedAt"] {
        assert!(keys(agent).contains(k), "{agent}");
    }
    assert_eq!(agent["available"], false);
    let deleted = of(&got, "contact_deleted")[0];
    assert_eq!(keys(deleted), set(&["uuid", "deleted"]));
    assert_eq!(deleted["uuid"], uuid.as_str());
    srv.s.stop().await;
}

#[tokio::test]
async fn the_subscribed_receiver_gets_connection_checks() {
    let (srv, seen) = subscribed(ServerConfig {
        contacts: 10,
        webhook_check_interval: Duration::from_millis(30),
        ..Default::default()
    })
    .await;
    for _ in 0..1000 {
        if srv.s.webhook_checks().0 >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (checks, healthy) = srv.s.webhook_checks();
    assert!(checks >= 2, "checks: {checks}");
    assert_eq!(healthy, Some(true), "a 200 is healthy");
    assert!(
        seen.0
            .lock()
            .unwrap()
            .iter()
            .any(|(m, signed, _)| m == "GET" && !signed)
    );
    srv.s.stop().await;
}

#[tokio::test]
async fn simulated_activity_delivers_every_rich_kind() {
    let (srv, seen) = subscribed(ServerConfig {
        contacts: 20,
        activity: true,
        activity_interval_ms: 20,
        ..Default::default()
    })
    .await;
    let kinds = [
        "messageLocation",
        "messageContactCard",
        "mesageContext",
        "messageForward",
        "messageReplyButton",
        "messageInteractiveList",
    ];
    let has = |g: &[Value], k: &str| of(g, "message_created").iter().any(|m| m.get(k).is_some());
    let got = wait_until(&seen, |g| {
        kinds.iter().all(|k| has(g, k))
            && of(g, "message_created")
                .iter()
                .any(|m| m["attachments"].as_array().is_some_and(|a| !a.is_empty()))
    })
    .await;
    for m in of(&got, "message_created") {
        assert!(m.get("uuid").is_none(), "{m}");
        if let Some(list) = m.get("messageInteractiveList") {
            assert!(list["metadata"].is_string(), "a JSON string, as documented: {list}");
        }
        if let Some(card) = m.get("messageContactCard") {
            assert!(card["contactsInfo"][0]["phones"][0]["phone"].is_string(), "{card}");
        }
    }
    srv.s.stop().await;
}

#[tokio::test]
async fn deliveries_are_signed_only_when_configured() {
    let cfg = ServerConfig {
        contacts: 10,
        clock: Clock::manual(),
        webhook_secret: Some("whsec-test-0123".into()),
        ..Default::default()
    };
    let clock = cfg.clock.clone();
    let (srv, seen) = subscribed(cfg).await;
    srv.create(json!({ "identifier": "+4917000000002", "source": "whatsapp", "name": "Signed" }))
        .await;
    wait_until(&seen, |g| !g.is_empty()).await;
    let (sig, raw) = seen.1.lock().unwrap()[0].clone();
    assert_eq!(
        frontdesk::webhook::verify(sig.as_deref(), &raw, b"whsec-test-0123", clock.now_ms() / 1000),
        Ok(()),
        "signed when a secret is configured"
    );
    srv.s.stop().await;
}

#[tokio::test]
async fn a_subscription_is_refused_off_loopback_or_with_unknown_kinds() {
    let srv = spawn(ServerConfig {
        contacts: 10,
        ..Default::default()
    })
    .await;
    for (body, field) in [
        (
            json!({ "url": "https://example.com/hook", "subscriptions": ["message_created"] }),
            "url",
        ),
        (
            json!({ "url": "http://10.0.0.1/hook", "subscriptions": ["message_created"] }),
            "url",
        ),
        (json!({ "subscriptions": ["message_created"] }), "url"),
        (
            json!({ "url": "http://127.0.0.1:9/hook", "subscriptions": ["no_such_kind"] }),
            "subscriptions",
        ),
        (
            json!({ "url": "http://127.0.0.1:9/hook", "subscriptions": "message_created" }),
            "subscriptions",
        ),
    ] {
        let (st, v) = srv.post("/webhooks/subscribe", body.clone()).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body} -> {v}");
        assert!(v["error"][field].is_array(), "{body} -> {v}");
    }
    // Without the key: 401, as every other path.
    let resp = reqwest::Client::new()
        .post(format!("{}/webhooks/subscribe", srv.s.base_url))
        .json(&json!({ "url": "http://127.0.0.1:9/hook", "subscriptions": ["message_created"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    srv.s.stop().await;
}
