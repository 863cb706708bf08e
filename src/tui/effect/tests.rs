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

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn drafts_are_written_in_the_order_asked_and_the_exit_waits_for_them() {
    use crate::drafts::{Draft, Drafts};
    use crate::tui::compose::ComposeEffect;
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("drafts");
    let client = Client::new("http://127.0.0.1:9/v1", "key", Duration::from_secs(1)).unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut runner = Runner::new(client, tx);
    let save = |text: &str| {
        Effect::Compose(ComposeEffect::SaveDraft {
            dir: dir.clone(),
            draft: Draft {
                contact: "c1".into(),
                text: text.into(),
                saved_at: chrono::Utc::now(),
                by: "agent".into(),
            },
        })
    };
    for i in 0..20 {
        runner.spawn(save(&format!("take {i}")));
        runner.spawn(Effect::Compose(ComposeEffect::RemoveDraft {
            dir: dir.clone(),
            contact: "c1".into(),
        }));
    }
    runner.spawn(save("the last word"));
    runner.settle().await;
    let kept = Drafts::in_dir(&dir).load("c1").unwrap().map(|d| d.text);
    assert_eq!(kept.as_deref(), Some("the last word"), "no write landed out of order");
    let mut answers = 0;
    while let Ok(m) = rx.try_recv() {
        assert!(
            matches!(m, Msg::Compose(crate::tui::compose::ComposeMsg::DraftKept(Ok(())))),
            "{m:?}"
        );
        answers += 1;
    }
    assert_eq!(answers, 41);
}
