//! The overlays of an action on many: the question before a large one and
//! the account of one that did not all go through.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::tui::model::bulk::{Confirm, Summary};
use crate::tui::text::truncate;
use crate::tui::theme::Theme;
use crate::tui::widgets::centered;
use crate::tui::widgets::clean;

/// "Close 120 conversations?" with `y` and `n`.
pub fn confirm(c: &Confirm, frame: &mut Frame, area: Rect, theme: &Theme) {
    let w = area.width.clamp(20, 64);
    let text_w = w.saturating_sub(4) as usize;
    let lines = vec![
        Line::raw(truncate(&clean(&c.question), text_w).into_owned()),
        Line::raw(""),
        Line::from(vec![
            Span::styled("y", theme.accent()),
            Span::raw(" go ahead   "),
            Span::styled("n Esc", theme.accent()),
            Span::raw(" do nothing"),
        ]),
    ];
    boxed(frame, area, w, lines, " Act on many? ", theme);
}

/// Counts, the failures by name with why (scrolled), and what next.
pub fn summary(s: &Summary, frame: &mut Frame, area: Rect, theme: &Theme) {
    let w = area.width.saturating_sub(4).clamp(20, 90);
    let text_w = w.saturating_sub(4) as usize;
    let room = s.room(area.height);
    let mut lines = vec![Line::raw(truncate(&clean(&s.counts), text_w).into_owned())];
    if !s.failures.is_empty() {
        lines.push(Line::styled("Failed:", theme.error()));
    }
    let start = s.scroll.min(s.max_scroll(area.height)) as usize;
    let shown = &s.failures[start..(start + room).min(s.failures.len())];
    for f in shown {
        lines.push(Line::raw(truncate(&format!("✗ {}", clean(f)), text_w).into_owned()));
    }
    if let Some(h) = &s.hint {
        lines.push(Line::styled(truncate(&clean(h), text_w).into_owned(), theme.accent()));
    }
    let more = s.failures.len() > room;
    let keys = if more {
        format!(
            "j k scroll ({}-{} of {})   Esc close",
            start + 1,
            start + shown.len(),
            s.failures.len()
        )
    } else {
        "Esc close".to_string()
    };
    lines.push(Line::styled(truncate(&keys, text_w).into_owned(), theme.dim()));
    let title = format!(" {} ", clean(&s.title));
    boxed(frame, area, w, lines, &title, theme);
}

fn boxed(frame: &mut Frame, area: Rect, w: u16, lines: Vec<Line>, title: &str, theme: &Theme) {
    let r = centered(area, w, lines.len() as u16 + 2);
    frame.render_widget(Clear, r);
    let block = Block::bordered()
        .title(title.to_string())
        .border_style(theme.border_focused());
    let inner = block.inner(r);
    frame.render_widget(block, r);
    frame.render_widget(Paragraph::new(lines), inner);
}
