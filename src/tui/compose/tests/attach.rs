//! `C-o`: a file by URL on the reply, its text the caption, sent as
//! `messages send --image URL --text …` sends it.

use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::api::SendMessage;
use crate::tui::compose::{ComposeEffect, ComposeMsg, Stage};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;
use crate::tui::update::tests::{submit, type_text};
use crate::tui::update::update;

fn composing() -> (Model, String) {
    let mut m = model_with(20, 80, 24);
    let uuid = m.thread.contact.clone().unwrap();
    update(&mut m, key('R'));
    (m, uuid)
}

fn screen(m: &Model) -> String {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| crate::tui::view::view(m, f, &Theme::plain())).unwrap();
    format!("{}", t.backend())
}

fn sends(fx: &[Effect]) -> Vec<SendMessage> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Compose(ComposeEffect::Send { body, .. }) => Some(body.clone()),
            _ => None,
        })
        .collect()
}

/// `C-o`, the URL typed, Enter.
fn attach(m: &mut Model, url: &str) {
    update(m, ctrl('o'));
    assert!(matches!(m.compose.stage, Stage::Attach(_)), "{:?}", m.compose.stage);
    update(m, ctrl('u'));
    type_text(m, url);
    update(m, code(KeyCode::Enter));
}

#[test]
fn a_file_by_url_goes_with_the_text_as_its_caption() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "the manual you asked for");
    attach(&mut m, "https://files.example.com/docs/manual.pdf");
    assert!(matches!(m.compose.stage, Stage::Edit));
    let s = screen(&m);
    assert!(s.contains("Reply + document: manual.pdf"), "shown before it goes:\n{s}");

    let fx = submit(&mut m);
    let body = sends(&fx).pop().expect("sent");
    let c = m.list.get(&uuid).unwrap();
    assert_eq!(
        body,
        SendMessage::media(
            c.phone_number.to_string(),
            "messaging_app",
            "document",
            "https://files.example.com/docs/manual.pdf",
            "the manual you asked for"
        )
    );
    assert_eq!(
        m.compose.outbox[0].text,
        "[document: manual.pdf] the manual you asked for"
    );
    let id = m.compose.outbox[0].sending.unwrap();
    update(
        &mut m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact: uuid.clone(),
            result: Ok(crate::api::SentMessage {
                uuid: "m-1".into(),
                status: crate::api::DeliveryStatus::Enqueued,
            }),
        }),
    );
    assert!(m.compose.attachments.is_empty(), "the next reply starts without it");
}

#[test]
fn the_kind_is_guessed_and_can_be_chosen_and_an_image_needs_no_text() {
    let (mut m, _) = composing();
    attach(&mut m, "https://cdn.example.com/p/photo.JPG?w=800");
    let body = sends(&submit(&mut m)).pop().expect("an image alone is a message");
    assert_eq!(body.message_type, "image");
    assert_eq!(body.content.text, "");

    let (mut m, _) = composing();
    update(&mut m, ctrl('o'));
    type_text(&mut m, "https://cdn.example.com/clip");
    // The kind: the next field, then "video" typed into its filter.
    update(&mut m, code(KeyCode::Tab));
    type_text(&mut m, "video");
    update(&mut m, code(KeyCode::Enter));
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.compose.attachments.values().next().map(|a| a.kind), Some("video"));
}

#[test]
fn a_url_that_is_not_http_is_refused_and_nothing_typed_is_lost() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "see attached");
    attach(&mut m, "/home/me/photo.jpg");
    let Stage::Attach(form) = &m.compose.stage else {
        panic!("the form stays open: {:?}", m.compose.stage);
    };
    assert_eq!(
        form.value(&crate::tui::form::FieldId::Url),
        Some(crate::tui::form::FormValue::Text("/home/me/photo.jpg".into()))
    );
    assert!(screen(&m).contains("http(s) URL"), "{}", screen(&m));
    assert_eq!(m.compose.draft(&uuid), "see attached");
    assert!(m.compose.attachments.is_empty());
    // Esc goes back to the reply, as typed.
    update(&mut m, code(KeyCode::Esc));
    assert!(matches!(m.compose.stage, Stage::Edit));
    assert_eq!(m.compose.draft(&uuid), "see attached");
}

#[test]
fn an_emptied_url_takes_the_file_off() {
    let (mut m, _) = composing();
    attach(&mut m, "https://x.example/a.png");
    assert_eq!(m.compose.attachments.len(), 1);
    attach(&mut m, "");
    assert!(m.compose.attachments.is_empty());
    assert!(!screen(&m).contains("Reply +"));
}
