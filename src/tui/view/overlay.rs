//! Overlays: help (generated from the key table) and the components'
//! own renders for the palette, forms and pickers.

use ratatui::Frame;
use ratatui::buffer::{Buffer, CellWidth};

use crate::tui::model::{Model, Overlay};
use crate::tui::theme::Theme;

pub fn render(model: &Model, frame: &mut Frame, theme: &Theme) {
    let area = frame.area();
    match &model.overlay {
        None => {}
        Some(Overlay::Help { scroll }) => super::help::render(&model.keys, frame, area, *scroll, theme),
        Some(Overlay::History { selected }) => {
            crate::tui::act::render_history(&model.act, &model.vcx(theme), frame, area, *selected)
        }
        Some(Overlay::Palette(p)) | Some(Overlay::CustomStatus(p)) => p.render(frame, area, theme),
        Some(Overlay::Confirm(c)) => crate::tui::act::render_confirm(c, &model.vcx(theme), frame, area),
        Some(Overlay::Summary(s)) => crate::tui::act::render_summary(s, &model.vcx(theme), frame, area),
        Some(Overlay::Form { form, .. }) => {
            form.render(frame, area, theme);
            if let Some(pos) = form.cursor_position(area) {
                frame.set_cursor_position(pos);
            }
        }
    }
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
