//! Deliveries in the documented shapes (the service's public
//! documentation's examples): short contacts merged, never stored whole;
//! Conversation payloads; the secret hook path; what the service does not
//! vouch for is confirmed by REST; caps; redeliveries across restarts;
//! `--forward-to`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use frontdesk::api::{Contact, ContactId};
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::support::{self, Agent, PATIENCE, Team};

/// The contacts the hub's snapshot holds.
async fn held(agent: &Agent) -> Vec<Contact> {
    let text = agent.snapshot_text().await;
    text.lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Contact>(l).expect("a contact line"))
        .collect()
}

async fn held_one(agent: &Agent, uuid: &str) -> Option<Contact> {
    held(agent).await.into_iter().find(|c| c.uuid == uuid)
}

/// The short contact of the documented payloads, for `c`.
fn short(c: &Contact, name: &str) -> Value {
    json!({
        "href": format!("https://dash.callbell.eu/contacts/{}", c.uuid),
        "conversationHref": format!("https://dash.callbell.eu/chat/{}", c.uuid),
        "name": name,
        "tags": c.tags,
        "uuid": c.uuid,
        "source": c.source,
        "avatarUrl": null,
        "createdAt": c.created_at.map(|t| t.to_rfc3339()),
        "phoneNumber": c.phone_number,
    })
}

async fn post(url: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let resp = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("answer");
    let st = resp.status();
    (st, resp.json().await.unwrap_or(Value::Null))
}

async fn deliver(t: &Team, body: &Value) -> (StatusCode, Value) {
    post(&t.hub.hook_url(), body.to_string().into_bytes()).await
}

async fn walked() -> Team {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    t
}

