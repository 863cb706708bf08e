//! Key handling of forms: what a user typing into them would notice.

use crate::tui::keymap::DEFAULT_KEYS as KEYS;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::tui::form::*;

pub(super) fn k(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

pub(super) fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

pub(super) fn typ(form: &mut Form, s: &str) {
    for c in s.chars() {
        form.handle_key(&KEYS, k(KeyCode::Char(c)));
    }
}

fn text_field(key: &str, check: TextCheck, required: bool) -> FieldSpec {
    FieldSpec {
        key: FieldId::Custom(key.into()),
        label: key.into(),
        kind: FieldKind::Text {
            value: String::new(),
            check,
        },
        required,
        help: None,
    }
}

fn choice(key: &str, options: &[&str], allow_none: bool, allow_custom: bool) -> FieldSpec {
    FieldSpec {
        key: FieldId::Custom(key.into()),
        label: key.into(),
        kind: FieldKind::Choice {
            options: options.iter().map(|s| s.to_string()).collect(),
            selected: None,
            allow_none,
            allow_custom,
        },
        required: false,
        help: None,
    }
}

pub(super) fn multi(key: &str, options: &[&str], selected: &[&str], allow_custom: bool) -> FieldSpec {
    FieldSpec {
        key: FieldId::Custom(key.into()),
        label: key.into(),
        kind: FieldKind::Multi {
            options: options.iter().map(|s| s.to_string()).collect(),
            selected: selected.iter().map(|s| s.to_string()).collect(),
            allow_custom,
        },
        required: false,
        help: None,
    }
}

pub(super) fn note(value: &str, max: usize) -> FieldSpec {
    FieldSpec {
        key: FieldId::Note,
        label: "Note".into(),
        kind: FieldKind::Note {
            value: value.into(),
            max_chars: max,
        },
        required: false,
        help: None,
    }
}

/// The text of a test field (`note` is the note field, the rest custom).
fn txt(form: &Form, key: &str) -> String {
    let id = match key {
        "note" => FieldId::Note,
        k => FieldId::Custom(k.into()),
    };
    match form.value(&id) {
        Some(FormValue::Text(s)) => s,
        other => panic!("{key}: {other:?}"),
    }
}

#[test]
fn typing_and_backspace_edit_the_focused_field() {
    let mut f = Form::new("t", vec![text_field("a", TextCheck::Any, false)]);
    typ(&mut f, "helo");
    f.handle_key(&KEYS, k(KeyCode::Backspace));
    typ(&mut f, "lo 你好");
    assert_eq!(txt(&f, "a"), "hello 你好");
    f.handle_key(&KEYS, k(KeyCode::Home));
    f.handle_key(&KEYS, k(KeyCode::Delete));
    assert_eq!(txt(&f, "a"), "ello 你好");
}

#[test]
fn tab_shift_tab_and_arrows_move_between_fields() {
    let mut f = Form::new(
        "t",
        vec![
            text_field("a", TextCheck::Any, false),
            text_field("b", TextCheck::Any, false),
        ],
    );
    f.handle_key(&KEYS, k(KeyCode::Tab));
    typ(&mut f, "x");
    f.handle_key(&KEYS, k(KeyCode::BackTab));
    typ(&mut f, "y");
    f.handle_key(&KEYS, k(KeyCode::Down));
    typ(&mut f, "z");
    f.handle_key(&KEYS, k(KeyCode::Up));
    typ(&mut f, "w");
    assert_eq!(txt(&f, "a"), "yw");
    assert_eq!(txt(&f, "b"), "xz");
    // Tab wraps around.
    f.handle_key(&KEYS, k(KeyCode::Tab));
    f.handle_key(&KEYS, k(KeyCode::Tab));
    assert_eq!(f.focused_key(), Some(&FieldId::Custom("a".into())));
}

#[test]
fn invalid_number_date_and_email_block_submit_with_visible_errors() {
    let mut f = Form::new(
        "t",
        vec![
            text_field("num", TextCheck::Number, false),
            text_field("date", TextCheck::Date, false),
            text_field("mail", TextCheck::Email, false),
        ],
    );
    typ(&mut f, "12x");
    assert_eq!(
        f.field_error(&FieldId::Custom("num".into())).as_deref(),
        Some("not a number"),
        "shown as the user types"
    );
    f.handle_key(&KEYS, k(KeyCode::Tab));
    typ(&mut f, "2024-02-30");
    f.handle_key(&KEYS, k(KeyCode::Tab));
    typ(&mut f, "bob@");
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Pending);
    assert_eq!(
        f.focused_key(),
        Some(&FieldId::Custom("num".into())),
        "the first invalid field gets focus"
    );
    assert!(
        f.field_error(&FieldId::Custom("date".into()))
            .unwrap()
            .contains("YYYY-MM-DD")
    );
    assert_eq!(
        f.field_error(&FieldId::Custom("mail".into())).as_deref(),
        Some("not an email address")
    );

    f.handle_key(&KEYS, k(KeyCode::Backspace));
    assert_eq!(f.field_error(&FieldId::Custom("num".into())), None);
    f.handle_key(&KEYS, k(KeyCode::Tab));
    for _ in 0..2 {
        f.handle_key(&KEYS, k(KeyCode::Backspace));
    }
    typ(&mut f, "29");
    assert_eq!(
        f.field_error(&FieldId::Custom("date".into())),
        None,
        "2024 is a leap year"
    );
    assert_eq!(f.handle_key(&KEYS, ctrl('s')), FormOutcome::Pending);
    assert_eq!(f.focused_key(), Some(&FieldId::Custom("mail".into())));
    typ(&mut f, "example.com");
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Submitted);
}

