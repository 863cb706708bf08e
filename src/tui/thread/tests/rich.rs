//! Rich messages in the thread at 80x24: every part a user must see
//! (attachment kind, file name and URL; location and map link; contact
//! card; buttons and list options; the quoted message; the forwarded
//! mark), made inert and wrapped inside the pane.

use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

use crate::api::Message;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;
use crate::tui::update::update;

fn rich(minutes_ago: i64, v: serde_json::Value) -> Message {
    let mut m: Message = serde_json::from_value(v).unwrap();
    m.created_at = Some(now() - chrono::Duration::minutes(minutes_ago));
    m.from = "+5511900000001".into();
    m
}

/// The first contact's thread holding `newest_first`, the pane focused.
pub fn thread_with(newest_first: Vec<Message>, w: u16, h: u16) -> Model {
    let mut m = model_with(20, w, h);
    let (Some(contact), Some(id)) = (m.thread.contact.clone(), m.thread.loading) else {
        panic!("the fixture opens the first thread");
    };
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id,
            contact,
            fetch: crate::tui::thread::ThreadFetch::Initial,
            result: Ok(page(newest_first, None)),
        }),
    );
    m.list.paging.loading = None;
    update(&mut m, code(KeyCode::Tab));
    m
}

pub fn screen(m: &Model) -> String {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| crate::tui::view::view(m, f, &Theme::plain())).unwrap();
    let buf = t.backend().buffer().clone();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The customer's photo, a document, a location and a contact card.
pub fn files_and_places() -> Vec<Message> {
    vec![
        rich(
            1,
            json!({ "text": "", "status": "received", "messageContactCard": { "contactsInfo": [
            { "name": "Peter Parker", "phones": [{ "phone": "+1 555 0100", "type": "MOBILE" }] }] } }),
        ),
        rich(
            2,
            json!({ "text": "I am here", "status": "received", "messageLocation": {
            "coordinates": { "x": -23.6054, "y": -46.6373 }, "googleMapsLocation": "https://maps.googleapis.com/x" } }),
        ),
        rich(
            3,
            json!({ "text": "The manual", "status": "received",
            "attachments": ["https://files.example.com/u/1/manual.pdf", "https://files.example.com/u/2/photo.jpg"] }),
        ),
    ]
}

#[test]
fn attachments_a_location_and_a_contact_card_show_at_80x24() {
    let m = thread_with(files_and_places(), 80, 24);
    let s = screen(&m);
    for seen in [
        "[document] manual.pdf",
        "[image] photo.jpg",
        "files.example.com/u/1/manual.pdf",
        "[location] -23.6054, -46.6373",
        "google.com/maps?q=-23.6054,-46.6373",
        "[contact] Peter Parker +1 555 0100",
    ] {
        assert!(s.contains(seen), "{seen:?} is on screen:\n{s}");
    }
}

#[test]
fn buttons_a_list_a_quoted_reply_and_a_forward_show_at_80x24() {
    let newest_first = vec![
        rich(
            1,
            json!({ "text": "Look at this", "status": "received", "messageForward": { "forwarded": true } }),
        ),
        rich(
            2,
            json!({ "text": "The blue ones", "status": "received",
            "mesageContext": { "target": { "text": "Which colour?", "status": "sent" } } }),
        ),
        rich(
            3,
            json!({ "text": "", "status": "received", "messageInteractiveList": { "metadata":
            "{\"header\":\"Our shop\",\"body\":\"Pick one\",\"sections\":[{\"title\":\"Shoes\",\"items\":[{\"header\":\"Sneakers\"}]}]}" } }),
        ),
        rich(
            4,
            json!({ "text": "", "status": "received", "messageReplyButton": { "metadata": {
            "content": { "text": "Did this help?" }, "options": [{ "title": "Yes" }, { "title": "No" }] } } }),
        ),
    ];
    let m = thread_with(newest_first, 80, 24);
    let s = screen(&m);
    for seen in [
        "[buttons] Did this help?",
        "(Yes) (No)",
        "[list] Our shop · Pick one",
        "(Shoes: Sneakers)",
        "> you: Which colour?",
        "[forwarded]",
    ] {
        assert!(s.contains(seen), "{seen:?} is on screen:\n{s}");
    }
}

#[test]
fn hostile_text_in_a_rich_part_is_inert() {
    let m = thread_with(
        vec![rich(
            1,
            json!({ "text": "x", "status": "received",
            "attachments": ["https://evil.example/a\u{1b}[2Jb.pdf"],
            "messageContactCard": { "contactsInfo": [{ "name": "Eve\u{1b}]52;c;aGk=\u{7}", "phones": [] }] } }),
        )],
        80,
        24,
    );
    let s = screen(&m);
    assert!(
        !s.contains('\u{1b}') && !s.contains('\u{7}'),
        "no control character reaches the screen:\n{s}"
    );
    assert!(s.contains("[contact] Eve"), "{s}");
}

#[test]
fn o_opens_each_link_of_the_selected_message_in_turn() {
    use crate::tui::effect::Effect;
    use crate::tui::thread::{Opened, ThreadEffect, ThreadMsg};
    let mut m = thread_with(files_and_places(), 80, 24);
    let opened = |fx: Vec<Effect>| {
        fx.into_iter()
            .find_map(|e| match e {
                Effect::Thread(ThreadEffect::Open { url }) => Some(url),
                _ => None,
            })
            .expect("the opener is asked")
    };
    // The newest (a contact card) has nothing to open: it says so.
    let fx = update(&mut m, key('o'));
    assert!(
        fx.iter()
            .all(|e| !matches!(e, Effect::Thread(ThreadEffect::Open { .. })))
    );
    assert!(m.status.current().unwrap().text.contains("no attachment or link"));
    update(&mut m, key('k'));
    update(&mut m, key('k'));
    assert_eq!(
        opened(update(&mut m, key('o'))),
        "https://files.example.com/u/1/manual.pdf"
    );
    assert_eq!(
        opened(update(&mut m, key('o'))),
        "https://files.example.com/u/2/photo.jpg"
    );
    assert_eq!(
        opened(update(&mut m, key('o'))),
        "https://files.example.com/u/1/manual.pdf"
    );
    update(&mut m, key('j'));
    let map = opened(update(&mut m, key('o')));
    assert_eq!(map, "https://www.google.com/maps?q=-23.6054,-46.6373");

    // Over SSH the opener is not run: the link is copied with OSC 52.
    let fx = update(
        &mut m,
        Msg::Thread(ThreadMsg::Opened {
            url: map.clone(),
            outcome: Opened::CopyOverSsh,
        }),
    );
    assert!(fx.contains(&Effect::CopyToClipboard(map)));
    assert!(m.status.current().unwrap().text.contains("over SSH: copied"));
}
