//! Overlays: help (generated from the key table) and the components'
//! own renders for the palette, forms and pickers.

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::tui::model::{Model, Overlay};
use crate::tui::theme::Theme;

/// A centred rectangle of at most `w` x `h` inside `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h)
}

pub fn render(model: &Model, frame: &mut Frame, theme: &Theme) {
    let area = frame.area();
    match &model.overlay {
        None => {}
        Some(Overlay::Help { scroll }) => super::help::render(frame, area, *scroll, theme),
        Some(Overlay::History { selected }) => super::history::render(model, frame, area, *selected, theme),
        Some(Overlay::Palette(p)) | Some(Overlay::CustomStatus(p)) => p.render(frame, area, theme),
        Some(Overlay::Confirm(c)) => super::many::confirm(c, frame, area, theme),
        Some(Overlay::Summary(s)) => super::many::summary(s, frame, area, theme),
        Some(Overlay::Form { form, .. }) => {
            form.render(frame, area, theme);
            if let Some(pos) = form.cursor_position(area) {
                frame.set_cursor_position(pos);
            }
        }
    }
}
