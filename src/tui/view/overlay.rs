//! Overlays: help (generated from the key table) and the components'
//! own renders for the palette, forms and pickers.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::tui::keymap;
use crate::tui::model::{Model, Overlay};
use crate::tui::theme::Theme;

/// A centred rectangle of at most `w` x `h` inside `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h)
}

/// The help text: one line per row of the resolved key map, with the
/// action's short name (what `[keys]` and the palette call it).
pub fn help_lines(theme: &Theme) -> Vec<Line<'static>> {
    let map = keymap::active();
    let line = |label: &str, help: &'static str, name: &'static str| {
        Line::from(vec![
            Span::styled(format!(" {label:<6}"), theme.accent()),
            Span::raw(help),
            Span::styled(format!("  {name}"), theme.dim()),
        ])
    };
    let mut lines: Vec<Line<'static>> = map.rows().iter().map(|b| line(&b.label, b.help, b.name)).collect();
    lines.push(Line::styled(" In the account overlay (A):", theme.accent()));
    lines.extend(map.account_rows().iter().map(|b| line(&b.label, b.help, b.name)));
    lines
}

pub fn render(model: &Model, frame: &mut Frame, theme: &Theme) {
    let area = frame.area();
    match &model.overlay {
        None => {}
        Some(Overlay::Help { scroll }) => {
            let lines = help_lines(theme);
            let two = area.width >= 80 && area.height < lines.len() as u16 + 4;
            let rows = if two { lines.len().div_ceil(2) } else { lines.len() };
            let r = if two {
                centered(area, 80, rows as u16 + 2)
            } else {
                centered(area, 50, rows as u16 + 2)
            };
            frame.render_widget(Clear, r);
            let block = Block::bordered()
                .title(" Keys (Esc closes) ")
                .border_style(theme.border_focused());
            let inner = block.inner(r);
            frame.render_widget(block, r);
            if two {
                let [left, right] =
                    Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(inner);
                let second = lines[rows..].to_vec();
                let first = lines[..rows].to_vec();
                frame.render_widget(Paragraph::new(first).scroll((*scroll, 0)), left);
                frame.render_widget(Paragraph::new(second).scroll((*scroll, 0)), right);
            } else {
                frame.render_widget(Paragraph::new(lines).scroll((*scroll, 0)), inner);
            }
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
