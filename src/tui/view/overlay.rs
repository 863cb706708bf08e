//! Overlays: help (generated from the key table) and the components'
//! own renders for the palette, forms and pickers.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::tui::keymap::KEYMAP;
use crate::tui::model::{Model, Overlay};
use crate::tui::theme::Theme;

/// A centred rectangle of at most `w` x `h` inside `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h)
}

/// The help text: one line per row of the key table.
pub fn help_lines(theme: &Theme) -> Vec<Line<'static>> {
    KEYMAP
        .iter()
        .map(|b| {
            Line::from(vec![
                Span::styled(format!(" {:<8}", b.label), theme.accent()),
                Span::raw(b.help),
            ])
        })
        .collect()
}

pub fn render(model: &Model, frame: &mut Frame, theme: &Theme) {
    let area = frame.area();
    match &model.overlay {
        None => {}
        Some(Overlay::Help { scroll }) => {
            let lines = help_lines(theme);
            let r = centered(area, 56, lines.len() as u16 + 2);
            frame.render_widget(Clear, r);
            let block = Block::bordered()
                .title(" Keys (Esc closes) ")
                .border_style(theme.border_focused());
            frame.render_widget(Paragraph::new(lines).block(block).scroll((*scroll, 0)), r);
        }
        Some(Overlay::Palette(p)) | Some(Overlay::CustomStatus(p)) => p.render(frame, area, theme),
        Some(Overlay::Form { form, .. }) => {
            form.render(frame, area, theme);
            if let Some(pos) = form.cursor_position(area) {
                frame.set_cursor_position(pos);
            }
        }
    }
}
