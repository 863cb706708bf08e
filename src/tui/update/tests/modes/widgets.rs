//! The widgets' keys come from the keymap too: a form's line, its lists
//! and its text box, the palette, the reply's text box and the first-run
//! screen, each walked through its layers (see `keymap::editing`).

use super::*;
use crate::tui::first_run::pick;
use crate::tui::form::FieldId;
use ModeAction as M;

/// Every key, and Ctrl with each named key (the text box's word and
/// paragraph moves are C-arrows).
fn every_key_and_ctrl() -> Vec<KeyEvent> {
    let mut out = every_key();
    // C-Enter is in every_key already; Ctrl with the other named keys.
    let named = super::NAMED
        .iter()
        .filter(|&&c| !matches!(c, KeyCode::Enter | KeyCode::BackTab | KeyCode::Insert));
    out.extend(named.map(|&code| KeyEvent::new(code, KeyModifiers::CONTROL)));
    out
}

/// The model as a test sees it: its `Debug`, and the open form's or
/// picker's (which the overlay's `Debug` leaves out).
fn seen(m: &Model) -> String {
    let widget = match &m.overlay {
        Some(Overlay::Form { form, .. }) => format!("{form:?}"),
        Some(Overlay::Palette(p) | Overlay::CustomStatus(p)) => format!("{p:?}"),
        _ => String::new(),
    };
    format!("{m:?}{widget}")
}

/// True when `k` does something to the model `open` builds, with `keys`.
fn acts(open: fn() -> Model, keys: &Arc<Keymap>, k: KeyEvent) -> bool {
    let mut m = open();
    m.keys = keys.clone();
    let before = seen(&m);
    let fx = update(&mut m, Msg::Key(k));
    !fx.is_empty() || seen(&m) != before
}

/// Walks a model `open` builds with the extra keys.
fn walk_all(what: &str, open: fn() -> Model, table: Table, text: Text) {
    let keys = open().keys;
    walk_with(
        what,
        &keys,
        &|keys, k| acts(open, keys, k),
        table,
        text,
        &every_key_and_ctrl(),
    );
}

/// The form's own keys, which come before any field's.
const FORM: &[ModeAction] = &[M::Cancel, M::Save, M::NextField, M::PrevField];
/// A one-line field: the form's keys, its own, then editing.
const LINE: &[(Mode, &[ModeAction])] = &[
    (
        Mode::Form,
        &[M::Cancel, M::Save, M::NextField, M::PrevField, M::Done, M::Down, M::Up],
    ),
    (Mode::Text, &[]),
];
/// A form's list: the form's keys, the list's (but its Esc, C-c: the
/// form's Esc closes the form), then the filter's editing.
const LIST: &[(Mode, &[ModeAction])] = &[
    (Mode::Form, FORM),
    (
        Mode::Picker,
        &[M::Choose, M::Toggle, M::Up, M::Down, M::PageUp, M::PageDown],
    ),
    (Mode::Text, &[]),
];
/// A form's text box (a note).
const NOTE: &[(Mode, &[ModeAction])] = &[(Mode::Form, FORM), (Mode::TextBox, &[]), (Mode::Text, &[])];
/// The palette and the pickers.
const PICKER: &[(Mode, &[ModeAction])] = &[(Mode::Picker, &[]), (Mode::Text, &[])];
/// The reply's text box.
const REPLY: &[(Mode, &[ModeAction])] = &[(Mode::Compose, &[]), (Mode::TextBox, &[]), (Mode::Text, &[])];

/// The focused field of the open form.
fn focused(m: &Model) -> Option<FieldId> {
    match &m.overlay {
        Some(Overlay::Form { form, .. }) => form.focused_key().cloned(),
        _ => None,
    }
}

/// The new-contact form (lines, lists and a note), on `field`.
fn new_contact_on(field: FieldId) -> Model {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key('N'));
    assert!(focused(&m).is_some(), "N opens the form: {:?}", m.overlay);
    for _ in 0..20 {
        if focused(&m) == Some(field.clone()) {
            return m;
        }
        update(&mut m, code(KeyCode::Tab));
    }
    panic!("no {field:?} in the new-contact form");
}

/// The cursor inside a line of words, so every motion and delete acts.
fn mid_line(m: &mut Model) {
    type_text(m, "ab cd ef");
    update(m, code(KeyCode::Left));
    update(m, code(KeyCode::Left));
}

