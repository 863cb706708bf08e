//! Undo after something that cannot be undone (a message sent): `u` says
//! so and names what a second `u` takes back, instead of quietly undoing
//! an earlier action.

use super::undo::{answer, server};
use super::*;
use crate::triage::bulk::Action as Act;

fn toast(m: &Model) -> String {
    m.status.current().map(|t| t.text.clone()).unwrap_or_default()
}

fn applies(fx: &[Effect]) -> Vec<(String, Act)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Apply { uuid, action, .. } => Some((uuid.clone(), action.clone())),
            _ => None,
        })
        .collect()
}

/// Replies `text` to the selected contact and closes the composer.
fn send(m: &mut Model, text: &str) {
    update(m, key('R'));
    type_text(m, text);
    let fx = submit(m);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Compose(crate::tui::compose::ComposeEffect::Send { .. }))),
        "a send"
    );
    update(m, code(KeyCode::Esc));
}

#[test]
fn u_after_a_send_says_it_cannot_and_a_second_u_undoes_the_close() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('c'));
    answer(&mut m, &fx, server(&contact(0), &Act::Close));
    send(&mut m, "we are on it");
    let fx = update(&mut m, key('u'));
    assert!(applies(&fx).is_empty(), "the close is not undone quietly");
    assert_eq!(
        toast(&m),
        "sending cannot be undone; u again undoes: closed (Ana Souza)"
    );
    assert_eq!(applies(&update(&mut m, key('u'))), vec![(uuid, Act::Reopen)]);
}

#[test]
fn u_after_a_send_with_nothing_else_says_sending_cannot_be_undone() {
    let mut m = model_with(20, 160, 48);
    send(&mut m, "hello");
    assert!(applies(&update(&mut m, key('u'))).is_empty());
    assert_eq!(toast(&m), "sending cannot be undone");
}

#[test]
fn an_action_after_the_send_is_undone_at_once() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    send(&mut m, "hello");
    let fx = update(&mut m, key('c'));
    answer(&mut m, &fx, server(&contact(0), &Act::Close));
    assert_eq!(applies(&update(&mut m, key('u'))), vec![(uuid, Act::Reopen)]);
}
