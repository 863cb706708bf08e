use super::*;
use crate::tui::inbox::{InboxEffect, InboxMsg};
use std::time::Duration;

#[tokio::test]
async fn a_new_task_in_a_slot_aborts_the_one_before() {
    let client = Client::new("http://127.0.0.1:9/v1", "key", Duration::from_secs(1)).unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut runner = Runner::new(client, tx);
    runner.spawn(Effect::Inbox(InboxEffect::Debounce {
        id: 1,
        after: Duration::from_millis(50),
    }));
    runner.spawn(Effect::Inbox(InboxEffect::Debounce {
        id: 2,
        after: Duration::from_millis(60),
    }));
    let first = tokio::time::timeout(Duration::from_secs(2), rx.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(first, Msg::Inbox(InboxMsg::SelectionSettled(2))), "{first:?}");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(rx.try_recv().is_err(), "the superseded debounce never reports");
}

#[tokio::test]
async fn results_come_back_as_messages_with_their_ids() {
    // Nothing listens on port 9: the error comes back as state, tagged.
    let client = Client::new("http://127.0.0.1:9/v1", "key", Duration::from_secs(1))
        .unwrap()
        .with_retry(crate::api::RetryPolicy {
            max_attempts: 1,
            ..Default::default()
        });
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut runner = Runner::new(client, tx);
    runner.spawn(Effect::Details(crate::tui::details::DetailsEffect::FetchBot {
        id: 7,
        uuid: "c1".into(),
    }));
    let msg = tokio::time::timeout(Duration::from_secs(5), rx.recv())
        .await
        .unwrap()
        .unwrap();
    match msg {
        Msg::Details(crate::tui::details::DetailsMsg::BotLoaded {
            id: 7,
            uuid,
            result: Err(e),
        }) => {
            assert_eq!(uuid, "c1");
            assert!(e.is_transient(), "{e}");
        }
        other => panic!("{other:?}"),
    }
}
