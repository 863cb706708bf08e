//! The service's paths through the hub: reads answered or forwarded,
//! writes forwarded, audited and broadcast.

use frontdesk::api::{ContactFilter, ContactId, PageRequest, SendMessage};
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::common;
use super::support;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_works_unchanged_against_the_hub_with_an_agent_token() {
    let t = support::team().await;
    let direct = frontdesk::api::Client::new(
        &t.server.base_url,
        &t.server.api_key,
        std::time::Duration::from_secs(10),
    )
    .expect("client");
    let via_hub = t.dana.client();
    let a = direct
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .expect("direct");
    let b = via_hub
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .expect("via hub");
    let uuids =
        |p: &frontdesk::api::Page<frontdesk::api::Contact>| p.items.iter().map(|c| c.uuid.clone()).collect::<Vec<_>>();
    assert_eq!(uuids(&a), uuids(&b));
    support::wait_for_contacts(&t.dana, 30).await;
    let id = ContactId::from(a.items[0].uuid.as_str());
    let one = via_hub.get_contact(&id, false).await.expect("one contact via the hub");
    assert_eq!(
        support::as_service(&one),
        direct.get_contact(&id, false).await.expect("direct"),
        "as the service holds it"
    );
    let templates = via_hub.list_templates(None).await.expect("templates are forwarded");
    assert!(!templates.items.is_empty());
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_close_is_forwarded_audited_and_reaches_the_other_agent_at_once() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let raw = common::Raw::new(&t.server);
    let first = raw.ok("/contacts").await;
    let uuid = first["contacts"][0]["uuid"].as_str().expect("uuid").to_string();
    let mut lee = t.lee.events(None).await;
    let closed = t
        .dana
        .client()
        .close_conversation(&ContactId::from(uuid.as_str()))
        .await
        .expect("closed via the hub");
    assert!(closed.closed_at.is_some());
    let ev = lee.next_of("conversation_closed").await;
    assert_eq!(ev.data["contact"], json!(uuid));
    assert_eq!(ev.data["agent"], json!("dana"));
    let server_side = raw.ok(&format!("/contacts/{uuid}")).await;
    let c = &server_side["contact"];
    let c = if c.is_array() { &c[0] } else { c };
    assert!(!c["closedAt"].is_null(), "the service holds the close");
    let (st, v) = t.lee.json(&format!("/v1/contacts/{uuid}")).await;
    assert_eq!(st, StatusCode::OK);
    assert!(
        !v["contact"][0]["closedAt"].is_null(),
        "the hub's answer is the new state: {v}"
    );
    let (st, audit) = t.lee.json("/hub/v1/audit").await;
    assert_eq!(st, StatusCode::OK);
    let entries = audit["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 1, "{audit}");
    let e = &entries[0];
    assert_eq!(e["agent"], "dana");
    assert_eq!(e["method"], "POST");
    assert_eq!(e["path"], format!("/contacts/{uuid}/conversation/close"));
    assert_eq!(e["status"], 200);
    assert_eq!(e["contact"], json!(uuid));
    assert!(
        e["at"]
            .as_str()
            .is_some_and(|s| chrono::DateTime::parse_from_rfc3339(s).is_ok())
    );
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_write_is_audited_and_broadcasts_nothing() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let resp = t
        .dana
        .http
        .patch(format!("{}/v1/contacts/0000dead-0000", t.dana.url))
        .bearer_auth(&t.dana.token)
        .json(&json!({ "name": "x" }))
        .send()
        .await
        .expect("answer");
    assert_eq!(
        resp.status(),
        StatusCode::NOT_FOUND,
        "the service's answer is passed on"
    );
    let (_, audit) = t.lee.json("/hub/v1/audit?limit=10").await;
    assert_eq!(audit["entries"][0]["status"], 404);
    assert_eq!(audit["entries"][0]["agent"], "dana");
    let (st, _) = t.lee.json("/hub/v1/audit?since=yesterday").await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_send_through_the_hub_names_the_sending_agent() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let raw = common::Raw::new(&t.server);
    let c = raw.ok("/contacts").await["contacts"][0].clone();
    let (uuid, phone, source) = (
        c["uuid"].as_str().unwrap_or_default().to_string(),
        c["phoneNumber"].as_str().unwrap_or_default().to_string(),
        c["source"].as_str().unwrap_or_default().to_string(),
    );
    let template = common::approved_template(&t.dana.client()).await;
    let mut lee = t.lee.events(None).await;
    let send = SendMessage::template(phone, source, template.uuid.to_string(), Vec::new());
    let sent = t
        .dana
        .client()
        .send_to_contact(&ContactId::new(uuid.clone()), send)
        .await
        .expect("sent via the hub");
    let ev = lee.next_of("message_created").await;
    assert_eq!(ev.data["contact"], json!(uuid));
    assert_eq!(ev.data["agent"], json!("dana"));
    assert_eq!(
        ev.data["message"]["uuid"],
        serde_json::to_value(&sent.uuid).unwrap_or(Value::Null)
    );
    let (_, audit) = t.lee.json("/hub/v1/audit").await;
    assert_eq!(audit["entries"][0]["path"], "/messages/send");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_walking_the_contact_list_send_nothing_to_the_service() {
    let t = support::team_with(70, |_| {}).await;
    support::wait_for_contacts(&t.dana, 70).await;
    let deadline = tokio::time::Instant::now() + support::PATIENCE;
    while t.hub.state.counters.passes.load(std::sync::atomic::Ordering::Relaxed) == 0 {
        assert!(tokio::time::Instant::now() < deadline, "the first walk never ended");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // The hub's own reads after its walk (the last message of each open
    // conversation) are over: what follows is the agents' alone.
    loop {
        use frontdesk::index::IndexAccess;
        let mut index = t.hub.state.index.clone();
        if index.with(|ix| ix.stale_previews(1)).expect("stale").is_empty() {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hub never read every last message"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let direct = frontdesk::api::Client::new(
        &t.server.base_url,
        &t.server.api_key,
        std::time::Duration::from_secs(10),
    )
    .expect("client");
    let want = direct
        .all_contacts(ContactFilter::default())
        .await
        .expect("direct walk");
    let first_direct = direct
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .expect("first page");
    let before = t.server.requests();
    for agent in [&t.dana, &t.lee, &t.dana] {
        let got = agent
            .client()
            .all_contacts(ContactFilter::default())
            .await
            .expect("walk via the hub");
        let by_uuid = |v: &[frontdesk::api::Contact]| {
            let mut v: Vec<_> = v.iter().map(support::as_service).collect();
            v.sort_by(|a, b| a.uuid.cmp(&b.uuid));
            v
        };
        assert_eq!(
            by_uuid(&got),
            by_uuid(&want),
            "every contact, once, as the service holds it"
        );
        assert!(
            got.windows(2).all(|w| w[0].last_activity() >= w[1].last_activity()),
            "newest activity first"
        );
        let first = agent
            .client()
            .list_contacts(&ContactFilter::default(), &PageRequest::First)
            .await
            .expect("first page");
        assert_eq!(
            (first.meta.page, first.meta.pages),
            (first_direct.meta.page, first_direct.meta.pages)
        );
        let third = agent
            .client()
            .list_contacts(&ContactFilter::default(), &PageRequest::Number(3))
            .await
            .expect("page 3");
        assert_eq!(third.items, got[40..60].to_vec());
    }
    assert_eq!(t.server.requests(), before, "no request reached the service");
    let (st, v) = t.lee.json("/v1/contacts?after=hub1.bm9wZQ").await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    let tagged = t
        .dana
        .client()
        .list_contacts(
            &ContactFilter {
                tags: vec!["vip".into()],
                ..ContactFilter::default()
            },
            &PageRequest::First,
        )
        .await
        .expect("a filtered page is forwarded");
    assert!(t.server.requests() > before, "a filter goes to the service");
    let direct_tagged = direct
        .list_contacts(
            &ContactFilter {
                tags: vec!["vip".into()],
                ..ContactFilter::default()
            },
            &PageRequest::First,
        )
        .await
        .expect("direct");
    assert_eq!(tagged.items, direct_tagged.items);
    t.hub.stop().await;
}
