//! Replying from the thread: composer, send, status polls, 24-hour rule,
//! templates.

use std::time::Duration;

use crate::tui::account::AccountEffect;
use crate::tui::account::AccountMsg;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::api::{ApiError, DeliveryStatus, MessageSendRequest, SendMessage, SentMessage, Template};
use crate::tui::compose::{ComposeEffect, ComposeMsg, MAX_POLLS, Stage, TEMPLATE_HINT};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::keymap::KEYMAP;
use crate::tui::model::{Model, Pane};
use crate::tui::msg::Msg;
use crate::tui::update::tests::*;
use crate::tui::update::update;

fn sends(fx: &[Effect]) -> Vec<(u64, String, SendMessage)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Compose(ComposeEffect::Send { id, contact, body }) => Some((*id, contact.clone(), body.clone())),
            _ => None,
        })
        .collect()
}

fn poll_of(fx: &[Effect]) -> Option<(u64, String)> {
    fx.iter().find_map(|e| match e {
        Effect::Compose(ComposeEffect::PollStatus { id, uuid, after }) => {
            assert_eq!(*after, Duration::from_secs(2));
            Some((*id, uuid.clone()))
        }
        _ => None,
    })
}

fn sent_ok(id: u64, contact: &str, uuid: &str) -> Msg {
    Msg::Compose(ComposeMsg::Sent {
        id,
        contact: contact.into(),
        result: Ok(SentMessage {
            uuid: uuid.into(),
            status: DeliveryStatus::Enqueued,
        }),
    })
}

fn status(id: u64, uuid: &str, s: DeliveryStatus) -> Msg {
    Msg::Compose(ComposeMsg::Status {
        id,
        uuid: uuid.into(),
        result: Ok(MessageSendRequest {
            uuid: uuid.into(),
            status: s,
            message_status_payload: None,
        }),
    })
}

/// A model with contact 0 shown and the composer open.
fn composing() -> (Model, String) {
    let mut m = model_with(20, 160, 48);
    let uuid = m.thread.contact.clone().unwrap();
    update(&mut m, key('R'));
    (m, uuid)
}

#[test]
fn r_opens_the_composer_on_the_selected_contact() {
    let (m, uuid) = composing();
    assert_eq!(m.compose.open.as_deref(), Some(uuid.as_str()));
    assert_eq!(m.focus, Pane::Thread);
    assert!(KEYMAP.iter().any(|b| b.name == "reply"), "palette and help list it");
}

#[test]
fn esc_on_an_empty_composer_closes_it_and_each_contact_has_its_own_draft() {
    let (mut m, first) = composing();
    update(&mut m, code(KeyCode::Esc));
    assert!(m.compose.open.is_none(), "nothing to discard: no question");
    type_text(&mut m, "j"); // the list's key again
    let second = m.list.selected_uuid().unwrap();
    assert_ne!(second, first);
    update(&mut m, key('R'));
    assert_eq!(m.compose.open.as_deref(), Some(second.as_str()));
    type_text(&mut m, "other");
    assert_eq!(m.compose.draft(&second), "other");
    assert_eq!(m.compose.draft(&first), "");
}

#[test]
fn nothing_is_sent_empty() {
    let (mut m, _) = composing();
    type_text(&mut m, "   ");
    assert!(sends(&submit(&mut m)).is_empty());
    assert!(m.compose.outbox.is_empty());
}

#[test]
fn ctrl_s_sends_once_with_the_right_body_and_shows_it_pending() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "Your order ships today");
    let fx = submit(&mut m);
    let s = sends(&fx);
    assert_eq!(s.len(), 1);
    let (_, contact, body) = &s[0];
    assert_eq!(contact, &uuid);
    let c = m.list.get(&uuid).unwrap();
    assert_eq!(
        body,
        &SendMessage::text(
            c.phone_number.to_string(),
            c.source.to_string(),
            "Your order ships today"
        )
    );
    assert_eq!(body.from, "messaging_app");
    assert_eq!(m.compose.outbox.len(), 1);
    assert_eq!(m.compose.outbox[0].marker(), "sending…");
    // A second Ctrl-S while it is in flight sends nothing more.
    assert!(sends(&submit(&mut m)).is_empty());
    // Ctrl-Enter sends too (when the terminal reports it), here refused as in flight.
    let fx = update(&mut m, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::CONTROL)));
    assert!(sends(&fx).is_empty());
}

