//! Messages (pages, cursors, notes), sending text and templates, delivery
//! status, the 24-hour rule, deleting, and the bot of a contact.

use std::time::Duration;

use frontdesk::api::*;
use futures::StreamExt;

use super::*;

/// The first contacts of the default list, with their whole threads as the
/// server holds them.
async fn threads(env: &Env) -> Vec<(Contact, Vec<Value>)> {
    let page = env
        .client
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .unwrap();
    let mut out = Vec::new();
    for c in page.items {
        let t = env.raw_thread(&c.uuid).await;
        out.push((c, t));
    }
    out
}

fn wrote_within(thread: &[Value], hours: i64) -> bool {
    thread.iter().any(|m| {
        m["status"] == "received"
            && Utc::now() - wire_time(m["createdAt"].as_str().unwrap()) < chrono::TimeDelta::hours(hours)
    })
}

#[tokio::test]
async fn a_thread_by_pages_and_by_cursor() {
    let env = small(40).await;
    let all = threads(&env).await;
    let (contact, thread) = all
        .iter()
        .filter(|(_, t)| t.len() > 20 && t.iter().any(|m| m["status"] == "note"))
        .max_by_key(|(_, t)| t.len())
        .expect("a thread longer than a page, with a note");

    // The cursor walk, to exhaustion.
    let mut walked = Vec::new();
    let mut batches = 0;
    let mut stream = env.client.walk_messages(&ContactId::new(contact.uuid.to_string()));
    while let Some(page) = stream.next().await {
        let page = page.unwrap();
        batches += 1;
        walked.extend(page.items);
    }
    assert_eq!(batches, thread.len().div_ceil(20));
    assert_eq!(walked.len(), thread.len());
    // Page by page, the same entries in the same order.
    let first = env
        .client
        .list_messages(&ContactId::new(contact.uuid.to_string()), &PageRequest::First)
        .await
        .unwrap();
    let pages = first.meta.pages.unwrap();
    assert_eq!(pages as usize, thread.len().div_ceil(20));
    let mut numbered = first.items.clone();
    for n in 2..=pages {
        let p = env
            .client
            .list_messages(&ContactId::new(contact.uuid.to_string()), &PageRequest::Number(n))
            .await
            .unwrap();
        assert_eq!(p.meta.page, Some(n));
        numbered.extend(p.items);
    }
    assert_eq!(numbered, walked);
    // And as the server wrote it: newest first, notes without a uuid.
    for (m, raw) in walked.iter().zip(thread) {
        assert_eq!(m.uuid.as_deref(), raw["uuid"].as_str());
        assert_eq!(m.text, raw["text"].as_str().unwrap());
        assert_eq!(m.status.as_str(), raw["status"].as_str().unwrap());
        assert_eq!(m.created_at, Some(wire_time(raw["createdAt"].as_str().unwrap())));
        assert_eq!(
            (m.from.as_str(), m.to.as_str()),
            (raw["from"].as_str().unwrap(), raw["to"].as_str().unwrap())
        );
        assert_eq!(m.uuid.is_none(), m.status == MessageStatus::Note, "{m:?}");
    }
    assert!(walked.windows(2).all(|w| w[0].created_at >= w[1].created_at));
    assert!(walked.iter().any(|m| m.status == MessageStatus::Note));

    let e = env
        .client
        .list_messages(
            &ContactId::new(contact.uuid.to_string()),
            &PageRequest::After("garbage".into()),
        )
        .await
        .unwrap_err();
    assert_eq!(e, ApiError::Pagination("Invalid pagination cursor".into()));
    let missing = "abababababababababababababababab";
    let e = env
        .client
        .list_messages(&ContactId::new(missing.to_string()), &PageRequest::First)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ApiError::NotFound { what } if what.contains(missing)),
        "{e:?}"
    );
}

