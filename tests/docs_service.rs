//! frontdesk against a server that answers exactly as the service's public
//! documentation shows (issue 33): page-only lists without `meta`, no
//! `lastMessageAt`, contacts known only by their `bsuid`, sends that need
//! `channel_uuid`. The server is `docs_service/server.rs`, on 127.0.0.1:0.

use chrono::{Duration, Utc};
use frontdesk::api::{ApiError, ContactFilter, ContactId, PageRequest, SendMessage, collect_pages};
use frontdesk::index::Index;
use frontdesk::index::sync::{Budget, fetch_previews, full_sync, incremental_sync};
use serde_json::json;

#[path = "docs_service/server.rs"]
mod server;

use server::{Docs, DocsServer, contact, many, message, stamp};

fn unlimited() -> Budget {
    Budget::new(0.0)
}

#[tokio::test]
async fn documented_contacts_decode_with_a_null_phone_a_channel_and_a_bsuid() {
    let created = Utc::now() - Duration::days(30);
    let mut only_bsuid = contact("b1", "Bea", created);
    only_bsuid["phoneNumber"] = json!(null);
    only_bsuid["bsuid"] = json!("US.13491208655302741918");
    only_bsuid["channel"] = json!({"uuid": "ch-2", "title": "phone_number_2", "type": "whatsapp", "main": false});
    only_bsuid["blockedAt"] = json!("2026-01-02T10:00:00Z");
    only_bsuid["note"] = json!(null);
    only_bsuid["funnelId"] = json!("f-1");
    let plain = contact("p1", "Piero", created);
    let srv = DocsServer::start(Docs {
        contacts: vec![only_bsuid, plain],
        ..Docs::default()
    })
    .await;
    let page = srv
        .client()
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .expect("the documented list decodes");
    assert_eq!(page.items.len(), 2);
    let b = &page.items[0];
    assert_eq!(b.phone_number, "");
    assert_eq!(b.bsuid.as_deref(), Some("US.13491208655302741918"));
    assert_eq!(b.channel_uuid(), Some("ch-2"));
    assert_eq!(b.channel.as_ref().map(|c| c.channel_type.as_str()), Some("whatsapp"));
    assert!(b.blocked_at.is_some());
    assert_eq!(b.funnel_id.as_deref(), Some("f-1"));
    assert_eq!(b.activity_at, None, "the service sends no activity");
    assert_eq!(page.items[1].phone_number, "+39 2222");
}

#[tokio::test]
async fn a_full_sync_walks_every_page_of_a_page_only_server() {
    let srv = DocsServer::start(Docs {
        contacts: many(45),
        ..Docs::default()
    })
    .await;
    let mut ix = Index::in_memory().unwrap();
    let report = full_sync(&srv.client(), &mut ix, &unlimited(), &mut |_| {})
        .await
        .expect("the walk ends at the empty page");
    assert_eq!(report.seen, 45);
    assert_eq!(ix.count().unwrap(), 45, "every contact, not only page 1's");
    let asked = srv.with(|d| d.requests.clone());
    assert!(asked.contains(&"GET /contacts?page=3".to_string()), "{asked:?}");
    assert!(
        asked.contains(&"GET /contacts?page=4".to_string()),
        "the empty page ends it: {asked:?}"
    );
    let listed = asked.iter().filter(|r| r.starts_with("GET /contacts?")).count();
    assert_eq!(listed, 5, "pages 1-3, the empty page 4, one top-up page: {asked:?}");
}

#[tokio::test]
async fn a_walk_that_does_not_reach_its_end_removes_nothing() {
    let srv = DocsServer::start(Docs {
        contacts: many(45),
        ..Docs::default()
    })
    .await;
    let client = srv.client();
    let mut ix = Index::in_memory().unwrap();
    full_sync(&client, &mut ix, &unlimited(), &mut |_| {}).await.unwrap();
    assert_eq!(ix.count().unwrap(), 45);
    // Page 2 now fails: the walk never reaches the account's end.
    srv.with(|d| d.fail_page = Some(2));
    let second = full_sync(&client, &mut ix, &unlimited(), &mut |_| {}).await;
    assert!(second.is_err(), "an unfinished walk is not a finished one: {second:?}");
    assert_eq!(ix.count().unwrap(), 45, "nothing removed");
}

