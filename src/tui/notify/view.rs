//! The picker `B` opens: snooze notifications for a while, turn them off,
//! or on again, in a box over the inbox.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::state::Notify;
use crate::notify::quiet::Choice;
use crate::tui::keymap::{Mode, ModeAction as M};
use crate::tui::shared::ViewCx;
use crate::tui::widgets::{centered, fit};

pub fn render(st: &Notify, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let Some(at) = st.picker else { return };
    let theme = vcx.theme;
    let w = area.width.min(44);
    let h = (Choice::ALL.len() as u16 + 5).min(area.height);
    let r = centered(area, w, h);
    let inner = w.saturating_sub(4) as usize;
    frame.render_widget(Clear, r);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focused())
        .title(" Notifications ");
    let mut lines: Vec<Line> = Vec::new();
    let now = super::update::status(st, vcx.now, vcx.session.tz)
        .map_or_else(|| "now: on".to_string(), |s| format!("now: {s}"));
    lines.push(Line::styled(fit(&now, inner), theme.dim()));
    for (i, c) in Choice::ALL.iter().enumerate() {
        let label = match c {
            Choice::On => "on".to_string(),
            Choice::Off => "off until turned on".to_string(),
            c => format!("snooze {}", c.label()),
        };
        let row = format!("{} {label}", if i == at { "▸" } else { " " });
        let style = if i == at { theme.selected() } else { theme.normal() };
        lines.push(Line::styled(fit(&row, inner), style));
    }
    lines.push(Line::raw(""));
    let footer = format!(
        "{}{} choose · {} set · {} cancel",
        vcx.keys.mode_key(Mode::Picker, M::Up),
        vcx.keys.mode_key(Mode::Picker, M::Down),
        vcx.keys.mode_key(Mode::Picker, M::Choose),
        vcx.keys.mode_key(Mode::Picker, M::Cancel)
    );
    lines.push(Line::styled(fit(&footer, inner), theme.dim()));
    frame.render_widget(
        Paragraph::new(lines).block(block.padding(ratatui::widgets::Padding::horizontal(1))),
        r,
    );
}
