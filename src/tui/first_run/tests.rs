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
