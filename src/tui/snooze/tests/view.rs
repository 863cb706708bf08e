//! The picker as drawn, at 80x24: presets with their times, the typed
//! line and what it means, and the keys from the keymap.

use crossterm::event::KeyCode;
use insta::assert_snapshot;

use super::*;
use crate::tui::view::tests::draw;

#[test]
fn the_picker_at_80x24() {
    let mut m = started(Default::default());
    m.width = 80;
    m.height = 24;
    update(&mut m, Msg::Resize(80, 24));
    update(&mut m, key('z'));
    update(&mut m, code(KeyCode::Down));
    assert_snapshot!("picker_presets", draw(&m).backend());
    type_in(&mut m, "3d");
    assert_snapshot!("picker_typed", draw(&m).backend());
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key('z'));
    update(&mut m, code(KeyCode::Enter));
    // The row says so where its state stood, in All.
    let all = m.views.all.iter().position(|v| v.name == "All").unwrap();
    crate::tui::update::views::switch(&mut m, all, &mut Vec::new());
    let screen = format!("{:?}", draw(&m).backend());
    assert!(screen.contains("asleep"), "{screen}");
}
