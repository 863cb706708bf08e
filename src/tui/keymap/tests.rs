use super::*;

/// The default map's action for `key`.
fn action_for(key: &KeyEvent) -> Option<Action> {
    Keymap::defaults().action_for(key)
}

fn key(code: KeyCode, m: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, m)
}

#[test]
fn every_key_maps_to_its_own_row() {
    for b in KEYMAP {
        for k in b.keys {
            let m = if k.ctrl {
                KeyModifiers::CONTROL
            } else {
                KeyModifiers::NONE
            };
            assert_eq!(action_for(&key(k.code, m)), Some(b.action), "{}", b.name);
        }
    }
}

#[test]
fn names_are_unique_and_resolve() {
    for b in KEYMAP {
        assert_eq!(action_named(b.name), Some(b.action));
        assert_eq!(binding(b.action).map(|b| b.name), Some(b.name));
    }
}

#[test]
fn shifted_letters_and_ctrl_keys() {
    assert_eq!(
        action_for(&key(KeyCode::Char('G'), KeyModifiers::SHIFT)),
        Some(Action::Bottom)
    );
    assert_eq!(
        action_for(&key(KeyCode::Char('k'), KeyModifiers::CONTROL)),
        Some(Action::Palette)
    );
    assert_eq!(
        action_for(&key(KeyCode::Char('k'), KeyModifiers::NONE)),
        Some(Action::MoveUp)
    );
    assert_eq!(action_for(&key(KeyCode::Char('x'), KeyModifiers::NONE)), None);
}

#[test]
fn digits_build_a_count() {
    let d = |c| key(KeyCode::Char(c), KeyModifiers::NONE);
    assert_eq!(count_digit(&Keymap::defaults(), &d('5'), None), Some(5));
    assert_eq!(count_digit(&Keymap::defaults(), &d('0'), Some(5)), Some(50));
    assert_eq!(
        count_digit(&Keymap::defaults(), &d('0'), None),
        None,
        "0 alone is no count"
    );
    assert_eq!(count_digit(&Keymap::defaults(), &d('9'), Some(9999)), Some(MAX_COUNT));
    assert_eq!(count_digit(&Keymap::defaults(), &d('j'), Some(5)), None);
    assert!(Action::MoveDown.takes_count() && !Action::ToggleClosed.takes_count());
}

#[test]
fn every_mode_key_maps_to_its_own_row() {
    let map = Keymap::defaults();
    for mode in Mode::ALL {
        for row in map.mode_rows(mode) {
            assert!(row.name.starts_with(&format!("{}.", mode.prefix())), "{}", row.name);
            for k in &row.keys {
                let m = if k.ctrl {
                    KeyModifiers::CONTROL
                } else {
                    KeyModifiers::NONE
                };
                assert_eq!(
                    map.mode_action_for(mode, &key(k.code, m)),
                    Some(row.action),
                    "{}: {} belongs to another row",
                    row.name,
                    key_label(*k)
                );
            }
        }
    }
}

#[test]
fn a_typed_character_is_plain() {
    let typed = |c, m| typed_char(&key(KeyCode::Char(c), m));
    assert_eq!(typed('é', KeyModifiers::NONE), Some('é'));
    assert_eq!(typed('A', KeyModifiers::SHIFT), Some('A'));
    assert_eq!(typed('a', KeyModifiers::CONTROL), None);
    assert_eq!(typed('a', KeyModifiers::ALT), None);
    assert_eq!(typed('\u{1b}', KeyModifiers::NONE), None);
    assert_eq!(typed_char(&key(KeyCode::Enter, KeyModifiers::NONE)), None);
}
