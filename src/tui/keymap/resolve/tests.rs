use crossterm::event::KeyModifiers;

use super::*;

fn entry(action: &str, keys: &[&str], line: usize) -> KeyEntry {
    KeyEntry {
        action: action.into(),
        keys: keys.iter().map(|k| k.to_string()).collect(),
        at: format!("cfg.toml line {line}"),
    }
}

fn press(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

#[test]
fn an_entry_rebinds_its_action_and_help_shows_the_new_keys() {
    let (map, problems) = Keymap::resolve(&[
        entry("close", &["c", "x"], 2),
        entry("next", &["j", "down", "ctrl-n"], 3),
    ]);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(map.action_for(&press('x')), Some(Action::ToggleClosed));
    assert_eq!(
        map.action_for(&KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL)),
        Some(Action::MoveDown)
    );
    assert_eq!(map.label(Action::ToggleClosed), "c x");
    assert_eq!(map.label(Action::MoveDown), "j ↓ C-n");
    // The rest keep their defaults.
    assert_eq!(map.action_for(&press('q')), Some(Action::Quit));
    assert_eq!(map.label(Action::Quit), "q C-c");
}

#[test]
fn a_key_taken_from_a_default_moves_and_a_last_key_is_reported() {
    let (map, problems) = Keymap::resolve(&[entry("quit", &["x"], 4), entry("reply", &["r"], 5)]);
    assert_eq!(map.action_for(&press('r')), Some(Action::Reply));
    assert_eq!(map.label(Action::Refresh), "", "refresh lost its only key");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("cfg.toml line 5: r took the last key of refresh"),
        "{problems:?}"
    );
    assert_eq!(map.action_for(&press('q')), None, "quit is on x alone now");
    assert_eq!(map.action_for(&press('x')), Some(Action::Quit));
}

#[test]
fn conflicts_and_unknown_names_are_reported_with_their_line_and_the_rest_loads() {
    let (map, problems) = Keymap::resolve(&[
        entry("close", &["x"], 2),
        entry("quit", &["x", "Q"], 3),
        entry("frobnicate", &["z"], 4),
        entry("assign", &["hyper-a", "w"], 5),
    ]);
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems[0].starts_with("cfg.toml line 3: \"x\" is already bound to close (cfg.toml line 2)"));
    assert!(problems[1].starts_with("cfg.toml line 4: unknown action \"frobnicate\""));
    assert!(problems[2].starts_with("cfg.toml line 5: unknown key \"hyper-a\" for assign"));
    assert_eq!(map.action_for(&press('x')), Some(Action::ToggleClosed));
    assert_eq!(map.action_for(&press('Q')), Some(Action::Quit));
    assert_eq!(map.action_for(&press('w')), Some(Action::Assign));
    assert_eq!(map.action_for(&press('j')), Some(Action::MoveDown), "defaults load");
}

#[test]
fn the_account_overlay_is_a_context_of_the_same_table() {
    let (map, problems) = Keymap::resolve(&[entry("account.rename", &["E"], 2), entry("account.zap", &["z"], 3)]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("cfg.toml line 3: unknown action \"account.zap\""));
    assert_eq!(map.account_action_for(&press('E')), Some(AccountAction::Rename));
    assert_eq!(map.account_action_for(&press('e')), None);
    // The same key means different things in each context.
    assert_eq!(map.action_for(&press('e')), Some(Action::Edit));
    assert_eq!(map.account_action_for(&press('r')), Some(AccountAction::Refresh));
}

#[test]
fn key_names_parse_and_print_back() {
    for (name, label) in [
        ("j", "j"),
        ("G", "G"),
        ("ctrl-N", "C-n"),
        ("c-k", "C-k"),
        ("down", "↓"),
        ("PgDn", "PgDn"),
        ("shift-tab", "S-Tab"),
        ("space", "Space"),
        ("f5", "F5"),
        ("esc", "Esc"),
    ] {
        let k = parse_key(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(key_label(k), label, "{name}");
    }
    for bad in ["", "ctrl-", "f13", "hyper-a", "jk"] {
        assert_eq!(parse_key(bad), None, "{bad}");
    }
}

/// The README's key table is the generated one: edit the defaults, run
/// `frontdesk keys --markdown`, paste.
#[test]
fn the_readme_key_table_is_the_generated_one() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let begin = "<!-- keys:begin (generated: frontdesk keys --markdown) -->\n";
    let end = "<!-- keys:end -->";
    let at = readme.find(begin).expect("README has the keys:begin marker") + begin.len();
    let to = readme[at..].find(end).expect("README has the keys:end marker") + at;
    assert_eq!(&readme[at..to], Keymap::defaults().markdown_table());
}

#[test]
fn a_widgets_row_rebinds_like_any_mode_row() {
    use super::super::modes::{Mode, ModeAction};
    let (map, problems) = Keymap::resolve(&[
        entry("form.save", &["f2"], 2),
        entry("text.home", &["home", "ctrl-left"], 3),
        entry("picker.choose", &["tab"], 4),
        entry("box.newline", &["ctrl-enter"], 5),
    ]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("cfg.toml line 3: C-← took the last key of text.word-left"),
        "{problems:?}"
    );
    let key = |code| KeyEvent::new(code, KeyModifiers::NONE);
    let ctrl = |code| KeyEvent::new(code, KeyModifiers::CONTROL);
    assert_eq!(
        map.mode_action_for(Mode::Form, &key(KeyCode::F(2))),
        Some(ModeAction::Save)
    );
    assert_eq!(
        map.mode_action_for(Mode::Form, &ctrl(KeyCode::Char('s'))),
        None,
        "C-s is F2's now"
    );
    // C-← moves from text.word-left to text.home; C-a is gone with the old keys.
    assert_eq!(
        map.mode_action_for(Mode::Text, &ctrl(KeyCode::Left)),
        Some(ModeAction::Home)
    );
    assert_eq!(map.mode_action_for(Mode::Text, &ctrl(KeyCode::Char('a'))), None);
    let label = |mode, name| {
        map.mode_rows(mode)
            .iter()
            .find(|r| r.name == name)
            .map(|r| r.label.clone())
    };
    assert_eq!(label(Mode::Text, "text.home").as_deref(), Some("Home C-←"));
    assert_eq!(label(Mode::Text, "text.word-left").as_deref(), Some(""));
    // Tab leaves picker.down for picker.choose; ↓ stays.
    assert_eq!(
        map.mode_action_for(Mode::Picker, &key(KeyCode::Tab)),
        Some(ModeAction::Choose)
    );
    assert_eq!(
        map.mode_action_for(Mode::Picker, &key(KeyCode::Down)),
        Some(ModeAction::Down)
    );
    assert_eq!(
        map.mode_action_for(Mode::TextBox, &key(KeyCode::Enter)),
        None,
        "Enter is no new line"
    );
    assert_eq!(
        map.mode_action_for(Mode::TextBox, &ctrl(KeyCode::Enter)),
        Some(ModeAction::Newline)
    );
}

#[test]
fn ctrl_goes_with_named_keys() {
    for (name, label) in [("ctrl-left", "C-←"), ("c-enter", "C-Enter"), ("ctrl+pgdn", "C-PgDn")] {
        let k = parse_key(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(key_label(k), label, "{name}");
    }
    for bad in ["ctrl-space", "ctrl-hyper", "ctrl-f13"] {
        assert_eq!(parse_key(bad), None, "{bad}");
    }
}