#[test]
fn numbers_must_be_finite() {
    let mut f = Form::new("t", vec![text_field("n", TextCheck::Number, false)]);
    typ(&mut f, "inf");
    assert_eq!(
        f.field_error(&FieldId::Custom("n".into())).as_deref(),
        Some("not a number")
    );
    f.handle_key(&KEYS, ctrl('u'));
    typ(&mut f, "-1.5e3");
    assert_eq!(f.field_error(&FieldId::Custom("n".into())), None);
}

#[test]
fn errors_show_only_after_the_first_edit_and_required_blocks_submit() {
    let mut f = Form::new("t", vec![text_field("name", TextCheck::Any, true)]);
    assert_eq!(
        f.field_error(&FieldId::Custom("name".into())),
        None,
        "an untouched form is not shouting"
    );
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Pending);
    assert_eq!(
        f.field_error(&FieldId::Custom("name".into())).as_deref(),
        Some("required")
    );
    typ(&mut f, "   ");
    assert_eq!(
        f.handle_key(&KEYS, k(KeyCode::Enter)),
        FormOutcome::Pending,
        "blank is empty"
    );
    typ(&mut f, "Ann");
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Submitted);
}

#[test]
fn esc_cancels_and_release_events_are_ignored() {
    let mut f = Form::new("t", vec![text_field("a", TextCheck::Any, false)]);
    let mut release = k(KeyCode::Char('x'));
    release.kind = KeyEventKind::Release;
    f.handle_key(&KEYS, release);
    assert_eq!(txt(&f, "a"), "");
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Esc)), FormOutcome::Cancelled);
}

#[test]
fn picker_filters_and_chooses_what_is_highlighted() {
    let mut f = Form::new("t", vec![choice("c", &["apple", "banana", "cherry"], true, false)]);
    assert_eq!(f.value(&FieldId::Custom("c".into())), Some(FormValue::One(None)));
    f.handle_key(&KEYS, k(KeyCode::Down));
    assert_eq!(
        f.value(&FieldId::Custom("c".into())),
        Some(FormValue::One(Some("apple".into())))
    );
    typ(&mut f, "chr");
    assert_eq!(
        f.value(&FieldId::Custom("c".into())),
        Some(FormValue::One(Some("cherry".into())))
    );
    typ(&mut f, "zzz");
    assert_eq!(
        f.value(&FieldId::Custom("c".into())),
        Some(FormValue::One(Some("cherry".into()))),
        "no match keeps the choice"
    );
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Submitted);
}

#[test]
fn picker_up_down_stay_in_the_list_and_tab_leaves() {
    let mut f = Form::new(
        "t",
        vec![
            choice("c", &["a", "b"], false, false),
            text_field("x", TextCheck::Any, false),
        ],
    );
    for _ in 0..5 {
        f.handle_key(&KEYS, k(KeyCode::Down));
    }
    assert_eq!(f.focused_key(), Some(&FieldId::Custom("c".into())));
    assert_eq!(
        f.value(&FieldId::Custom("c".into())),
        Some(FormValue::One(Some("b".into())))
    );
    f.handle_key(&KEYS, k(KeyCode::Up));
    assert_eq!(
        f.value(&FieldId::Custom("c".into())),
        Some(FormValue::One(Some("a".into())))
    );
    f.handle_key(&KEYS, k(KeyCode::Tab));
    assert_eq!(f.focused_key(), Some(&FieldId::Custom("x".into())));
}

