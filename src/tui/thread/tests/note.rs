//! `N` in the thread: an internal note written from a small form, shown
//! in the thread once the service has it; elsewhere `N` still makes a
//! contact.

use crate::api::ApiError;
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::msg::Msg;
use crate::tui::thread::{Popup, ThreadEffect, ThreadFetch, ThreadMsg};
use crate::tui::update::update;

use super::rich::{files_and_places, screen, thread_with};

fn typed(m: &mut crate::tui::model::Model, text: &str) {
    for c in text.chars() {
        update(m, key(c));
    }
}

fn asked_note(fx: &[Effect]) -> Option<(crate::tui::shared::ReqId, String, String)> {
    fx.iter().find_map(|e| match e {
        Effect::Thread(ThreadEffect::Note { id, contact, text }) => Some((*id, contact.clone(), text.clone())),
        _ => None,
    })
}

#[test]
fn n_in_the_thread_writes_an_internal_note_that_then_shows_in_it() {
    let mut m = thread_with(files_and_places(), 80, 24);
    update(&mut m, key('N'));
    assert!(matches!(m.thread.popup, Some(Popup::Note { .. })));
    typed(&mut m, "Called back, @bea follows up");
    let s = screen(&m);
    assert!(s.contains("Internal note on"), "{s}");
    assert!(s.contains("Called back, @bea follows up"), "{s}");
    assert!(s.contains("the customer does not"), "{s}");

    let fx = update(&mut m, ctrl('s'));
    let (id, contact, text) = asked_note(&fx).expect("the note is sent");
    assert_eq!(contact, m.thread.contact.clone().unwrap());
    assert_eq!(text, "Called back, @bea follows up");
    assert!(m.thread.popup.is_none());

    let fx = update(&mut m, Msg::Thread(ThreadMsg::Noted { id, result: Ok(()) }));
    assert!(m.status.current().unwrap().text.contains("note written"));
    let refresh = fx.iter().any(|e| {
        matches!(
            e,
            Effect::Thread(ThreadEffect::Fetch {
                fetch: ThreadFetch::Refresh,
                ..
            })
        )
    });
    assert!(refresh, "the thread is fetched again to show the note: {fx:?}");
}

#[test]
fn a_note_the_service_refused_comes_back_with_the_next_n() {
    let mut m = thread_with(files_and_places(), 80, 24);
    update(&mut m, key('N'));
    typed(&mut m, "keep me");
    let fx = update(&mut m, ctrl('s'));
    let (id, _, _) = asked_note(&fx).expect("sent");
    let refused = Err(ApiError::Rejected {
        status: 422,
        message: "text is too long".into(),
    });
    update(&mut m, Msg::Thread(ThreadMsg::Noted { id, result: refused }));
    assert!(m.status.current().unwrap().text.contains("could not write the note"));
    update(&mut m, key('N'));
    assert!(screen(&m).contains("keep me"), "the note is back");
    // Esc drops it, nothing is sent.
    let fx = update(&mut m, code(crossterm::event::KeyCode::Esc));
    assert!(asked_note(&fx).is_none() && m.thread.popup.is_none());
}

#[test]
fn n_on_the_list_still_makes_a_contact() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('N'));
    assert!(m.thread.popup.is_none());
    assert!(m.overlay.is_some(), "the new contact form");
}
