//! Overlays: each variant of the root's `Overlay` drawn by the part that
//! owns it (help and the palette by the overlays slice).

use ratatui::Frame;

use crate::tui::model::{Model, Overlay};
use crate::tui::overlays;
use crate::tui::theme::Theme;

pub fn render(model: &Model, frame: &mut Frame, theme: &Theme) {
    let area = frame.area();
    match &model.overlay {
        None => {}
        Some(Overlay::Help { scroll }) => overlays::render_help(scroll, &model.vcx(theme), frame, area),
        Some(Overlay::History { selected }) => {
            crate::tui::act::render_history(&model.act, &model.vcx(theme), frame, area, *selected)
        }
        Some(Overlay::Palette(p)) | Some(Overlay::CustomStatus(p)) => {
            overlays::render_picker(p, &model.vcx(theme), frame, area)
        }
        Some(Overlay::Confirm(c)) => crate::tui::act::render_confirm(c, &model.vcx(theme), frame, area),
        Some(Overlay::Summary(s)) => crate::tui::act::render_summary(s, &model.vcx(theme), frame, area),
        Some(Overlay::Form { form, .. }) => {
            form.render(frame, area, theme, &model.keys);
            if let Some(pos) = form.cursor_position(area, &model.keys) {
                frame.set_cursor_position(pos);
            }
        }
    }
}
