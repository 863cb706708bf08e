//! The widgets follow the keymap they are given: a row rebound in `[keys]`
//! moves the key in a form, a list, a line and a text box.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::keys::{k, typ};
use crate::config::KeyEntry;
use crate::tui::form::*;
use crate::tui::keymap::DEFAULT_KEYS as KEYS;
use crate::tui::keymap::Keymap;

/// The defaults with `entries` (`name`, keys) applied.
fn rebound(entries: &[(&str, &[&str])]) -> Keymap {
    let entries: Vec<KeyEntry> = entries
        .iter()
        .map(|(name, keys)| KeyEntry {
            action: name.to_string(),
            keys: keys.iter().map(|k| k.to_string()).collect(),
            at: "test".into(),
        })
        .collect();
    let (map, problems) = Keymap::resolve(&entries);
    assert!(problems.is_empty(), "{problems:?}");
    map
}

fn ctrl(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::CONTROL)
}

fn line() -> Form {
    Form::new(
        "t",
        vec![FieldSpec {
            key: FieldId::Name,
            label: "Name".into(),
            kind: FieldKind::Text {
                value: String::new(),
                check: TextCheck::Any,
            },
            required: false,
            help: None,
        }],
    )
}

fn name(f: &Form) -> Option<FormValue> {
    f.value(&FieldId::Name)
}

#[test]
fn a_rebound_form_row_moves_the_key() {
    let keys = rebound(&[("form.save", &["f2"]), ("form.done", &["ctrl-enter"])]);
    let mut f = line();
    typ(&mut f, "Ann");
    assert_eq!(f.handle_key(&keys, ctrl(KeyCode::Char('s'))), FormOutcome::Pending);
    assert_eq!(f.handle_key(&keys, k(KeyCode::Enter)), FormOutcome::Pending);
    assert_eq!(f.handle_key(&keys, k(KeyCode::F(2))), FormOutcome::Submitted);
    assert_eq!(f.handle_key(&keys, ctrl(KeyCode::Enter)), FormOutcome::Submitted);
    // The same form with the defaults.
    assert_eq!(f.handle_key(&KEYS, ctrl(KeyCode::Char('s'))), FormOutcome::Submitted);
}

#[test]
fn a_rebound_text_row_moves_the_editing_key() {
    let keys = rebound(&[("text.delete-back", &["ctrl-h"]), ("text.home", &["f3"])]);
    let mut f = line();
    typ(&mut f, "Anna");
    f.handle_key(&keys, k(KeyCode::Backspace));
    assert_eq!(
        name(&f),
        Some(FormValue::Text("Anna".into())),
        "Backspace is no key now"
    );
    f.handle_key(&keys, ctrl(KeyCode::Char('h')));
    assert_eq!(name(&f), Some(FormValue::Text("Ann".into())));
    f.handle_key(&keys, k(KeyCode::F(3)));
    typ(&mut f, ">");
    assert_eq!(name(&f), Some(FormValue::Text(">Ann".into())), "F3 went to the start");
}

#[test]
fn a_rebound_picker_row_moves_the_key_in_the_palette() {
    let keys = rebound(&[("picker.down", &["j"]), ("picker.choose", &["tab"])]);
    let items = ["one", "two", "three"]
        .iter()
        .map(|s| PickItem {
            label: s.to_string(),
            detail: String::new(),
            key: s.to_string(),
        })
        .collect();
    let mut p = FuzzyPicker::new("t", items);
    assert_eq!(p.handle_key(&keys, k(KeyCode::Down)), PickOutcome::Pending);
    assert_eq!(p.highlighted(), Some("one"), "↓ is no key now");
    p.handle_key(&keys, k(KeyCode::Char('j')));
    assert_eq!(p.highlighted(), Some("two"), "j moves, it does not filter");
    assert_eq!(p.handle_key(&keys, k(KeyCode::Enter)), PickOutcome::Pending);
    assert_eq!(p.handle_key(&keys, k(KeyCode::Tab)), PickOutcome::Chosen("two".into()));
}

#[test]
fn a_rebound_box_row_moves_the_key_in_a_text_box() {
    let keys = rebound(&[("box.newline", &["ctrl-j"]), ("box.undo", &["ctrl-z"])]);
    let mut area = ratatui_textarea::TextArea::default();
    for c in "hi".chars() {
        textarea_key(&mut area, &keys, k(KeyCode::Char(c)));
    }
    assert!(
        !textarea_key(&mut area, &keys, k(KeyCode::Enter)),
        "Enter is no key now"
    );
    assert!(textarea_key(&mut area, &keys, ctrl(KeyCode::Char('j'))));
    assert_eq!(area.lines(), ["hi", ""]);
    // C-u is text.delete-to-start again: box.undo let go of it.
    textarea_key(&mut area, &keys, k(KeyCode::Char('x')));
    textarea_key(&mut area, &keys, ctrl(KeyCode::Char('u')));
    assert_eq!(area.lines(), ["hi", ""]);
    assert!(textarea_key(&mut area, &keys, ctrl(KeyCode::Char('z'))), "undo");
    assert_eq!(area.lines(), ["hi", "x"]);
}