#[tokio::test]
async fn send_text_and_template_then_delete() {
    let clock = frontdesk::server::Clock::manual();
    let env = spawn(ServerConfig {
        contacts: 40,
        status_step_ms: 300,
        clock: clock.clone(),
        ..Default::default()
    })
    .await;
    let all = threads(&env).await;
    let (warm, _) = all
        .iter()
        .find(|(_, t)| wrote_within(t, 23))
        .expect("a contact wrote today");
    let (cold, cold_thread) = all.iter().find(|(_, t)| !wrote_within(t, 25)).expect("a quiet contact");

    // Free text inside the 24-hour window.
    let sent = env
        .client
        .send_to(
            warm,
            SendMessage::text(&warm.phone_number, "messaging_app", "Hello from the contract test 👋"),
        )
        .await
        .unwrap();
    assert_eq!(sent.status, DeliveryStatus::Enqueued);
    let top = env
        .client
        .list_messages(&ContactId::new(warm.uuid.to_string()), &PageRequest::First)
        .await
        .unwrap()
        .items[0]
        .clone();
    assert_eq!(top.uuid.as_deref(), Some(sent.uuid.as_str()));
    assert_eq!(top.text, "Hello from the contract test 👋");
    assert_eq!(top.status, MessageStatus::Sent);
    assert_eq!(top.to, warm.phone_number);

    // Its delivery status advances with time.
    let s = env
        .client
        .message_status(&MessageId::new(sent.uuid.to_string()))
        .await
        .unwrap();
    assert_eq!(s.uuid, sent.uuid);
    assert_eq!(s.status, DeliveryStatus::Enqueued);
    let p = s.message_status_payload.clone().unwrap();
    assert_eq!((p.id.len(), p.id.matches('-').count()), (36, 4), "{}", p.id);
    assert_eq!(p.status_type, "enqueued");
    assert_eq!(p.destination.as_deref(), Some(warm.phone_number.as_str()));
    let inner = p.payload.unwrap();
    assert_eq!(inner.payload_type, "session");
    let external = inner.messaging_app_message_id.expect("an external id");
    clock.advance(Duration::from_millis(600));
    let later = env
        .client
        .message_status(&MessageId::new(sent.uuid.to_string()))
        .await
        .unwrap();
    assert_eq!(later.status, DeliveryStatus::Delivered);
    assert_eq!(later.message_status_payload.unwrap().status_type, later.status.as_str());

    // Outside the window free text is a validation error and nothing is added...
    let e = env
        .client
        .send_to(cold, SendMessage::text(&cold.phone_number, "messaging_app", "too late"))
        .await
        .unwrap_err();
    assert_eq!(field_names(&e), vec!["content"]);
    assert!(e.to_string().contains("24-hour"), "{e}");
    assert_eq!(env.raw_thread(&cold.uuid).await, *cold_thread);
    // ...but an approved template goes out, its placeholders filled.
    let templates = env.client.list_templates(None).await.unwrap().items;
    let shipped = templates.iter().find(|t| t.title == "order_shipped").unwrap();
    let t = env
        .client
        .send_to(
            cold,
            SendMessage::template(
                &cold.phone_number,
                "messaging_app",
                &shipped.uuid,
                vec!["Ana".into(), "#A-77".into()],
            ),
        )
        .await
        .unwrap();
    let top = env
        .client
        .list_messages(&ContactId::new(cold.uuid.to_string()), &PageRequest::First)
        .await
        .unwrap()
        .items[0]
        .clone();
    assert_eq!(top.uuid.as_deref(), Some(t.uuid.as_str()));
    assert_eq!(top.text, "Hi Ana, your order #A-77 has shipped 🚚");
    let rejected = templates.iter().find(|t| t.status == "rejected").unwrap();
    let e = env
        .client
        .send_to(
            cold,
            SendMessage::template(&cold.phone_number, "messaging_app", &rejected.uuid, vec![]),
        )
        .await
        .unwrap_err();
    assert_eq!(field_names(&e), vec!["template_uuid"]);

    // Delete by uuid, and by the external id; both are gone from the server.
    env.client
        .delete_message(&MessageId::new(t.uuid.to_string()))
        .await
        .unwrap();
    assert!(
        !env.raw_thread(&cold.uuid)
            .await
            .iter()
            .any(|m| m["uuid"] == t.uuid.as_str())
    );
    assert_eq!(env.raw_thread(&cold.uuid).await, *cold_thread);
    env.client
        .delete_message(&MessageId::new(external.to_string()))
        .await
        .unwrap();
    let warm_thread = env.raw_thread(&warm.uuid).await;
    assert!(!warm_thread.iter().any(|m| m["uuid"] == sent.uuid.as_str()));
    // A second delete finds nothing.
    let e = env
        .client
        .delete_message(&MessageId::new(t.uuid.to_string()))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ApiError::NotFound { what } if what.contains(&t.uuid)),
        "{e:?}"
    );
    let e = env
        .client
        .message_status(&MessageId::new("cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd".to_string()))
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn bot_start_and_stop() {
    let env = small(20).await;
    let c = env
        .client
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .unwrap()
        .items[0]
        .clone();
    let bot = env.client.get_bot(&ContactId::new(c.uuid.to_string())).await.unwrap();
    assert_eq!(bot.uuid.len(), 32);
    assert_eq!(bot.name, "Frontdesk Helper 🤖");
    assert_eq!((bot.version, bot.latest_bot_version), (Some(3), Some(true)));

    let ended = env
        .client
        .set_bot(&ContactId::new(c.uuid.to_string()), BotAction::End)
        .await
        .unwrap();
    assert_eq!(ended.status, BotStatus::Ended);
    assert!(!ended.is_running());
    assert_eq!(
        env.raw_ok(&format!("/contacts/{}/bot", c.uuid)).await["bot"]["status"],
        "ended"
    );

    let started = env
        .client
        .set_bot(&ContactId::new(c.uuid.to_string()), BotAction::Start)
        .await
        .unwrap();
    assert_eq!(started.status, BotStatus::Started);
    assert!(recent(started.conversation_started_at, 60), "{started:?}");
    assert_eq!(
        env.client.get_bot(&ContactId::new(c.uuid.to_string())).await.unwrap(),
        started
    );

    let missing = "12121212121212121212121212121212";
    let e = env
        .client
        .set_bot(&ContactId::new(missing.to_string()), BotAction::Start)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ApiError::NotFound { what } if what.contains(missing)),
        "{e:?}"
    );
}