#[test]
fn ctrl_enter_sends() {
    let (mut m, _) = composing();
    type_text(&mut m, "hello");
    let fx = update(&mut m, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::CONTROL)));
    assert_eq!(sends(&fx).len(), 1);
}

#[test]
fn success_clears_the_draft_and_polls_until_read() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "hello");
    let (id, ..) = sends(&submit(&mut m)).remove(0);
    let fx = update(&mut m, sent_ok(id, &uuid, "msg-1"));
    assert_eq!(m.compose.draft(&uuid), "");
    assert!(m.compose.errors.is_empty());
    let o = &m.compose.outbox[0];
    assert_eq!((o.uuid.as_deref(), o.marker().as_str()), (Some("msg-1"), "✓ enqueued"));
    let (p1, u) = poll_of(&fx).expect("a status poll");
    assert_eq!(u, "msg-1");
    let fx = update(&mut m, status(p1, "msg-1", DeliveryStatus::Delivered));
    assert_eq!(m.compose.outbox[0].marker(), "✓✓ delivered");
    let (p2, _) = poll_of(&fx).expect("polls again");
    // A stale poll answer changes nothing.
    update(&mut m, status(p1, "msg-1", DeliveryStatus::Failed));
    assert_eq!(m.compose.outbox[0].marker(), "✓✓ delivered");
    let fx = update(&mut m, status(p2, "msg-1", DeliveryStatus::Read));
    assert_eq!(m.compose.outbox[0].marker(), "✓✓ read");
    assert!(poll_of(&fx).is_none(), "read is final");
}

#[test]
fn polls_stop_after_the_limit() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "hello");
    let (id, ..) = sends(&submit(&mut m)).remove(0);
    let mut fx = update(&mut m, sent_ok(id, &uuid, "msg-1"));
    let mut n = 0;
    while let Some((p, _)) = poll_of(&fx) {
        n += 1;
        fx = update(&mut m, status(p, "msg-1", DeliveryStatus::Sent));
    }
    assert_eq!(n, MAX_POLLS as usize);
    assert_eq!(m.compose.outbox[0].marker(), "✓ sent");
}

#[test]
fn failure_keeps_the_draft_and_shows_the_error() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "hello");
    let (id, ..) = sends(&submit(&mut m)).remove(0);
    update(
        &mut m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact: uuid.clone(),
            result: Err(ApiError::Server {
                status: 500,
                message: "boom".into(),
            }),
        }),
    );
    assert!(m.compose.outbox.is_empty(), "the pending entry goes away");
    assert_eq!(m.compose.draft(&uuid), "hello");
    let e = m.compose.errors.get(&uuid).unwrap();
    assert!(e.contains("could not send") && e.contains("boom"), "{e}");
    assert!(m.status.current().unwrap().text.contains("could not send"));
}

#[test]
fn not_offered_says_so() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "hello");
    let (id, ..) = sends(&submit(&mut m)).remove(0);
    update(
        &mut m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact: uuid.clone(),
            result: Err(ApiError::NotOffered {
                what: "sending messages".into(),
            }),
        }),
    );
    assert_eq!(m.compose.errors[&uuid], "this server does not offer sending messages");
}

fn templates() -> Vec<Template> {
    vec![
        Template {
            uuid: "t-ok".into(),
            title: "Order update".into(),
            status: "approved".into(),
            text: "Hi {{1}}, your order {{2}} is on its way".into(),
            ..Default::default()
        },
        Template {
            uuid: "t-bad".into(),
            title: "Rejected one".into(),
            status: "rejected".into(),
            text: "no".into(),
            ..Default::default()
        },
    ]
}

/// Ctrl-T: the templates are fetched (answered with [`templates`]), and
/// the approved ones offered.
fn open_templates(m: &mut Model) {
    let fx = update(m, ctrl('t'));
    let tid = fx
        .iter()
        .find_map(|e| match e {
            Effect::Account(AccountEffect::FetchTemplates { id }) => Some(*id),
            _ => None,
        })
        .expect("GET /templates");
    update(
        m,
        Msg::Account(AccountMsg::Templates {
            id: tid,
            result: Ok(templates()),
        }),
    );
}