#[tokio::test]
async fn a_thread_is_walked_by_page_number_to_its_end() {
    let now = Utc::now();
    let thread: Vec<_> = (0..45)
        .map(|i| message(&format!("m{i}"), "received", now - Duration::minutes(i)))
        .collect();
    let srv = DocsServer::start(Docs {
        contacts: many(1),
        messages: [("c0000".to_string(), thread)].into(),
        ..Docs::default()
    })
    .await;
    let all = collect_pages(srv.client().walk_messages(&ContactId::from("c0000")))
        .await
        .unwrap();
    assert_eq!(all.len(), 45, "every page, not only the first");
}

/// Activity comes from what frontdesk learns: a fetched thread's newest
/// message, and the list's order (a contact listed above another has
/// activity at least as new); a contact that moves to the top is marked.
#[tokio::test]
async fn activity_is_learned_without_last_message_at() {
    let now = Utc::now();
    let old = now - Duration::days(300);
    let srv = DocsServer::start(Docs {
        contacts: vec![
            contact("a", "Ana", old),
            contact("b", "Bo", old),
            contact("c", "Cy", old),
        ],
        messages: [
            (
                "a".to_string(),
                vec![message("hi", "received", now - Duration::hours(1))],
            ),
            (
                "b".to_string(),
                vec![message("hey", "received", now - Duration::hours(2))],
            ),
            (
                "c".to_string(),
                vec![message("yo", "received", now - Duration::hours(3))],
            ),
        ]
        .into(),
        ..Docs::default()
    })
    .await;
    let client = srv.client();
    let mut ix = Index::in_memory().unwrap();
    full_sync(&client, &mut ix, &unlimited(), &mut |_| {}).await.unwrap();
    let wanted = ix.stale_previews(10).unwrap();
    assert_eq!(wanted.len(), 3, "every open conversation wants its last message");
    let (_, error) = fetch_previews(&client, &mut ix, &unlimited(), &wanted).await;
    assert!(error.is_none());
    let activity = |ix: &Index, u: &str| ix.get(u).unwrap().unwrap().last_activity().unwrap();
    assert_eq!(
        stamp(activity(&ix, "b")),
        stamp(now - Duration::hours(2)),
        "from its newest message"
    );
    assert!(ix.stale_previews(10).unwrap().is_empty(), "the previews are current");

    // A customer writes to Cy: the service lists Cy first.
    srv.message("c", "new!", now);
    incremental_sync(&client, &mut ix, &unlimited()).await.unwrap();
    assert!(
        activity(&ix, "c") >= activity(&ix, "a"),
        "listed above Ana, Cy has activity at least as new as hers"
    );
    let wanted = ix.stale_previews(10).unwrap();
    assert_eq!(
        wanted.iter().map(|w| w.0.as_str()).collect::<Vec<_>>(),
        ["c"],
        "Cy's thread is fetched again"
    );
    fetch_previews(&client, &mut ix, &unlimited(), &wanted).await;
    assert_eq!(stamp(activity(&ix, "c")), stamp(now), "the exact time, from the thread");
    let (_, page) = ix.messages("c").unwrap().unwrap();
    assert_eq!(page[0].text, "new!");
}

