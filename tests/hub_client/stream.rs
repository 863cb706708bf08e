//! The event stream: reconnection, replays, a refused token, a silent hub.

use std::time::Duration;

use frontdesk::api::ApiError;
use frontdesk::hubclient::{HubClient, HubEvent, HubItem};
use serde_json::json;

use super::fake::*;

#[tokio::test]
async fn the_stream_reconnects_after_the_last_event_and_skips_a_replay() {
    let mut fake = fake_with(Vec::new());
    fake.streams = vec![
        event(42, "contact_deleted", json!({ "uuid": "c9" }))
            + &event(
                43,
                "conversation_closed",
                json!({ "contact": "c1", "agent": "dana", "at": "2026-01-02T10:00:00Z" }),
            ),
        // The hub replays 43 (already seen), then goes on.
        event(
            43,
            "conversation_closed",
            json!({ "contact": "c1", "agent": "dana", "at": "2026-01-02T10:00:00Z" }),
        ) + &event(
            44,
            "message_status",
            json!({ "contact": "c1", "message": "m1", "status": "read" }),
        ) + &event(45, "resync", json!({ "reason": "the client fell behind" })),
    ];
    let (url, shared) = fake_hub(fake).await;
    let hub = HubClient::new(&url, TOKEN, Duration::from_secs(5)).unwrap();
    let mut stream = hub.events(Some(41)).with_backoff(quick());

    let mut got = Vec::new();
    while got.len() < 9 {
        let item = stream.next().await.unwrap();
        let done = matches!(
            item,
            HubItem::Event {
                event: HubEvent::Resync { .. },
                ..
            }
        );
        got.push(item);
        if done {
            break;
        }
    }
    let ids: Vec<String> = got
        .iter()
        .map(|i| match i {
            HubItem::Connected => "connected".to_string(),
            HubItem::Event { id, .. } => id.to_string(),
            HubItem::Disconnected { .. } => "dropped".to_string(),
        })
        .collect();
    assert_eq!(ids, ["connected", "42", "43", "dropped", "connected", "44", "45"]);
    assert!(matches!(&got[1], HubItem::Event { event: HubEvent::ContactDeleted { uuid }, .. } if uuid == "c9"));
    assert!(matches!(&got[6], HubItem::Event { event: HubEvent::Resync { reason }, .. } if reason.contains("behind")));
    assert_eq!(stream.last_id(), Some(45));
    let asked: Vec<Option<String>> = shared.lock().unwrap().seen.iter().map(|(_, l)| l.clone()).collect();
    assert_eq!(asked, [Some("41".to_string()), Some("43".to_string())]);
}

#[tokio::test]
async fn a_refused_token_ends_the_stream_with_a_clear_error() {
    let (url, _) = fake_hub(fake_with(Vec::new())).await;
    let hub = HubClient::new(&url, "not-the-token", Duration::from_secs(5)).unwrap();
    let e = hub.events(None).with_backoff(quick()).next().await.unwrap_err();
    assert!(matches!(e, ApiError::Rejected { status: 401, .. }), "{e:?}");
    assert!(e.to_string().contains("agent token"), "{e}");
    assert!(!e.to_string().contains("not-the-token"), "{e}");
}

#[tokio::test]
async fn a_silent_stream_is_dropped_and_opened_again() {
    let mut fake = fake_with(Vec::new());
    fake.streams = vec![HANG.to_string(), event(42, "contact_deleted", json!({ "uuid": "c9" }))];
    let (url, _) = fake_hub(fake).await;
    let hub = HubClient::new(&url, TOKEN, Duration::from_secs(5)).unwrap();
    let mut stream = hub
        .events(None)
        .with_backoff(quick())
        .with_idle(Duration::from_millis(100));
    assert_eq!(stream.next().await.unwrap(), HubItem::Connected);
    let dropped = stream.next().await.unwrap();
    assert!(
        matches!(&dropped, HubItem::Disconnected { error: ApiError::Timeout(why), .. } if why.contains("nothing from the hub")),
        "{dropped:?}"
    );
    assert_eq!(stream.next().await.unwrap(), HubItem::Connected);
    assert!(matches!(stream.next().await.unwrap(), HubItem::Event { id: 42, .. }));
}
