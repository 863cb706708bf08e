//! The thread's transitions as the user meets them, through the root's
//! update: loading, stale pages, older batches, the cursor, delete and
//! details.

use crossterm::event::KeyCode;

use crate::api::{DeliveryStatus, PageRequest};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::{Model, Pane};
use crate::tui::msg::Msg;
use crate::tui::thread::{Delivery, Popup, STATUS_POLL, ThreadEffect, ThreadFetch};
use crate::tui::update::tests::*;
use crate::tui::update::update;

#[test]
fn stale_thread_for_a_previous_contact_is_dropped() {
    let mut m = model_with(20, 160, 48);
    let (old_id, old_uuid, ..) = {
        let fx = step(&mut m, key('j'));
        thread_fetch(&fx).unwrap()
    };
    let fx = step(&mut m, key('j'));
    let (new_id, new_uuid, ..) = thread_fetch(&fx).unwrap();
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id: old_id,
            contact: old_uuid,
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(3), None)),
        }),
    );
    assert!(m.thread.messages.is_empty(), "the old contact's thread must not show");
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id: new_id,
            contact: new_uuid,
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(4), None)),
        }),
    );
    assert_eq!(m.thread.messages.len(), 4);
    // Oldest first on screen.
    assert!(m.thread.messages[0].created_at < m.thread.messages[3].created_at);
}

/// The first contact's thread loaded with `msgs` (newest first, as the
/// server sends them) and `older` as the next cursor; the thread focused.
fn opened(msgs: Vec<crate::api::Message>, older: Option<&str>) -> (Model, String) {
    let mut m = model_with(20, 160, 48);
    let (id, uuid) = (m.thread.loading.unwrap(), m.thread.contact.clone().unwrap());
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id,
            contact: uuid.clone(),
            fetch: ThreadFetch::Initial,
            result: Ok(page(msgs, older)),
        }),
    );
    update(&mut m, code(KeyCode::Tab));
    assert_eq!(m.focus, Pane::Thread);
    (m, uuid)
}

#[test]
fn k_moves_the_cursor_a_message_and_older_batches_keep_it_in_place() {
    let (mut m, uuid) = opened(messages(20), Some("old1"));
    assert_eq!(m.thread.selected(), Some(19), "the newest is selected at first");
    let fx = update(&mut m, key('k'));
    assert_eq!(m.thread.selected(), Some(18), "one message up, not one line");
    // Near the start of what is loaded: the older batch is asked for early.
    let (oid, _, f, at) = thread_fetch(&fx).expect("older batch");
    assert_eq!((f, at), (ThreadFetch::Older, PageRequest::After("old1".into())));
    let chosen = m.thread.messages[18].clone();
    let mut older = messages(5);
    for (i, msg) in older.iter_mut().enumerate() {
        msg.uuid = Some(format!("old{i}"));
        msg.created_at = msg.created_at.map(|t| t - chrono::Duration::days(3));
    }
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id: oid,
            contact: uuid,
            fetch: ThreadFetch::Older,
            result: Ok(page(older, None)),
        }),
    );
    assert_eq!(m.thread.messages.len(), 25);
    let sel = m.thread.selected().unwrap();
    assert_eq!(m.thread.messages[sel], chosen, "the cursor stays on its message");
    update(&mut m, key('j'));
    update(&mut m, key('G'));
    assert_eq!(m.thread.selected(), Some(24));
    assert_eq!(
        (m.thread.cursor, m.thread.top),
        (None, None),
        "back to the newest, pinned"
    );
}

#[test]
fn g_loads_every_older_batch_to_the_start() {
    let (mut m, uuid) = opened(messages(20), Some("p2"));
    let mut fx = update(&mut m, key('g'));
    for (n, next) in [(2, Some("p3")), (3, None)] {
        let (oid, _, f, at) = thread_fetch(&fx).expect("the next older batch without another key");
        assert_eq!(f, ThreadFetch::Older);
        assert_eq!(at, PageRequest::After(format!("p{n}")));
        let mut older = messages(20);
        for (i, msg) in older.iter_mut().enumerate() {
            msg.uuid = Some(format!("b{n}-{i}"));
            msg.created_at = msg.created_at.map(|t| t - chrono::Duration::days(n as i64 * 3));
        }
        fx = update(
            &mut m,
            Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
                id: oid,
                contact: uuid.clone(),
                fetch: ThreadFetch::Older,
                result: Ok(page(older, next)),
            }),
        );
    }
    assert!(thread_fetch(&fx).is_none(), "the start is reached: nothing more to ask");
    assert_eq!(m.thread.messages.len(), 60);
    assert_eq!(m.thread.selected(), Some(0), "the oldest message is selected");
    assert!(m.thread.older.is_none());
}

#[test]
fn thread_refresh_appends_new_messages() {
    let mut m = model_with(20, 160, 48);
    let (id, uuid) = (m.thread.loading.unwrap(), m.thread.contact.clone().unwrap());
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id,
            contact: uuid.clone(),
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(3), None)),
        }),
    );
    let fx = update(&mut m, Msg::RefreshDue);
    let (rid, ..) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Thread(crate::tui::thread::ThreadEffect::Fetch {
                id,
                fetch: ThreadFetch::Refresh,
                ..
            }) => Some((*id,)),
            _ => None,
        })
        .expect("thread refresh");
    let mut newest = messages(3);
    let mut new_msg = newest[0].clone();
    new_msg.uuid = Some("fresh".into());
    new_msg.created_at = Some(now());
    newest.insert(0, new_msg);
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id: rid,
            contact: uuid,
            fetch: ThreadFetch::Refresh,
            result: Ok(page(newest, None)),
        }),
    );
    assert_eq!(m.thread.messages.len(), 4);
    assert_eq!(m.thread.messages[3].uuid.as_deref(), Some("fresh"));
    assert_eq!(m.thread.new_from, Some(3));
}

