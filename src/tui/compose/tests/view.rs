//! Snapshots of the reply composer and of sent messages in the thread.

use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::api::{DeliveryStatus, Message, MessageSendRequest, MessageStatus, SentMessage};
use crate::tui::compose::{ComposeEffect, ComposeMsg};
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;
use crate::tui::update::update;

fn loaded(w: u16, h: u16) -> Model {
    let mut m = model_with(20, w, h);
    load_thread(&mut m, 4, None);
    m.list.paging.loading = None;
    m
}

fn draw(m: &Model) -> String {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| crate::tui::view::view(m, f, &Theme::plain())).unwrap();
    let text = format!("{}", t.backend());
    assert!(!text.contains('\u{1b}'), "raw ESC reached the screen");
    text
}

fn type_text(m: &mut Model, s: &str) {
    for c in s.chars() {
        update(
            m,
            if c == '\n' {
                code(crossterm::event::KeyCode::Enter)
            } else {
                key(c)
            },
        );
    }
}

fn send_id(fx: &[crate::tui::effect::Effect]) -> u64 {
    fx.iter()
        .find_map(|e| match e {
            crate::tui::effect::Effect::Compose(ComposeEffect::Send { id, .. }) => Some(*id),
            _ => None,
        })
        .unwrap()
}

#[test]
fn composer_open_with_text() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = loaded(w, h);
        update(&mut m, key('R'));
        type_text(&mut m, "Hi Ana! Your shoes ship today \u{1b}[2J.\nTracking: BR123");
        assert_snapshot!(format!("composer_{w}x{h}"), draw(&m));
    }
}

#[test]
fn pending_and_delivered_messages_in_the_thread() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = loaded(w, h);
        let uuid = m.thread.contact.clone().unwrap();
        update(&mut m, key('R'));
        type_text(&mut m, "First reply, delivered");
        let id = send_id(&update(&mut m, ctrl('s')));
        update(
            &mut m,
            Msg::Compose(ComposeMsg::Sent {
                id,
                contact: uuid.clone(),
                result: Ok(SentMessage {
                    uuid: "msg-1".into(),
                    status: DeliveryStatus::Enqueued,
                }),
            }),
        );
        let poll = m.compose.outbox[0].poll.unwrap();
        update(
            &mut m,
            Msg::Compose(ComposeMsg::Status {
                id: poll,
                uuid: "msg-1".into(),
                result: Ok(MessageSendRequest {
                    uuid: "msg-1".into(),
                    status: DeliveryStatus::Delivered,
                    message_status_payload: None,
                }),
            }),
        );
        // The refresh brings the server's copy: shown once, with its marker.
        m.thread.messages.push(Message {
            uuid: Some("msg-1".into()),
            text: "First reply, delivered".into(),
            created_at: Some(now()),
            status: MessageStatus::Sent,
            channel: "messaging_app".into(),
            from: "agent".into(),
            to: String::new(),
            sent_by: None,
            rich: Default::default(),
        });
        type_text(&mut m, "Second one, on its way");
        update(&mut m, ctrl('s'));
        update(&mut m, crate::tui::fixtures::code(crossterm::event::KeyCode::Esc));
        m.focus = crate::tui::model::Pane::Thread;
        let text = draw(&m);
        assert_eq!(text.matches("First reply, delivered").count(), 1, "no duplicate");
        assert!(text.contains("sending…") && text.contains("✓✓ delivered"));
        assert_snapshot!(format!("pending_and_delivered_{w}x{h}"), text);
    }
}

#[test]
fn the_24_hour_error_shows_whole_in_the_composer() {
    let mut m = loaded(160, 48);
    let uuid = m.thread.contact.clone().unwrap();
    update(&mut m, key('R'));
    type_text(&mut m, "hello");
    let id = send_id(&update(&mut m, ctrl('s')));
    update(
        &mut m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact: uuid,
            result: Err(crate::api::ApiError::Validation {
                message: "outside the 24 hour window".into(),
                fields: Default::default(),
            }),
        }),
    );
    m.status = Default::default();
    let text = draw(&m);
    assert!(
        text.contains("outside the 24 hour window"),
        "the service's own words: {text}"
    );
    assert!(text.contains("Ctrl-T") && text.contains("sends a template"), "{text}");
    assert!(text.contains("hello"), "the draft stays");
}

#[test]
fn a_message_sent_here_shows_as_yours_once_the_thread_holds_it() {
    let mut m = loaded(160, 48);
    let uuid = m.thread.contact.clone().unwrap();
    update(&mut m, key('R'));
    type_text(&mut m, "Sent from here");
    let id = send_id(&update(&mut m, ctrl('s')));
    update(
        &mut m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact: uuid,
            result: Ok(SentMessage {
                uuid: "msg-1".into(),
                status: DeliveryStatus::Enqueued,
            }),
        }),
    );
    // The refresh brings the server's copy, sent from the channel's number.
    m.thread.messages.push(Message {
        uuid: Some("msg-1".into()),
        text: "Sent from here".into(),
        created_at: Some(now()),
        status: MessageStatus::Sent,
        channel: "messaging_app".into(),
        from: "+5511999990000".into(),
        to: String::new(),
        sent_by: None,
        rich: Default::default(),
    });
    update(&mut m, crate::tui::fixtures::code(crossterm::event::KeyCode::Esc));
    let text = draw(&m);
    let line = text.lines().find(|l| l.contains("✓ enqueued")).expect("its header");
    assert!(line.contains("you ›"), "{line}");
    assert!(!line.contains("+5511999990000"), "{line}");
}
