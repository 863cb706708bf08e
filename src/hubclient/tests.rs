use std::time::Duration;

use super::*;

#[test]
fn every_kind_of_the_protocol_decodes() {
    let c = HubEvent::decode("contact_changed", r#"{"contact": {"uuid": "c1", "name": "Ana"}}"#).unwrap();
    assert!(matches!(c, HubEvent::ContactChanged { contact } if contact.uuid == "c1" && contact.name == "Ana"));
    assert_eq!(
        HubEvent::decode("contact_deleted", r#"{"uuid": "c2"}"#).unwrap(),
        HubEvent::ContactDeleted { uuid: "c2".into() }
    );
    let m = HubEvent::decode(
        "message_created",
        r#"{"contact": "c1", "message": {"uuid": "m1", "text": "hi", "status": "sent"}, "agent": "dana"}"#,
    )
    .unwrap();
    assert!(matches!(m, HubEvent::MessageCreated { ref agent, ref message, .. }
        if agent.as_deref() == Some("dana") && message.text == "hi"));
    let s = HubEvent::decode(
        "message_status",
        r#"{"contact": "c1", "message": "m1", "status": "read"}"#,
    )
    .unwrap();
    assert!(matches!(
        s,
        HubEvent::MessageStatus {
            status: crate::api::DeliveryStatus::Read,
            ..
        }
    ));
    let o = HubEvent::decode(
        "conversation_closed",
        r#"{"contact": "c1", "agent": null, "at": "2026-01-02T03:04:05Z"}"#,
    )
    .unwrap();
    assert!(matches!(
        o,
        HubEvent::ConversationClosed(ConversationChange {
            agent: None,
            at: Some(_),
            ..
        })
    ));
    let p = HubEvent::decode(
        "presence",
        r#"{"agent": "dana", "contact": "c1", "state": "composing", "expires_at": "2026-01-02T03:04:35Z"}"#,
    )
    .unwrap();
    assert!(matches!(
        p,
        HubEvent::Presence(Presence {
            state: PresenceState::Composing,
            ..
        })
    ));
    let a = HubEvent::decode("agent_status", r#"{"agent": "dana", "status": {"available": false}}"#).unwrap();
    assert!(matches!(a, HubEvent::AgentStatus { ref agent, .. } if agent == "dana"));
    assert_eq!(
        HubEvent::decode("resync", r#"{"reason": "too slow"}"#).unwrap(),
        HubEvent::Resync {
            reason: "too slow".into()
        }
    );
    let s = HubEvent::decode(
        "service_status",
        r#"{"state": "down", "since": "2026-01-02T14:02:00Z"}"#,
    )
    .unwrap();
    assert!(matches!(
        s,
        HubEvent::ServiceStatus(ServiceStatus {
            state: ServiceState::Down,
            since: Some(_)
        })
    ));
    assert_eq!(
        HubEvent::decode("weather", "{}").unwrap(),
        HubEvent::Unknown { kind: "weather".into() }
    );
}

#[test]
fn a_known_kind_with_bad_data_is_an_error_naming_it() {
    let e = HubEvent::decode("contact_deleted", "{not json").unwrap_err();
    assert_eq!(e.kind, "contact_deleted");
    let e = HubEvent::decode("presence", r#"{"agent": "dana"}"#).unwrap_err();
    assert!(e.to_string().contains("presence"), "{e}");
}

#[test]
fn plain_http_is_refused_off_loopback_and_the_token_stays_out_of_debug() {
    let e = HubClient::new("http://hub.example.com", "tok-123456", Duration::ZERO).unwrap_err();
    assert!(e.to_string().contains("plain http"), "{e}");
    let c = HubClient::new("http://127.0.0.1:9/v1/", "tok-123456", Duration::ZERO).unwrap();
    assert_eq!(c.root(), "http://127.0.0.1:9");
    assert!(!format!("{c:?}").contains("tok-123456"));
    assert!(HubClient::new("https://hub.example.com", " ", Duration::ZERO).is_err());
}

#[test]
fn events_change_the_index_only_when_they_bring_something_newer() {
    use crate::index::Index;
    let mut index = Index::in_memory().unwrap();
    let changed = HubEvent::decode(
        "contact_changed",
        r#"{"contact": {"uuid": "c1", "name": "Ana", "activityAt": "2026-01-02T10:00:00Z"}}"#,
    )
    .unwrap();
    assert!(apply_to_index(&mut index, &changed).unwrap());
    assert!(!apply_to_index(&mut index, &changed).unwrap(), "the same state again");

    let closed = HubEvent::decode(
        "conversation_closed",
        r#"{"contact": "c1", "at": "2026-01-02T11:00:00Z"}"#,
    )
    .unwrap();
    assert!(apply_to_index(&mut index, &closed).unwrap());
    assert!(index.get("c1").unwrap().unwrap().closed_at.is_some());
    assert!(!apply_to_index(&mut index, &closed).unwrap(), "already closed");
    let opened = HubEvent::decode("conversation_opened", r#"{"contact": "c1"}"#).unwrap();
    assert!(apply_to_index(&mut index, &opened).unwrap());
    assert!(index.get("c1").unwrap().unwrap().closed_at.is_none());

    let message = |at: &str| {
        HubEvent::decode(
            "message_created",
            &format!(r#"{{"contact": "c1", "message": {{"uuid": "m", "text": "hi", "createdAt": "{at}"}}}}"#),
        )
        .unwrap()
    };
    assert!(
        !apply_to_index(&mut index, &message("2026-01-02T09:00:00Z")).unwrap(),
        "older"
    );
    assert!(apply_to_index(&mut index, &message("2026-01-02T12:00:00Z")).unwrap());
    let activity = index.get("c1").unwrap().unwrap().activity_at.unwrap();
    assert_eq!(activity.to_rfc3339(), "2026-01-02T12:00:00+00:00");

    let unknown = HubEvent::decode("contact_deleted", r#"{"uuid": "nobody"}"#).unwrap();
    assert!(!apply_to_index(&mut index, &unknown).unwrap());
    let deleted = HubEvent::decode("contact_deleted", r#"{"uuid": "c1"}"#).unwrap();
    assert!(apply_to_index(&mut index, &deleted).unwrap());
    assert_eq!(index.count().unwrap(), 0);
}

/// `last_message`: a bot's answer after the customer's message leaves them
/// waiting; an older last message than the index knows, or one the index
/// holds whole already, changes nothing.
#[test]
fn a_last_message_the_hub_read_becomes_the_conversations_and_never_an_older_one() {
    use crate::index::{Index, Preview};
    let mut index = Index::in_memory().unwrap();
    let contact: crate::api::Contact =
        serde_json::from_str(r#"{"uuid": "c1", "name": "Ana", "activityAt": "2026-11-20T09:00:00Z"}"#).unwrap();
    index.upsert_contacts(&[contact], chrono::Utc::now()).unwrap();
    let event = |activity: &str, text: &str| {
        HubEvent::decode(
            "last_message",
            &format!(
                r#"{{"contact": "c1", "hubPreview": {{"status": "sent", "text": "{text}",
                   "createdAt": "{activity}", "activity": "{activity}",
                   "lastCustomerAt": "2026-11-20T09:59:58Z", "lastReplyAt": "{activity}"}}}}"#
            ),
        )
        .unwrap()
    };
    // The bot answered two seconds after the customer wrote.
    let bot = event("2026-11-20T10:00:00Z", "An agent will be with you shortly");
    assert_eq!(bot.kind(), "last_message");
    assert_eq!(bot.contact(), Some("c1"));
    assert!(apply_to_index(&mut index, &bot).unwrap());
    let held = |index: &Index| -> Preview { index.previews(&["c1"]).unwrap().remove("c1").unwrap() };
    let p = held(&index);
    assert_eq!(p.text, "An agent will be with you shortly");
    let waiting = p.waiting_now().expect("the customer still waits behind the bot");
    assert_eq!(
        waiting.since.map(|t| t.to_rfc3339()),
        Some("2026-11-20T09:59:58+00:00".into())
    );
    assert_eq!(
        index
            .get("c1")
            .unwrap()
            .unwrap()
            .last_activity()
            .map(|t| t.to_rfc3339()),
        Some("2026-11-20T10:00:00+00:00".into()),
        "the contact's activity follows its last message"
    );
    // The same again, and an older one: nothing changes.
    assert!(!apply_to_index(&mut index, &bot).unwrap());
    assert!(!apply_to_index(&mut index, &event("2026-11-20T09:30:00Z", "old")).unwrap());
    assert_eq!(held(&index).text, "An agent will be with you shortly");
    // Unknown contacts wait for the next snapshot.
    let other = HubEvent::decode(
        "last_message",
        r#"{"contact": "zz", "hubPreview": {"text": "", "activity": "2026-11-20T10:00:00Z"}}"#,
    )
    .unwrap();
    assert!(!apply_to_index(&mut index, &other).unwrap());
}

/// An agent's send as an older hub announced it, with the send's delivery
/// status for `status`: it is our side's message, so the customer it
/// answered no longer waits (a shift's TUIs read Waiting 5 over).
#[test]
fn an_agents_send_with_a_delivery_status_reads_as_sent() {
    let e = HubEvent::decode(
        "message_created",
        r#"{"contact": "c1", "message": {"uuid": "m1", "text": "On it", "status": "enqueued",
            "createdAt": "2026-11-20T10:00:00Z", "sentBy": "dana"}, "agent": "dana"}"#,
    )
    .unwrap();
    let HubEvent::MessageCreated { message, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!(message.status, crate::api::MessageStatus::Sent);
    // Without an agent it is what it says (a kind this client does not know).
    let e = HubEvent::decode(
        "message_created",
        r#"{"contact": "c1", "message": {"text": "?", "status": "enqueued"}}"#,
    )
    .unwrap();
    let HubEvent::MessageCreated { message, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!(message.status, crate::api::MessageStatus::Other("enqueued".into()));
}
