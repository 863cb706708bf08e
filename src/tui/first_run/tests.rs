use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Pick, pick};
use crate::tui::keymap::Keymap;

#[test]
fn one_key_picks() {
    let keys = Keymap::defaults();
    let pick = |k: &KeyEvent| pick(&keys, k);
    let k = |c| KeyEvent::new(c, KeyModifiers::NONE);
    assert_eq!(pick(&k(KeyCode::Char('d'))), Some(Pick::Demo));
    assert_eq!(pick(&k(KeyCode::Char('S'))), Some(Pick::SetUp));
    assert_eq!(pick(&k(KeyCode::Esc)), Some(Pick::Leave));
    assert_eq!(pick(&k(KeyCode::Char('q'))), Some(Pick::Leave));
    assert_eq!(pick(&k(KeyCode::Enter)), None);
    assert_eq!(pick(&k(KeyCode::Char('x'))), None);
    assert_eq!(
        pick(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Some(Pick::Leave)
    );
    assert_eq!(pick(&KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL)), None);
}

#[test]
fn the_chooser_follows_the_keys_table() {
    let entry = crate::config::KeyEntry {
        action: "first-run.demo".into(),
        keys: vec!["x".into()],
        at: "test".into(),
    };
    let (keys, problems) = Keymap::resolve(&[entry]);
    assert!(problems.is_empty(), "{problems:?}");
    let k = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    assert_eq!(pick(&keys, &k('x')), Some(Pick::Demo));
    assert_eq!(pick(&keys, &k('d')), None);
    assert_eq!(super::first_key(&keys, crate::tui::keymap::ModeAction::Demo), "x");
}

#[test]
fn the_check_names_whose_key_it_is() {
    use crate::api::KeyUser;
    let ana = KeyUser {
        name: "Ana Silva".into(),
        email: "ana@example.com".into(),
    };
    assert_eq!(
        super::works(Some(&ana)),
        "The key works: the key of Ana Silva <ana@example.com>."
    );
    let nameless = KeyUser {
        name: " ".into(),
        email: "ana@example.com".into(),
    };
    assert_eq!(
        super::works(Some(&nameless)),
        "The key works: the key of ana@example.com."
    );
    assert_eq!(super::works(None), "The key works.");
    let hostile = KeyUser {
        name: "Ana\x1b[2J".into(),
        email: "a@b.c".into(),
    };
    assert!(!super::works(Some(&hostile)).contains('\x1b'));
}