#[test]
fn the_24_hour_rule_suggests_a_template_which_is_sent_with_values() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "hello");
    let (id, ..) = sends(&submit(&mut m)).remove(0);
    update(
        &mut m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact: uuid.clone(),
            result: Err(err()),
        }),
    );
    let shown = &m.compose.errors[&uuid];
    assert!(shown.ends_with(TEMPLATE_HINT), "{shown}");
    assert!(shown.contains("note is too long"), "the service's own words: {shown}");
    assert_eq!(m.compose.draft(&uuid), "hello");
    // Ctrl-T: the templates are fetched, then the approved ones offered.
    open_templates(&mut m);
    let highlighted = |m: &Model| match &m.compose.stage {
        Stage::Templates(p) => p.highlighted().map(str::to_string),
        other => panic!("{other:?}"),
    };
    assert_eq!(highlighted(&m).as_deref(), Some("t-ok"));
    update(&mut m, code(KeyCode::Down));
    assert_eq!(highlighted(&m).as_deref(), Some("t-ok"), "only approved ones");
    update(&mut m, code(KeyCode::Enter));
    assert!(matches!(m.compose.stage, Stage::Values { .. }), "{:?}", m.compose.stage);
    type_text(&mut m, "Ana");
    update(&mut m, code(KeyCode::Tab));
    type_text(&mut m, "#42");
    // The values show filled in first; a second key sends.
    assert!(sends(&submit(&mut m)).is_empty(), "a preview, not a send");
    assert!(
        matches!(m.compose.stage, Stage::Preview { .. }),
        "{:?}",
        m.compose.stage
    );
    let fx = submit(&mut m);
    let s = sends(&fx);
    assert_eq!(s.len(), 1);
    let c = m.list.get(&uuid).unwrap();
    assert_eq!(
        s[0].2,
        SendMessage::template(
            c.phone_number.clone(),
            "messaging_app",
            "t-ok",
            vec!["Ana".into(), "#42".into()]
        )
    );
    assert_eq!(m.compose.outbox[0].text, "Hi Ana, your order #42 is on its way");
    assert!(matches!(m.compose.stage, Stage::Edit));
    // A template send keeps the text draft.
    update(&mut m, sent_ok(s[0].0, &uuid, "msg-t"));
    assert_eq!(m.compose.draft(&uuid), "hello");
}

#[test]
fn a_stale_result_for_another_contact_is_dropped() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "hello");
    let (id, ..) = sends(&submit(&mut m)).remove(0);
    let other = m.list.store.get(1).unwrap().uuid.clone();
    let fx = update(&mut m, sent_ok(id, &other, "msg-x"));
    assert!(fx.is_empty());
    assert_eq!(m.compose.draft(&uuid), "hello");
    assert_eq!(m.compose.outbox[0].marker(), "sending…");
    // An unknown id too.
    update(&mut m, sent_ok(id + 100, &uuid, "msg-y"));
    assert_eq!(m.compose.outbox[0].marker(), "sending…");
    // Templates answering a request nobody waits for are ignored.
    update(
        &mut m,
        Msg::Account(AccountMsg::Templates {
            id: 9999,
            result: Ok(templates()),
        }),
    );
    assert!(m.catalog.templates.data.is_none());
    assert!(matches!(m.compose.stage, Stage::Edit));
}

#[test]
fn the_servers_copy_replaces_the_pending_line() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "hello");
    let (id, ..) = sends(&submit(&mut m)).remove(0);
    update(&mut m, sent_ok(id, &uuid, "msg-1"));
    let lines =
        crate::tui::compose::outbox_lines(&m.compose, m.thread.contact.as_deref(), &m.thread.messages, 60, None);
    assert_eq!(lines.len(), 2);
    m.thread.messages.push(crate::api::Message {
        uuid: Some("msg-1".into()),
        text: "hello".into(),
        created_at: Some(now()),
        status: crate::api::MessageStatus::Sent,
        channel: "messaging_app".into(),
        from: "agent".into(),
        to: String::new(),
        sent_by: None,
        rich: Default::default(),
    });
    assert!(
        crate::tui::compose::outbox_lines(&m.compose, m.thread.contact.as_deref(), &m.thread.messages, 60, None)
            .is_empty()
    );
    assert_eq!(crate::tui::compose::marks(&m.compose)["msg-1"], "✓ enqueued");
}

