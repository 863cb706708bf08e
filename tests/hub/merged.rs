//! With the service's webhook wired to the hub, a write through the hub
//! is announced once: its own answer and the webhook for the same change
//! are one event, naming the agent.

use frontdesk::api::{ContactId, SendMessage};
use serde_json::json;

use super::common;
use super::support;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_close_through_the_hub_is_one_event_naming_the_agent() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    support::subscribe(&t).await;
    let raw = common::Raw::new(&t.server);
    let list = raw.ok("/contacts").await;
    let uuid = list["contacts"][0]["uuid"].as_str().expect("uuid").to_string();
    let other = list["contacts"][1]["uuid"].as_str().expect("uuid").to_string();
    let mut lee = t.lee.events(None).await;
    t.dana
        .client()
        .close_conversation(&ContactId::from(uuid.as_str()))
        .await
        .expect("closed via the hub");
    let seen = support::through_marker(&t, &mut lee, &other, "Marker").await;
    let closes: Vec<_> = seen.iter().filter(|e| e.kind == "conversation_closed").collect();
    assert_eq!(closes.len(), 1, "one close, one event: {seen:?}");
    assert_eq!(closes[0].data["contact"], json!(uuid));
    assert_eq!(closes[0].data["agent"], json!("dana"), "{seen:?}");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_send_through_the_hub_is_one_message_event_naming_the_agent() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    support::subscribe(&t).await;
    let raw = common::Raw::new(&t.server);
    let list = raw.ok("/contacts").await;
    let c = list["contacts"][0].clone();
    let other = list["contacts"][1]["uuid"].as_str().expect("uuid").to_string();
    let template = common::approved_template(&t.dana.client()).await;
    let mut lee = t.lee.events(None).await;
    let send = SendMessage::template(
        c["phoneNumber"].as_str().unwrap_or_default().to_string(),
        c["source"].as_str().unwrap_or_default().to_string(),
        template.uuid.to_string(),
        Vec::new(),
    );
    let to = ContactId::new(c["uuid"].as_str().unwrap_or_default().to_string());
    let sent = t
        .dana
        .client()
        .send_to_contact(&to, send)
        .await
        .expect("sent via the hub");
    let seen = support::through_marker(&t, &mut lee, &other, "Marker").await;
    let created: Vec<_> = seen.iter().filter(|e| e.kind == "message_created").collect();
    assert_eq!(created.len(), 1, "one send, one event: {seen:?}");
    assert_eq!(created[0].data["agent"], json!("dana"));
    assert_eq!(
        created[0].data["message"]["uuid"],
        serde_json::to_value(&sent.uuid).expect("uuid")
    );
    t.hub.stop().await;
}