#[tokio::test]
async fn a_send_goes_from_the_contacts_channel_to_its_number() {
    let mut c = contact("p1", "Piero", Utc::now());
    c["channel"] = json!({"uuid": "ch-2", "title": "phone_number_2", "type": "whatsapp", "main": false});
    let srv = DocsServer::start(Docs {
        contacts: vec![c],
        ..Docs::default()
    })
    .await;
    let sent = srv
        .client()
        .send_to_contact(&ContactId::from("p1"), SendMessage::text("", "", "Hello"))
        .await
        .unwrap();
    assert_eq!(sent.uuid, "adf3d1216d4c4dcd908199d6700f2381");
    let body = srv.with(|d| d.sends[0].clone());
    assert_eq!(body["channel_uuid"], "ch-2");
    assert_eq!(body["from"], "whatsapp");
    assert_eq!(body["to"], "+39 2222");
    assert_eq!(body["type"], "text");
    assert_eq!(body["content"]["text"], "Hello");
    assert!(body.get("bsuid").is_none(), "{body}");
}

#[tokio::test]
async fn a_bsuid_only_contact_is_sent_to_by_bsuid_from_the_main_channel() {
    let mut c = contact("b1", "Bea", Utc::now());
    c["phoneNumber"] = json!(null);
    c["bsuid"] = json!("US.1349");
    let srv = DocsServer::start(Docs {
        contacts: vec![c],
        channels: vec![
            json!({"uuid": "ch-old", "title": "2", "type": "telegram", "main": false, "discardedAt": true}),
            json!({"uuid": "ch-main", "title": "1", "type": "whatsapp", "main": true, "discardedAt": false}),
        ],
        ..Docs::default()
    })
    .await;
    srv.client()
        .send_to_contact(
            &ContactId::from("b1"),
            SendMessage::template("", "", "t-1", vec!["Bea".into()]),
        )
        .await
        .unwrap();
    let body = srv.with(|d| d.sends[0].clone());
    assert_eq!(body["channel_uuid"], "ch-main");
    assert_eq!(body["from"], "whatsapp");
    assert_eq!(body["bsuid"], "US.1349");
    assert!(body.get("to").is_none(), "{body}");
    assert_eq!(body["template_uuid"], "t-1");
}

#[tokio::test]
async fn a_one_variable_template_takes_its_value_in_content_text() {
    let srv = DocsServer::start(Docs {
        contacts: vec![contact("p1", "Piero", Utc::now())],
        channels: vec![json!({"uuid": "ch-main", "type": "whatsapp", "main": true})],
        ..Docs::default()
    })
    .await;
    srv.client()
        .send_to_contact(
            &ContactId::from("p1"),
            SendMessage::template("", "", "t-1", vec!["Piero".into()]),
        )
        .await
        .unwrap();
    let body = srv.with(|d| d.sends[0].clone());
    assert_eq!(body["content"]["text"], "Piero", "{body}");
    assert_eq!(body["optin_contact"], true);
    assert!(body.get("template_values").is_none(), "{body}");
}

#[tokio::test]
async fn a_contact_with_no_recipient_is_refused_before_anything_is_sent() {
    let mut c = contact("n1", "Nobody", Utc::now());
    c["phoneNumber"] = json!(null);
    let srv = DocsServer::start(Docs {
        contacts: vec![c],
        ..Docs::default()
    })
    .await;
    let e = srv
        .client()
        .send_to_contact(&ContactId::from("n1"), SendMessage::text("", "", "Hello"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("neither a phone number nor a bsuid"), "{e}");
    assert!(srv.with(|d| d.sends.is_empty()), "nothing sent");
}

#[tokio::test]
async fn a_refusal_shows_the_services_own_words() {
    let srv = DocsServer::start(Docs {
        contacts: vec![contact("p1", "Piero", Utc::now())],
        channels: vec![json!({"uuid": "ch-main", "type": "whatsapp", "main": true})],
        refuse_send: Some((422, json!({"error": "This number is blocked by the customer"}))),
        ..Docs::default()
    })
    .await;
    let e = srv
        .client()
        .send_to_contact(&ContactId::from("p1"), SendMessage::text("", "", "Hello"))
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Validation { .. }), "{e:?}");
    let shown = e.to_string();
    assert!(shown.contains("This number is blocked by the customer"), "{shown}");
    assert!(!shown.contains("24"), "{shown}");
}

#[path = "docs_service/cli.rs"]
mod cli;