/// `messages(n)`: index 1 is sent, 0 received, 2 a note (see fixtures).
fn select(m: &mut Model, i: usize) {
    update(m, key('G'));
    while m.thread.selected() != Some(i) {
        update(m, key('k'));
    }
}

fn toast_text(m: &Model) -> String {
    m.status.current().map(|t| t.text.clone()).unwrap_or_default()
}

fn delete_effect(fx: &[Effect]) -> Option<(u64, String, String)> {
    fx.iter().find_map(|e| match e {
        Effect::Thread(ThreadEffect::Delete { id, uuid, key }) => Some((*id, uuid.clone(), key.clone())),
        _ => None,
    })
}

fn status_effect(fx: &[Effect]) -> Option<(u64, String, std::time::Duration)> {
    fx.iter().find_map(|e| match e {
        Effect::Thread(ThreadEffect::Status { id, uuid, after }) => Some((*id, uuid.clone(), *after)),
        _ => None,
    })
}

#[test]
fn only_sent_messages_can_be_deleted_and_the_others_say_why() {
    let (mut m, _) = opened(messages(5), None);
    select(&mut m, 0);
    update(&mut m, key('d'));
    assert!(m.thread.popup.is_none());
    assert!(toast_text(&m).contains("received message"), "{}", toast_text(&m));
    select(&mut m, 2);
    update(&mut m, key('d'));
    assert!(m.thread.popup.is_none());
    assert!(toast_text(&m).contains("note"), "{}", toast_text(&m));
}

#[test]
fn d_asks_first_then_deletes_and_the_message_disappears() {
    let (mut m, _) = opened(messages(5), None);
    select(&mut m, 1);
    let uuid = m.thread.messages[1].uuid.clone().unwrap();
    let fx = update(&mut m, key('d'));
    assert!(delete_effect(&fx).is_none(), "nothing is deleted before the answer");
    assert!(matches!(m.thread.popup, Some(Popup::ConfirmDelete { .. })));
    let fx = update(&mut m, key('n'));
    assert!(delete_effect(&fx).is_none() && m.thread.popup.is_none(), "n keeps it");
    update(&mut m, key('d'));
    let fx = update(&mut m, key('y'));
    let (id, sent_uuid, key_) = delete_effect(&fx).expect("DELETE after y");
    assert_eq!(sent_uuid, uuid);
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Deleted {
            id,
            key: key_,
            result: Ok(()),
        }),
    );
    assert_eq!(m.thread.messages.len(), 4);
    assert!(
        m.thread
            .messages
            .iter()
            .all(|x| x.uuid.as_deref() != Some(uuid.as_str()))
    );
    assert_eq!(toast_text(&m), "message deleted");
}

#[test]
fn a_failed_delete_keeps_the_message_and_says_why() {
    let (mut m, _) = opened(messages(5), None);
    select(&mut m, 1);
    update(&mut m, key('d'));
    let fx = update(&mut m, key('y'));
    let (id, _, key_) = delete_effect(&fx).unwrap();
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Deleted {
            id,
            key: key_,
            result: Err(err()),
        }),
    );
    assert_eq!(m.thread.messages.len(), 5);
    assert!(
        toast_text(&m).starts_with("could not delete the message: "),
        "{}",
        toast_text(&m)
    );
    assert!(toast_text(&m).contains("note is too long"), "the reason is shown");
}

#[test]
fn d_and_i_need_the_thread_focused() {
    let (mut m, _) = opened(messages(5), None);
    update(&mut m, code(KeyCode::BackTab));
    let fx = update(&mut m, key('i'));
    assert!(m.thread.popup.is_none() && status_effect(&fx).is_none());
    assert!(toast_text(&m).contains("Tab"), "{}", toast_text(&m));
}

#[test]
fn i_shows_the_delivery_status_and_polls_only_while_open() {
    let (mut m, _) = opened(messages(5), None);
    select(&mut m, 1);
    let uuid = m.thread.messages[1].uuid.clone().unwrap();
    let fx = update(&mut m, key('i'));
    let (id, asked, after) = status_effect(&fx).expect("status asked at once");
    assert_eq!((asked.as_str(), after), (uuid.as_str(), std::time::Duration::ZERO));
    let answer = |status: DeliveryStatus| crate::api::MessageSendRequest {
        uuid: uuid.clone(),
        status,
        message_status_payload: None,
    };
    let fx = update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Status {
            id,
            result: Ok(answer(DeliveryStatus::Sent)),
        }),
    );
    match &m.thread.popup {
        Some(Popup::Info {
            delivery: Delivery::Known(r),
            ..
        }) => assert_eq!(r.status, DeliveryStatus::Sent),
        other => panic!("details should show the status: {other:?}"),
    }
    let (id2, _, after) = status_effect(&fx).expect("asked again while open");
    assert_eq!(after, STATUS_POLL);
    update(&mut m, code(KeyCode::Esc));
    assert!(m.thread.popup.is_none());
    let fx = update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Status {
            id: id2,
            result: Ok(answer(DeliveryStatus::Delivered)),
        }),
    );
    assert!(status_effect(&fx).is_none(), "closed: the poll stops");
}

#[test]
fn i_on_a_received_message_shows_no_delivery_status() {
    let (mut m, _) = opened(messages(5), None);
    select(&mut m, 0);
    let fx = update(&mut m, key('i'));
    assert!(status_effect(&fx).is_none());
    assert!(matches!(
        &m.thread.popup,
        Some(Popup::Info {
            delivery: Delivery::NotSent,
            ..
        })
    ));
}