fn form_line() -> Model {
    let mut m = new_contact_on(FieldId::Identifier);
    mid_line(&mut m);
    m
}

#[test]
fn a_forms_line_handles_only_keys_in_the_keymap() {
    walk_all("form line", form_line, Table::Layers(LINE), Text::Line);
}

/// The bot's list: three rows, the second highlighted.
fn form_choice() -> Model {
    let mut m = new_contact_on(FieldId::Bot);
    update(&mut m, code(KeyCode::Down));
    m
}

/// The tags form: a list that ticks.
fn form_tags() -> Model {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key('t'));
    assert!(focused(&m).is_some(), "t opens the tags form: {:?}", m.overlay);
    m
}

#[test]
fn a_forms_lists_handle_only_keys_in_the_keymap() {
    walk_all("form choice", form_choice, Table::Layers(LIST), Text::Line);
    walk_all("form tags", form_tags, Table::Layers(LIST), Text::Ticks);
}

/// Three lines, the cursor inside the middle one.
fn mid_box(m: &mut Model) {
    type_text(m, "one two");
    update(m, code(KeyCode::Enter));
    type_text(m, "three four");
    update(m, code(KeyCode::Enter));
    type_text(m, "five");
    update(m, code(KeyCode::Up));
    update(m, code(KeyCode::Left));
}

fn form_note() -> Model {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key('n'));
    assert_eq!(focused(&m), Some(FieldId::Note), "{:?}", m.overlay);
    mid_box(&mut m);
    m
}

#[test]
fn a_forms_text_box_handles_only_keys_in_the_keymap() {
    walk_all("form note", form_note, Table::Layers(NOTE), Text::Box);
}

fn palette() -> Model {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key(':'));
    type_text(&mut m, "cl");
    update(&mut m, code(KeyCode::Left));
    assert!(matches!(m.overlay, Some(Overlay::Palette(_))));
    m
}

#[test]
fn the_palette_handles_only_keys_in_the_keymap() {
    walk_all("palette", palette, Table::Layers(PICKER), Text::Line);
}

fn reply_box() -> Model {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key('R'));
    mid_box(&mut m);
    m
}

/// Stricter than the composer's walk above: its text box's keys are all
/// in the keymap now, so only a character is text.
#[test]
fn the_replys_text_box_handles_only_keys_in_the_keymap() {
    walk_all("reply box", reply_box, Table::Layers(REPLY), Text::Box);
}

#[test]
fn the_first_run_screen_handles_only_keys_in_the_keymap() {
    let keys = Arc::new(Keymap::defaults());
    walk_with(
        "first run",
        &keys,
        &|keys, k| pick(keys, &k).is_some(),
        Table::Mode(Mode::FirstRun, false),
        Text::None,
        &every_key_and_ctrl(),
    );
}

/// The snooze picker (`z`): its list's moves, choose and cancel, then
/// deleting what was typed; Space is typed (`fri 14:00`), not a tick.
const SNOOZE: &[(Mode, &[ModeAction])] = &[
    (Mode::Picker, &[M::Choose, M::Cancel, M::Down, M::Up]),
    (Mode::Text, &[M::DeleteChar, M::DeleteToStart]),
];

fn snooze_picker() -> Model {
    let mut m = model_with(5, 80, 24);
    update(&mut m, key('z'));
    type_text(&mut m, "3d");
    assert!(m.slices.snooze.picker.is_some());
    m
}

#[test]
fn the_snooze_picker_handles_only_keys_in_the_keymap() {
    walk_all("snooze picker", snooze_picker, Table::Layers(SNOOZE), Text::Line);
}

/// The composer's snippet picker (`/`): a list's keys, then its filter's
/// editing (what is typed filters it).
fn snippet_picker() -> Model {
    let mut m = model_with(5, 160, 48);
    m.compose.snippets = crate::snippets::parse("thanks = \"Thanks!\"\nbye = \"Bye!\"").unwrap();
    update(&mut m, key('R'));
    update(&mut m, key('/'));
    type_text(&mut m, "ab");
    update(&mut m, code(KeyCode::Left));
    assert!(matches!(m.compose.stage, crate::tui::compose::Stage::Snippets { .. }));
    m
}

#[test]
fn the_snippet_picker_handles_only_keys_in_the_keymap() {
    walk_all("snippet picker", snippet_picker, Table::Layers(PICKER), Text::Line);
}
