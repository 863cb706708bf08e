//! `hub audit` (issue 36): the newest writes first, each with its contact
//! (name and uuid), sends included.

use frontdesk::api::{ContactId, SendMessage};
use serde_json::json;

use super::common;
use super::support;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_audit_gives_the_newest_first_each_with_its_contact_sends_too() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let raw = common::Raw::new(&t.server);
    let list = raw.ok("/contacts").await["contacts"].clone();
    let client = t.dana.client();
    let mut closed = Vec::new();
    for c in list.as_array().expect("contacts").iter().skip(1).take(4) {
        let uuid = c["uuid"].as_str().expect("uuid").to_string();
        client
            .close_conversation(&ContactId::from(uuid.as_str()))
            .await
            .expect("closed via the hub");
        closed.push((uuid, c["name"].as_str().unwrap_or_default().to_string()));
    }
    let c = &list[0]; // opted in to templates
    let (uuid, phone, source) = (
        c["uuid"].as_str().unwrap_or_default().to_string(),
        c["phoneNumber"].as_str().unwrap_or_default().to_string(),
        c["source"].as_str().unwrap_or_default().to_string(),
    );
    let template = common::approved_template(&client).await;
    let mut send = SendMessage::text(phone, source, "");
    send.template_uuid = Some(template.uuid.to_string());
    send.optin_contact = Some(true);
    client
        .send_to_contact(&ContactId::new(uuid.clone()), send)
        .await
        .expect("sent via the hub");
    let (_, audit) = t.lee.json("/hub/v1/audit?limit=3").await;
    let entries = audit["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 3, "{audit}");
    // The send is the newest, with the contact it went to.
    assert_eq!(entries[0]["path"], "/messages/send");
    assert_eq!(entries[0]["contact"], json!(uuid), "{audit}");
    assert_eq!(entries[0]["name"], c["name"], "{audit}");
    // Then the last two closes, newest first, each named.
    for (e, (uuid, name)) in entries[1..].iter().zip(closed.iter().rev()) {
        assert_eq!(e["contact"], json!(uuid), "{audit}");
        assert_eq!(e["name"], json!(name), "{audit}");
    }
    t.hub.stop().await;
}
