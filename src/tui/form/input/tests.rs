use super::*;
use crate::tui::keymap::DEFAULT_KEYS as KEYS;
use crossterm::event::{KeyCode, KeyModifiers};

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

#[test]
fn edits_by_grapheme() {
    let mut i = LineInput::new("a👍🏽b");
    i.handle_key(&KEYS, key(KeyCode::Left));
    i.handle_key(&KEYS, key(KeyCode::Backspace));
    assert_eq!(i.value(), "ab");
    i.handle_key(&KEYS, key(KeyCode::Char('é')));
    i.handle_key(&KEYS, key(KeyCode::Char('\u{301}')));
    assert_eq!(i.value(), "aé\u{301}b");
    i.handle_key(&KEYS, key(KeyCode::Backspace));
    assert_eq!(i.value(), "ab");
}

#[test]
fn controls_never_enter_the_value() {
    let mut i = LineInput::new("");
    i.insert_str("x\u{1b}[2J\ny\tz");
    assert_eq!(i.value(), "x[2J y z");
}

#[test]
fn view_keeps_cursor_visible_and_sanitizes() {
    let i = LineInput::new("你好你好你好 \u{1b}[2J end");
    let (line, col) = i.view(8, Style::default());
    let s: String = line.spans.iter().map(|s| s.content.to_string()).collect();
    assert!(!s.contains('\u{1b}'));
    assert!(width(&s) <= 8);
    assert!(col <= 7);
    let narrow = LineInput::new("你好");
    let (_, col) = narrow.view(1, Style::default());
    assert_eq!(col, 0);
}

#[test]
fn words_and_the_ends_of_the_line() {
    let ctrl = |code| KeyEvent::new(code, KeyModifiers::CONTROL);
    let mut i = LineInput::new("one  two 你好");
    i.handle_key(&KEYS, ctrl(KeyCode::Left));
    i.handle_key(&KEYS, ctrl(KeyCode::Left));
    i.handle_key(&KEYS, key(KeyCode::Char('|')));
    assert_eq!(i.value(), "one  |two 你好", "back two words");
    i.handle_key(&KEYS, ctrl(KeyCode::Right));
    i.handle_key(&KEYS, ctrl(KeyCode::Char('k')));
    assert_eq!(i.value(), "one  |two ", "forward to the next word, then cut to the end");
    i.handle_key(&KEYS, ctrl(KeyCode::Char('w')));
    assert_eq!(i.value(), "one  ", "the word before the cursor and its spaces");
    i.handle_key(&KEYS, ctrl(KeyCode::Char('w')));
    assert_eq!(i.value(), "");
    let mut wide = LineInput::new("a\u{3000}b");
    wide.handle_key(&KEYS, ctrl(KeyCode::Char('w')));
    assert_eq!(wide.value(), "a\u{3000}", "a wide space is a space, not a panic");
}
