use serde_json::json;

use super::*;

#[test]
fn a_webhooks_fields_come_back_on_the_listed_message_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let hook = json!({ "text": "see attached", "status": "received", "createdAt": "2026-11-27T10:00:00.000+02:00",
        "attachments": ["https://files.example.com/manual.pdf"], "messageForward": { "forwarded": true },
        "messageLocation": null });
    keep(&store, "c1", &hook).unwrap();
    keep(&store, "c1", &hook).unwrap();
    keep(
        &store,
        "c1",
        &json!({ "text": "plain", "status": "received", "createdAt": "2026-11-27T08:00:05Z" }),
    )
    .unwrap();
    let mut listed = json!({ "messages": [
        { "uuid": "a", "text": "see attached", "status": "received", "createdAt": "2026-11-27T08:00:01Z" },
        { "uuid": "b", "text": "see attached", "status": "received", "createdAt": "2026-11-27T09:00:00Z" },
        { "uuid": "c", "text": "see attached", "status": "sent", "createdAt": "2026-11-27T08:00:00Z" },
    ]});
    assert_eq!(attach(&store, "c1", &mut listed).unwrap(), 1);
    assert_eq!(
        listed["messages"][0]["attachments"][0],
        "https://files.example.com/manual.pdf"
    );
    assert_eq!(listed["messages"][0]["messageForward"]["forwarded"], true);
    assert!(listed["messages"][0].get("messageLocation").is_none());
    assert!(
        listed["messages"][1].get("attachments").is_none(),
        "an hour away is another message"
    );
    assert!(
        listed["messages"][2].get("attachments").is_none(),
        "a sent one is another message"
    );
    let mut other = json!({ "messages": [
        { "text": "see attached", "status": "received", "createdAt": "2026-11-27T08:00:00Z" }] });
    assert_eq!(attach(&store, "c2", &mut other).unwrap(), 0, "another contact's");
}