#[test]
fn picker_takes_a_typed_value_when_custom_is_allowed() {
    let mut f = Form::new("t", vec![choice("c", &["ann@example.com"], true, true)]);
    typ(&mut f, "zed@example.org");
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Submitted);
    assert_eq!(
        f.value(&FieldId::Custom("c".into())),
        Some(FormValue::One(Some("zed@example.org".into())))
    );
    // Without allow_custom a typed value is only a filter.
    let mut f = Form::new("t", vec![choice("c", &["x"], false, false)]);
    typ(&mut f, "qqq");
    assert_eq!(f.value(&FieldId::Custom("c".into())), Some(FormValue::One(None)));
}

#[test]
fn picker_custom_row_is_one_up_from_the_best_match() {
    let mut f = Form::new("t", vec![choice("c", &["ann@example.com"], false, true)]);
    typ(&mut f, "ann");
    assert_eq!(
        f.value(&FieldId::Custom("c".into())),
        Some(FormValue::One(Some("ann@example.com".into())))
    );
    f.handle_key(&KEYS, k(KeyCode::Up));
    assert_eq!(
        f.value(&FieldId::Custom("c".into())),
        Some(FormValue::One(Some("ann".into())))
    );
}

#[test]
fn multi_space_toggles_and_typed_entries_are_added() {
    // Among other fields, Enter on a typed entry adds it and stays.
    let mut f = Form::new(
        "t",
        vec![multi("m", &["red", "green", "blue"], &["green"], true), note("", 50)],
    );
    f.handle_key(&KEYS, k(KeyCode::Char(' ')));
    f.handle_key(&KEYS, k(KeyCode::Down));
    f.handle_key(&KEYS, k(KeyCode::Char(' ')));
    assert_eq!(
        f.value(&FieldId::Custom("m".into())),
        Some(FormValue::Many(vec!["red".into()]))
    );
    typ(&mut f, "vip");
    assert_eq!(
        f.handle_key(&KEYS, k(KeyCode::Enter)),
        FormOutcome::Pending,
        "Enter with a filter adds, not saves"
    );
    assert_eq!(
        f.value(&FieldId::Custom("m".into())),
        Some(FormValue::Many(vec!["red".into(), "vip".into()]))
    );
    typ(&mut f, "blu");
    f.handle_key(&KEYS, k(KeyCode::Enter));
    assert_eq!(
        f.value(&FieldId::Custom("m".into())),
        Some(FormValue::Many(vec!["red".into(), "blue".into(), "vip".into()]))
    );
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Submitted);
}

#[test]
fn multi_without_custom_never_adds_typed_values() {
    let mut f = Form::new("t", vec![multi("m", &["a"], &[], false)]);
    typ(&mut f, "zz");
    f.handle_key(&KEYS, k(KeyCode::Enter));
    assert_eq!(f.value(&FieldId::Custom("m".into())), Some(FormValue::Many(vec![])));
}

#[test]
fn note_counts_chars_and_blocks_submit_over_the_limit() {
    let mut f = Form::new("t", vec![note("", 5)]);
    typ(&mut f, "héllo");
    assert_eq!(f.fields[0].state.note_count(), Some((5, 5)), "characters, not bytes");
    f.handle_key(&KEYS, k(KeyCode::Enter));
    typ(&mut f, "x");
    assert_eq!(txt(&f, "note"), "héllo\nx");
    assert_eq!(f.handle_key(&KEYS, ctrl('s')), FormOutcome::Pending);
    assert!(f.field_error(&FieldId::Note).unwrap().contains("2 characters over"));
    f.handle_key(&KEYS, k(KeyCode::Backspace));
    f.handle_key(&KEYS, k(KeyCode::Backspace));
    assert_eq!(
        f.handle_key(&KEYS, ctrl('s')),
        FormOutcome::Submitted,
        "Ctrl-S submits from the note"
    );
    assert_eq!(txt(&f, "note"), "héllo");
}

