//! The history overlay (`U`), once closed, takes no more keys: they go to
//! the list again, whichever of its close keys shut it, and after an undo
//! from it.

use super::undo::{answer, server};
use super::*;
use crate::triage::bulk::Action as Act;

/// A model with one close done (on the first contact).
fn closed_one() -> Model {
    let mut m = model_with(20, 160, 48);
    let fx = update(&mut m, key('c'));
    answer(&mut m, &fx, server(&contact(0), &Act::Close));
    m
}

fn list_takes_keys(m: &mut Model) {
    assert!(m.overlay.is_none(), "closed");
    let before = m.list.view.selected;
    update(m, key('j'));
    assert_eq!(m.list.view.selected, before + 1, "j moves the list, not the history");
    update(m, key('k'));
    assert_eq!(m.list.view.selected, before);
    // The history's own keys do their list's work again.
    update(m, key('G'));
    assert!(m.list.view.selected > before, "G goes to the list's end");
    assert!(m.overlay.is_none());
}

#[test]
fn each_close_key_gives_the_keys_back_to_the_list() {
    for close in [code(KeyCode::Esc), key('q'), key('U')] {
        let mut m = closed_one();
        update(&mut m, key('U'));
        assert!(matches!(m.overlay, Some(Overlay::History { .. })));
        update(&mut m, close);
        list_takes_keys(&mut m);
    }
}

#[test]
fn after_an_undo_from_the_history_and_esc_the_list_takes_keys() {
    let mut m = closed_one();
    update(&mut m, key('U'));
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(fx.iter().any(|e| matches!(e, Effect::Apply { .. })), "the undo runs");
    update(&mut m, code(KeyCode::Esc));
    list_takes_keys(&mut m);
}