/// Waits until `check` holds for the contact as the hub holds it.
async fn until_held(agent: &Agent, uuid: &str, what: &str, check: impl Fn(&Contact) -> bool) -> Contact {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        if let Some(c) = held_one(agent, uuid).await
            && check(&c)
        {
            return c;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hub never held {uuid} {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_message_keeps_the_assignee_fields_team_and_closed_state_for_everyone() {
    let t = walked().await;
    let c = held(&t.dana)
        .await
        .into_iter()
        .find(|c| c.assigned_user.is_some() && c.team_uuid().is_some() && !c.custom_fields.is_empty())
        .expect("a seeded contact with an assignee, a team and fields");
    if c.is_open() {
        t.dana
            .client()
            .close_conversation(&ContactId::from(c.uuid.as_str()))
            .await
            .expect("closed through the hub");
    }
    let before = until_held(&t.dana, &c.uuid, "closed", |c| !c.is_open()).await;
    let mut lee = t.lee.events(None).await;
    // The documentation's message_created example, for this contact.
    let message = json!({ "event": "message_created", "payload": {
        "to": "331122334455", "from": c.phone_number, "text": "Hello", "status": "received",
        "channel": "whatsapp", "contact": short(&c, "John Doe"),
        "createdAt": chrono::Utc::now().to_rfc3339() } });
    assert_eq!(deliver(&t, &message).await.0, StatusCode::OK);
    let ev = lee.next_of("message_created").await;
    assert_eq!(ev.data["contact"], json!(c.uuid));
    assert_eq!(ev.data["message"]["text"], "Hello");
    let after = until_held(&t.lee, &c.uuid, "renamed", |c| c.name == "John Doe").await;
    assert_eq!(after.assigned_user, before.assigned_user, "the assignee stays");
    assert_eq!(after.custom_fields, before.custom_fields, "the custom fields stay");
    assert_eq!(after.team_uuid(), before.team_uuid(), "the team stays");
    assert_eq!(after.closed_at, before.closed_at, "the conversation stays closed");
    assert_eq!(after.note, before.note);
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversation_closed_is_stored_closed_with_its_reason() {
    let t = walked().await;
    let c = held(&t.dana)
        .await
        .into_iter()
        .find(Contact::is_open)
        .expect("an open contact");
    // Closed on the service by someone else; its delivery reaches the hub.
    let raw = super::common::Raw::new(&t.server);
    let (st, closed) = raw
        .call(
            reqwest::Method::POST,
            &format!("/contacts/{}/conversation/close", c.uuid),
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{closed}");
    let mut lee = t.lee.events(None).await;
    let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let body = json!({ "event": "conversation_closed", "payload": {
        "source": "whatsapp", "href": format!("https://dash.callbell.eu/chat/{}", c.uuid),
        "contact": short(&c, &c.name), "closingReason": "issue_resolved",
        "createdAt": "2023-11-20T17:14:22Z", "closedAt": at } });
    assert_eq!(deliver(&t, &body).await.0, StatusCode::OK);
    let ev = lee.next_of("conversation_closed").await;
    assert_eq!(ev.data["contact"], json!(c.uuid));
    assert_eq!(ev.data["reason"], "issue_resolved");
    let now = until_held(&t.dana, &c.uuid, "closed", |c| !c.is_open()).await;
    assert!(now.closed_at.is_some());
    assert_eq!(
        t.hub.state.store.closing_reason(&c.uuid).expect("read").as_deref(),
        Some("issue_resolved")
    );
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_contact_or_close_is_never_stored_nor_announced() {
    let t = walked().await;
    let contacts = held(&t.dana).await;
    let open = contacts.iter().find(|c| c.is_open()).expect("an open contact").clone();
    let marker = contacts.iter().find(|c| c.uuid != open.uuid).expect("another").clone();
    let mut lee = t.lee.events(None).await;
    let mut forged = open.clone();
    forged.uuid = "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0".into();
    let forged_contact = json!({ "event": "contact_created", "payload": short(&forged, "\u{1b}[2JForged") });
    let forged_message = json!({ "event": "message_created", "payload": {
        "to": "1", "from": "2", "text": "pay here", "status": "received", "channel": "whatsapp",
        "contact": short(&forged, "Forged"), "createdAt": chrono::Utc::now().to_rfc3339() } });
    // A close the service never made, of a real contact.
    let forged_close = json!({ "event": "conversation_closed", "payload": {
        "source": "whatsapp", "href": "x", "contact": short(&open, &open.name),
        "closingReason": "spam", "createdAt": "2023-11-20T17:14:22Z",
        "closedAt": chrono::Utc::now().to_rfc3339() } });
    for b in [&forged_contact, &forged_message, &forged_close] {
        assert_eq!(deliver(&t, b).await.0, StatusCode::OK);
    }
    // A real rename after them, on the marker's worker or another: wait
    // until every forged one was worked (each is counted refused).
    let rename = json!({ "event": "contact_updated", "payload": short(&marker, "Marker") });
    deliver(&t, &rename).await;
    let ev = lee.next().await.expect("an event");
    assert_eq!(ev.kind, "contact_changed", "nothing forged was announced: {ev:?}");
    assert_eq!(ev.data["contact"]["name"], "Marker");
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while t.hub.state.counters.refused.load(std::sync::atomic::Ordering::Relaxed) < 3 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the forged deliveries were never refused"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let now = held(&t.dana).await;
    assert!(
        now.iter().all(|c| c.uuid != forged.uuid),
        "the forged contact is not held"
    );
    let still = now.iter().find(|c| c.uuid == open.uuid).expect("held");
    assert!(still.is_open(), "the forged close was not stored");
    assert!(t.hub.state.counters.lookups.load(std::sync::atomic::Ordering::Relaxed) >= 2);
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_secret_path_takes_deliveries_and_connection_checks_get_ok() {
    let t = walked().await;
    let hook = t.hub.hook_url();
    let secret = hook.rsplit('/').next().expect("secret").to_string();
    let http = reqwest::Client::new();
    let c = held(&t.dana).await.remove(0);
    let body = json!({ "event": "contact_updated", "payload": short(&c, "Renamed") }).to_string();
    let wrong = [
        format!("{}/hooks/service", t.hub.url),
        format!("{}/hooks", t.hub.url),
        format!("{}/hooks/{}", t.hub.url, &secret[..63]),
        format!("{}/hooks/{secret}x", t.hub.url),
        format!("{}/hooks/{secret}/more", t.hub.url),
    ];
    for url in &wrong {
        let (st, _) = post(url, body.clone().into_bytes()).await;
        assert_eq!(st, StatusCode::NOT_FOUND, "{url}");
        let st = http.get(url).send().await.expect("answer").status();
        assert_eq!(st, StatusCode::NOT_FOUND, "{url}");
    }
    for req in [http.get(&hook), http.post(&hook), http.post(&hook).json(&json!({}))] {
        let r = req.send().await.expect("answer");
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.json::<Value>().await.expect("json"), json!({ "status": "ok" }));
    }
    assert_eq!(http.head(&hook).send().await.expect("answer").status(), StatusCode::OK);
    // Rotated: the old path stops at once.
    let new = frontdesk::webhook::path::rotate(t.dir.path()).expect("rotated");
    assert_eq!(post(&hook, body.clone().into_bytes()).await.0, StatusCode::NOT_FOUND);
    let (st, v) = post(&format!("{}/hooks/{new}", t.hub.url), body.into_bytes()).await;
    assert_eq!((st, v), (StatusCode::OK, json!({ "status": "ok" })));
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_big_body_is_413_and_a_time_in_the_future_is_refused() {
    let t = walked().await;
    let c = held(&t.dana).await.remove(0);
    let mut big = json!({ "event": "agent_status_updated", "payload": { "status": "x".repeat(256 * 1024) } });
    let (st, _) = deliver(&t, &big).await;
    assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE);
    big["payload"]["status"] = json!("x".repeat(255 * 1024));
    assert_eq!(deliver(&t, &big).await.0, StatusCode::OK, "just under the cap");
    let later = (chrono::Utc::now() + chrono::Duration::minutes(30)).to_rfc3339();
    let future = json!({ "event": "message_created", "payload": {
        "to": "1", "from": c.phone_number, "text": "from the future", "status": "received",
        "contact": short(&c, &c.name), "createdAt": later } });
    let (st, v) = deliver(&t, &future).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].as_str().is_some_and(|e| e.contains("future")));
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redelivery_after_a_restart_is_ignored() {
    let t = walked().await;
    let c = held(&t.dana).await.remove(0);
    let body = json!({ "event": "contact_updated", "payload": short(&c, "Once") });
    let (st, v) = deliver(&t, &body).await;
    assert_eq!((st, v.get("duplicate").cloned()), (StatusCode::OK, None));
    let hook = t.hub.hook_url();
    let path = hook.trim_start_matches(&t.hub.url).to_string();
    let Team { server, hub, dir, .. } = t;
    hub.stop().await;
    let hub = support::start_hub(support::config(dir.path(), &server)).await;
    assert_eq!(
        hub.hook_url().trim_start_matches(&hub.url),
        path,
        "the hook path is kept"
    );
    let (st, v) = post(&hub.hook_url(), body.to_string().into_bytes()).await;
    assert_eq!((st, v["duplicate"].clone()), (StatusCode::OK, json!(true)));
    hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forward_to_receives_each_delivery_as_received() {
    let got: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = got.clone();
    let app = axum::Router::new().route(
        "/crm",
        axum::routing::post(move |body: String| {
            let sink = sink.clone();
            async move {
                sink.lock().expect("lock").push(body);
                "ok"
            }
        }),
    );
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let crm = format!("http://{}/crm", l.local_addr().expect("addr"));
    let serving = tokio::spawn(async move {
        let _ = axum::serve(l, app).await;
    });
    let t = support::team_with(30, |cfg| cfg.forward_to = Some(crm.clone())).await;
    support::wait_for_contacts(&t.dana, 30).await;
    let contacts = held(&t.dana).await;
    let sent: Vec<String> = contacts[..3]
        .iter()
        .map(|c| json!({ "event": "contact_updated", "payload": short(c, "Forwarded") }).to_string())
        .collect();
    for b in &sent {
        assert_eq!(post(&t.hub.hook_url(), b.clone().into_bytes()).await.0, StatusCode::OK);
    }
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let mut seen = got.lock().expect("lock").clone();
        seen.sort();
        let mut want = sent.clone();
        want.sort();
        if seen == want {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the CRM got {seen:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    t.hub.stop().await;
    serving.abort();
}

fn webhook_cmd(dir: &std::path::Path, public: Option<&str>, cmd: &str) -> String {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_frontdesk"));
    c.env_remove("FRONTDESK_PROFILE")
        .env("FRONTDESK_CONFIG", dir.join("none.toml"))
        .arg("hub")
        .arg("--data-dir")
        .arg(dir);
    if let Some(p) = public {
        c.args(["--public-url", p]);
    }
    let out = c.args(["webhook", cmd]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn hub_webhook_url_prints_the_kept_hook_url_and_rotate_replaces_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = webhook_cmd(dir.path(), Some("https://hub.example.com/"), "url");
    let secret = url
        .strip_prefix("https://hub.example.com/hooks/")
        .expect("the hook URL");
    assert!(
        secret.len() == 64 && secret.bytes().all(|b| b.is_ascii_hexdigit()),
        "{url}"
    );
    assert_eq!(
        webhook_cmd(dir.path(), Some("https://hub.example.com"), "url"),
        url,
        "kept"
    );
    let rotated = webhook_cmd(dir.path(), None, "rotate");
    assert!(
        rotated.starts_with("/hooks/") && !rotated.ends_with(secret),
        "{rotated}"
    );
    assert_eq!(
        webhook_cmd(dir.path(), Some("https://hub.example.com"), "url"),
        format!("https://hub.example.com{rotated}")
    );
}
