//! What the account tabs draw alike: the loading or error line over a
//! list, a table, a detail box, times and wrapped text.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::columns;
use crate::text::clean_text;
use crate::tui::account::state::{Remote, Scroll};
use crate::tui::shared::ViewCx;
use crate::tui::shared::catalog::Catalog;
use crate::tui::theme::Theme;
use crate::tui::widgets::clean;
use crate::tui::zone::Zone;

/// What the overlay's parts read besides the overlay: the view context and
/// the shared catalog.
pub(super) struct V<'a> {
    pub vcx: &'a ViewCx<'a>,
    pub catalog: &'a Catalog,
}

impl V<'_> {
    pub(super) fn spinner(&self) -> &'static str {
        self.vcx.spinner()
    }
}

/// Server text for a wrapped paragraph: inert, newlines kept.
pub(super) fn block_text(s: &str) -> String {
    clean_text(s)
}

pub(super) fn local(t: Option<DateTime<Utc>>, tz: Option<Zone>) -> String {
    crate::tui::widgets::stamp(t, tz).unwrap_or_default()
}

/// Loading, error or empty states in `area`; true when the list itself
/// should be drawn (there is data). An error with data shows on the last
/// line of `area`, which it takes.
pub(super) fn state<T>(v: &V, remote: &Remote<Vec<T>>, frame: &mut Frame, area: &mut Rect, theme: &Theme) -> bool {
    match (&remote.data, &remote.error) {
        (None, Some(e)) => {
            let p = Paragraph::new(Line::styled(format!("✗ {}", clean(e)), theme.error())).wrap(Wrap { trim: false });
            frame.render_widget(p, *area);
            false
        }
        (None, None) => {
            let s = if remote.loading.is_some() {
                format!("{} loading…", v.spinner())
            } else {
                String::new()
            };
            frame.render_widget(Paragraph::new(Line::styled(s, theme.dim())), *area);
            false
        }
        (Some(items), e) => {
            if let Some(e) = e
                && area.height > 1
            {
                let last = Rect::new(area.x, area.y + area.height - 1, area.width, 1);
                frame.render_widget(
                    Paragraph::new(Line::styled(format!("✗ {}", clean(e)), theme.error())),
                    last,
                );
                area.height -= 1;
            }
            if items.is_empty() {
                frame.render_widget(Paragraph::new(Line::styled("(none)", theme.dim())), *area);
                return false;
            }
            true
        }
    }
}

/// Header plus the visible rows of a list.
pub(super) fn table<T>(
    frame: &mut Frame,
    area: Rect,
    cols: &[columns::Col],
    items: &[T],
    cursor: Option<Scroll>,
    theme: &Theme,
    cells: impl Fn(&T) -> Vec<String>,
) {
    let w = columns::widths(cols, (area.width as usize).saturating_sub(2));
    let headers: Vec<String> = cols.iter().map(|c| c.header.to_string()).collect();
    let mut lines = vec![Line::styled(
        format!("  {}", columns::row_text(&headers, &w)),
        theme.dim(),
    )];
    let height = area.height.saturating_sub(1) as usize;
    let c = cursor.unwrap_or_default();
    let shown = c.visible(items.len(), height);
    for (i, item) in items.iter().enumerate().skip(shown.start).take(shown.len()) {
        let text = columns::row_text(&cells(item), &w);
        if cursor.is_some() && i == c.selected.min(items.len().saturating_sub(1)) {
            lines.push(Line::styled(format!("▶ {text}"), theme.selected()));
        } else {
            lines.push(Line::raw(format!("  {text}")));
        }
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// A detail area: a top rule with a title, then wrapped lines.
pub(super) fn detail(frame: &mut Frame, area: Rect, title: String, lines: Vec<Line<'static>>, theme: &Theme) {
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border())
        .title(Span::styled(format!(" {title} "), theme.accent()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

pub(super) fn text_lines(s: &str, style: Style) -> Vec<Line<'static>> {
    block_text(s)
        .split('\n')
        .map(|l| Line::styled(l.to_string(), style))
        .collect()
}
