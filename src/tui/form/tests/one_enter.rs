//! Issue 38: the tag picker took two Enters. In a form of one picker,
//! Enter on a typed entry adds it and saves; among other fields it adds.

use crossterm::event::KeyCode;

use super::keys::{k, multi, note, typ};
use crate::api::Contact;
use crate::tui::form::*;
use crate::tui::keymap::DEFAULT_KEYS as KEYS;

#[test]
fn a_form_of_one_picker_adds_the_typed_entry_and_saves_on_one_enter() {
    let mut f = Form::new("t", vec![multi("m", &["red", "green"], &[], true)]);
    typ(&mut f, "gre");
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Submitted);
    assert_eq!(
        f.value(&FieldId::Custom("m".into())),
        Some(FormValue::Many(vec!["green".into()]))
    );
}

#[test]
fn among_other_fields_enter_on_a_typed_entry_only_adds_it() {
    let mut f = Form::new("t", vec![multi("m", &["red"], &[], true), note("", 50)]);
    typ(&mut f, "red");
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Pending);
}

#[test]
fn one_enter_on_a_typed_tag_adds_it_and_saves() {
    let c = Contact {
        tags: vec!["vip".into()],
        ..Default::default()
    };
    let mut f = tags_form(&c, &["new".into(), "vip".into()]);
    typ(&mut f, "new");
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Submitted);
    assert_eq!(tags_patch(&f).tags, Some(vec!["new".into(), "vip".into()]));
}
