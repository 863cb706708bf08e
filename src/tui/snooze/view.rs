//! The picker `z` opens: the presets, a line to type a time, and what
//! Enter would do, in a box over the inbox.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::state::Snooze;
use crate::snooze::{PRESETS, parse_until};
use crate::tui::keymap::{Mode, ModeAction as M};
use crate::tui::shared::ViewCx;
use crate::tui::widgets::{centered, clean, fit};

pub fn render(st: &Snooze, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let Some(p) = &st.picker else { return };
    let theme = vcx.theme;
    let w = area.width.min(60);
    let h = (PRESETS.len() as u16 + 6).min(area.height);
    let r = centered(area, w, h);
    let inner = w.saturating_sub(4) as usize;
    frame.render_widget(Clear, r);
    let title = format!(" Snooze {} ", fit(&clean(&p.name), inner.saturating_sub(8)).trim_end());
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focused())
        .title(title);
    let mut lines: Vec<Line> = Vec::new();
    let now = crate::tui::zone::local(vcx.now, vcx.session.tz);
    let typing = !p.text.trim().is_empty();
    for (i, (label, text)) in PRESETS.iter().enumerate() {
        let when = parse_until(text, &now).map_or_else(|_| "(already past)".into(), |u| u.describe(&now));
        let chosen = i == p.choice && !typing;
        let row = format!("{} {label:<18} {when}", if chosen { "▸" } else { " " });
        let style = if chosen { theme.selected() } else { theme.normal() };
        lines.push(Line::styled(fit(&row, inner), style));
    }
    lines.push(Line::raw(""));
    let cursor = if typing || p.error.is_some() {
        "▏"
    } else {
        "▏ 10m, 3d, fri 14:00"
    };
    lines.push(Line::from(vec![
        Span::styled("or until: ", theme.dim()),
        Span::styled(
            fit(&format!("{}{cursor}", clean(&p.text)), inner.saturating_sub(10)),
            theme.accent(),
        ),
    ]));
    let verdict = match (&p.error, typing) {
        (Some(e), _) => Line::styled(fit(&clean(e), inner), theme.error()),
        (None, true) => match parse_until(&p.text, &now) {
            Ok(u) => Line::styled(fit(&format!("→ {}", u.describe(&now)), inner), theme.dim()),
            Err(_) => Line::styled(fit("…", inner), theme.dim()),
        },
        (None, false) => Line::raw(""),
    };
    lines.push(verdict);
    let footer = format!(
        "{}{} choose · {} snooze · {} cancel",
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
