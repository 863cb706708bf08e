//! Drawing help and pickers over the panes, and settling wide graphemes
//! under whatever was drawn over them.

use ratatui::Frame;
use ratatui::buffer::{Buffer, CellWidth};
use ratatui::layout::Rect;

use crate::tui::form::FuzzyPicker;
use crate::tui::shared::ViewCx;

/// Help, scrolled to `st`.
pub fn render_help(st: &u16, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    super::help::render(vcx.keys, frame, area, *st, vcx.theme);
}

/// The palette (or any fuzzy picker).
pub fn render_picker(picker: &FuzzyPicker, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    picker.render(frame, area, vcx.theme, vcx.keys);
}

/// Blanks every wide grapheme whose covered cells something drawn later
/// wrote over: an overlay's left border over the second half of a CJK name
/// in the list, say. A terminal shows that border and not the name's half;
/// left in the buffer, the wide grapheme would hide the border (ratatui
/// skips the cells a wide symbol covers), a gap in the overlay's frame.
pub fn settle_wide(buf: &mut Buffer) {
    let a = buf.area;
    for y in a.top()..a.bottom() {
        let mut x = a.left();
        while x < a.right() {
            let w = buf[(x, y)].cell_width().max(1);
            let end = x.saturating_add(w).min(a.right());
            if w > 1 && (x + 1..end).any(|c| !buf[(c, y)].symbol().trim().is_empty()) {
                buf[(x, y)].set_symbol(" ");
                x += 1;
            } else {
                x = end.max(x + 1);
            }
        }
    }
}