#[test]
fn paste_goes_into_the_composer() {
    let (mut m, uuid) = composing();
    update(&mut m, Msg::Paste("pasted\u{1b}[2J text".into()));
    let d = m.compose.draft(&uuid);
    assert!(d.starts_with("pasted") && !d.contains('\u{1b}'), "{d:?}");
}

/// Through a hub: a colleague's reply since the composer opened, or a
/// colleague composing now, asks before the send; `n` keeps the text, `y`
/// sends it, and the same reply is not asked about twice.
#[test]
fn a_send_over_a_colleagues_reply_asks_first() {
    use crate::hubclient::{HubEvent, Presence, PresenceState};
    let (mut m, uuid) = composing();
    m.colleagues.me = Some("bea".into());
    type_text(&mut m, "On it");
    let now = m.now;
    let reply: crate::api::Message =
        serde_json::from_value(serde_json::json!({ "text": "done", "status": "enqueued" })).unwrap();
    let event = HubEvent::MessageCreated {
        contact: uuid.clone(),
        message: reply,
        agent: Some("dana".into()),
    };
    crate::tui::hub::event(&mut m.colleagues, &event, now);
    assert!(sends(&submit(&mut m)).is_empty(), "asked, not sent");
    assert!(
        matches!(&m.compose.stage, Stage::Colleague(why) if why.starts_with("dana replied")),
        "{:?}",
        m.compose.stage
    );
    update(&mut m, key('n'));
    assert_eq!(m.compose.draft(&uuid), "On it", "nothing typed is lost");
    assert!(
        sends(&submit(&mut m)).is_empty(),
        "asked again: the reply is still news"
    );
    let fx = update(&mut m, key('y'));
    assert_eq!(sends(&fx).len(), 1, "sent anyway");
    // A colleague composing now asks too, once the last send is seen.
    let (mut m, uuid) = composing();
    let seen = HubEvent::Presence(Presence {
        agent: "dana".into(),
        contact: uuid.clone(),
        state: PresenceState::Composing,
        expires_at: None,
    });
    crate::tui::hub::event(&mut m.colleagues, &seen, m.now);
    type_text(&mut m, "Hello");
    assert!(sends(&submit(&mut m)).is_empty());
    assert!(matches!(&m.compose.stage, Stage::Colleague(why) if why == "dana is replying now"));
}

/// A template asks too while a colleague answers the customer (issue 36):
/// "no" goes back to the filled template with its values, "yes" sends it.
#[test]
fn a_template_send_asks_while_a_colleague_is_replying_and_no_keeps_its_values() {
    use crate::hubclient::{HubEvent, Presence, PresenceState};
    let (mut m, uuid) = composing();
    open_templates(&mut m);
    update(&mut m, code(KeyCode::Enter));
    type_text(&mut m, "Ana");
    update(&mut m, code(KeyCode::Tab));
    type_text(&mut m, "#42");
    assert!(sends(&submit(&mut m)).is_empty(), "the preview");
    // Meanwhile dana starts answering this customer.
    let seen = HubEvent::Presence(Presence {
        agent: "dana".into(),
        contact: uuid.clone(),
        state: PresenceState::Composing,
        expires_at: None,
    });
    crate::tui::hub::event(&mut m.colleagues, &seen, m.now);
    assert!(sends(&submit(&mut m)).is_empty(), "asked, not sent");
    assert!(
        matches!(&m.compose.stage, Stage::Colleague(why) if why == "dana is replying now"),
        "{:?}",
        m.compose.stage
    );
    update(&mut m, key('n'));
    match &m.compose.stage {
        Stage::Preview { values, .. } => assert_eq!(values, &vec!["Ana".to_string(), "#42".to_string()]),
        other => panic!("back to the filled template, not {other:?}"),
    }
    assert!(sends(&submit(&mut m)).is_empty(), "asked again");
    let fx = update(&mut m, key('y'));
    let s = sends(&fx);
    assert_eq!(s.len(), 1, "sent anyway");
    let c = m.list.get(&uuid).unwrap();
    assert_eq!(
        s[0].2,
        SendMessage::template(
            c.phone_number.clone(),
            "messaging_app",
            "t-ok",
            vec!["Ana".into(), "#42".into()]
        )
    );
    assert!(matches!(m.compose.stage, Stage::Edit));
}
