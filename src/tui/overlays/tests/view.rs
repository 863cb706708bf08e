//! Help and the palette over the panes, at both sizes.

use insta::assert_snapshot;

use crate::tui::fixtures::*;
use crate::tui::update::update;
use crate::tui::view::tests::{draw, rich};

#[test]
fn help_and_palette_at_both_sizes() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = rich(w, h);
        update(&mut m, key('?'));
        assert_snapshot!(format!("help_{w}x{h}"), draw(&m).backend());
        update(&mut m, key('?'));
        update(&mut m, key(':'));
        update(&mut m, key('c'));
        update(&mut m, key('l'));
        assert_snapshot!(format!("palette_{w}x{h}"), draw(&m).backend());
        update(&mut m, code(crossterm::event::KeyCode::Esc));
    }
}