#[test]
fn paste_goes_into_the_focused_field() {
    let mut f = Form::new("t", vec![text_field("a", TextCheck::Any, false), note("", 100)]);
    f.handle_paste("one\ntwo\u{1b}[2J");
    assert_eq!(
        txt(&f, "a"),
        "one two[2J",
        "a single line stays single, controls dropped"
    );
    f.handle_key(&KEYS, k(KeyCode::Tab));
    f.handle_paste("line1\nline2\u{1b}");
    assert_eq!(txt(&f, "note"), "line1\nline2␛");
    let mut p = Form::new("t", vec![choice("c", &["alpha", "beta"], false, false)]);
    p.handle_paste("bet");
    assert_eq!(
        p.value(&FieldId::Custom("c".into())),
        Some(FormValue::One(Some("beta".into())))
    );
}

#[test]
fn a_cloned_form_keeps_everything_typed() {
    let mut f = Form::new(
        "t",
        vec![
            text_field("a", TextCheck::Number, false),
            multi("m", &["x", "y"], &[], true),
            note("", 100),
        ],
    );
    typ(&mut f, "4");
    f.handle_key(&KEYS, k(KeyCode::Tab));
    f.handle_key(&KEYS, k(KeyCode::Char(' ')));
    f.handle_key(&KEYS, k(KeyCode::Tab));
    typ(&mut f, "draft");
    f.set_busy(true);
    f.set_error("HTTP 422: tag does not exist");
    let mut draft = f.clone();
    assert_eq!(
        draft.value(&FieldId::Custom("a".into())),
        Some(FormValue::Text("4".into()))
    );
    assert_eq!(
        draft.value(&FieldId::Custom("m".into())),
        Some(FormValue::Many(vec!["x".into()]))
    );
    assert_eq!(draft.value(&FieldId::Note), Some(FormValue::Text("draft".into())));
    assert_eq!(draft.error(), Some("HTTP 422: tag does not exist"));
    assert_eq!(draft.focused_key(), Some(&FieldId::Note));
    // Busy ignores submit; once the request failed the draft submits again.
    assert_eq!(draft.handle_key(&KEYS, ctrl('s')), FormOutcome::Pending);
    draft.set_busy(false);
    assert!(!draft.is_busy());
    typ(&mut draft, "!");
    assert_eq!(draft.handle_key(&KEYS, ctrl('s')), FormOutcome::Submitted);
    assert_eq!(draft.error(), None, "a new attempt clears the old server error");
    assert_eq!(f.value(&FieldId::Note), Some(FormValue::Text("draft".into())));
}

#[test]
fn the_none_label_row_can_be_filtered_to() {
    let mut f = Form::new("t", vec![choice("c", &["ann@example.com"], true, false)]);
    f.set_none_label(&FieldId::Custom("c".into()), "(unassigned)");
    f.handle_key(&KEYS, k(KeyCode::Down));
    typ(&mut f, "unass");
    assert_eq!(f.value(&FieldId::Custom("c".into())), Some(FormValue::One(None)));
}

#[test]
fn no_key_panics_on_any_field_kind() {
    let keys = [
        KeyCode::Char('a'),
        KeyCode::Char('你'),
        KeyCode::Char('\u{301}'),
        KeyCode::Char('\u{1b}'),
        KeyCode::Char(' '),
        KeyCode::Backspace,
        KeyCode::Delete,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Enter,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::F(5),
        KeyCode::Insert,
        KeyCode::Null,
    ];
    let mods = [
        KeyModifiers::NONE,
        KeyModifiers::CONTROL,
        KeyModifiers::ALT,
        KeyModifiers::SHIFT,
    ];
    let mut f = Form::new(
        "t",
        vec![
            text_field("a", TextCheck::Date, true),
            choice("c", &[], true, true),
            multi("m", &[], &[], true),
            note("x", 3),
        ],
    );
    let mut empty = Form::new("empty", vec![]);
    for round in 0..3 {
        for code in keys {
            for m in mods {
                let key = KeyEvent::new(code, m);
                if key.code == KeyCode::Char('s') || round == 2 && code == KeyCode::Enter {
                    continue;
                }
                f.handle_key(&KEYS, key);
                empty.handle_key(&KEYS, key);
            }
        }
    }
    assert_eq!(empty.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Submitted);
}

#[test]
fn forms_and_pickers_can_move_between_threads() {
    fn send<T: Send + 'static>() {}
    send::<Form>();
    send::<FuzzyPicker>();
}
