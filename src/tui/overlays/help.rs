//! The help overlay (`?`): every row of the resolved key map, fitted to the
//! terminal. Two columns when both fit whole side by side, else one; a row
//! too wide for its column loses the end of its description to `…` (the key
//! and the action's short name stay whole); when the rows outnumber the
//! lines, the overlay scrolls (j/k, PgUp/PgDn, g/G) and says there is more.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::text::{truncate, width};
use crate::tui::keymap::{Keymap, Mode};
use crate::tui::theme::Theme;

use crate::tui::widgets::centered;
use crate::tui::widgets::{clean, fit};

/// Key labels wider than this are cut (a `[keys]` line can bind many keys).
const MAX_LABEL: usize = 12;
/// Columns between the two halves.
const GAP: u16 = 2;

/// One line of the help.
#[derive(Debug, Clone, PartialEq)]
pub enum HelpRow {
    Key {
        label: String,
        help: &'static str,
        name: &'static str,
    },
    Heading(&'static str),
}

/// Every row, inbox keys first, then the account overlay's, then each
/// mode's.
pub fn help_rows(map: &Keymap) -> Vec<HelpRow> {
    let key = |label: &str, help, name| HelpRow::Key {
        label: label.to_string(),
        help,
        name,
    };
    let mut rows: Vec<HelpRow> = map.rows().iter().map(|b| key(&b.label, b.help, b.name)).collect();
    rows.push(HelpRow::Heading("In the account overlay (A):"));
    rows.extend(map.account_rows().iter().map(|b| key(&b.label, b.help, b.name)));
    // One heading for every mode (each row's name says which), so the
    // whole help still fits a 160x48 terminal without scrolling.
    rows.push(HelpRow::Heading("In the other modes (MODE.name):"));
    for mode in Mode::ALL {
        rows.extend(map.mode_rows(mode).iter().map(|b| key(&b.label, b.help, b.name)));
    }
    rows
}

/// The width of the key column: the widest label, at most `MAX_LABEL`.
fn label_width(rows: &[HelpRow]) -> usize {
    rows.iter()
        .filter_map(|r| match r {
            HelpRow::Key { label, .. } => Some(width(&clean(label))),
            HelpRow::Heading(_) => None,
        })
        .max()
        .unwrap_or(0)
        .min(MAX_LABEL)
}

/// The three parts of a row as shown in `w` columns: ` label  help  name`,
/// the help cut with `…` first, then the name, so nothing ends mid-word
/// without one.
fn fit_row(label: &str, help: &str, name: &str, lw: usize, w: usize) -> (String, String, String) {
    // A `[keys]` label is outside text: inert, and padded by its width.
    let label = format!(" {}  ", fit(&clean(label), lw));
    let room = w.saturating_sub(width(&label));
    let name_w = width(name) + 2;
    if width(help) + name_w <= room {
        return (label, help.to_string(), format!("  {name}"));
    }
    // Keep the name when a useful part of the description still fits.
    if room >= name_w + 12 {
        return (label, truncate(help, room - name_w).into_owned(), format!("  {name}"));
    }
    (label, truncate(help, room).into_owned(), String::new())
}

/// The natural width of the widest row (no cuts).
fn natural_width(rows: &[HelpRow], lw: usize) -> usize {
    rows.iter()
        .map(|r| match r {
            HelpRow::Key { help, name, .. } => lw + 3 + width(help) + 2 + width(name),
            HelpRow::Heading(h) => 1 + width(h),
        })
        .max()
        .unwrap_or(0)
}

/// Where the help goes in `area` and how much of it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HelpLayout {
    /// The bordered box.
    pub rect: Rect,
    /// How many side by side.
    pub columns: usize,
    /// Rows in each column (the first column's share when two).
    pub per_column: usize,
    /// Lines inside the border.
    pub visible: usize,
}

impl HelpLayout {
    /// For `n` rows whose widest is `natural` columns wide.
    pub fn new(area: Rect, n: usize, natural: usize) -> HelpLayout {
        let col_w = natural as u16;
        let width_of = |k: u16| k * col_w + (k - 1) * GAP + 2;
        // As many columns as it takes for every row to show, as far as the
        // width allows.
        let mut columns = 1u16;
        while (n.div_ceil(columns as usize) as u16).saturating_add(2) > area.height
            && width_of(columns + 1) <= area.width
        {
            columns += 1;
        }
        let per_column = n.div_ceil(columns as usize);
        let h = (per_column as u16).saturating_add(2);
        let rect = centered(area, width_of(columns), h);
        HelpLayout {
            rect,
            columns: columns as usize,
            per_column,
            visible: rect.height.saturating_sub(2) as usize,
        }
    }

    /// How far the help can scroll (0 when everything shows).
    pub fn max_scroll(&self) -> u16 {
        self.per_column.saturating_sub(self.visible) as u16
    }
}

/// The layout for a terminal of `width` x `height` with the active keys
/// (update uses it to keep the scroll in range and to page).
pub fn layout_for(map: &Keymap, width: u16, height: u16) -> HelpLayout {
    let rows = help_rows(map);
    let lw = label_width(&rows);
    HelpLayout::new(Rect::new(0, 0, width, height), rows.len(), natural_width(&rows, lw))
}

fn to_lines(rows: &[HelpRow], lw: usize, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    rows.iter()
        .map(|r| match r {
            HelpRow::Key { label, help, name } => {
                let (l, h, n) = fit_row(label, help, name, lw, w);
                Line::from(vec![
                    Span::styled(l, theme.accent()),
                    Span::raw(h),
                    Span::styled(n, theme.dim()),
                ])
            }
            HelpRow::Heading(h) => Line::styled(format!(" {}", truncate(h, w.saturating_sub(1))), theme.accent()),
        })
        .collect()
}

/// Every row at its natural width, uncut: one line per row of the resolved
/// key map with the action's short name (what the tests read).
#[cfg(test)]
pub fn all_lines(map: &Keymap, theme: &Theme) -> Vec<Line<'static>> {
    let rows = help_rows(map);
    to_lines(&rows, label_width(&rows), usize::MAX, theme)
}

pub fn render(map: &Keymap, frame: &mut Frame, area: Rect, scroll: u16, theme: &Theme) {
    let rows = help_rows(map);
    let lw = label_width(&rows);
    let layout = HelpLayout::new(area, rows.len(), natural_width(&rows, lw));
    let scroll = scroll.min(layout.max_scroll());
    let r = layout.rect;
    frame.render_widget(Clear, r);
    let mut block = Block::bordered()
        .title(" Keys (Esc closes) ")
        .border_style(theme.border_focused());
    if layout.max_scroll() > 0 {
        let up = if scroll > 0 { "↑ more · " } else { "" };
        let down = if scroll < layout.max_scroll() {
            "more ↓ · "
        } else {
            ""
        };
        block = block.title_bottom(
            Line::styled(format!(" {up}{down}j/k PgUp/PgDn scroll "), theme.accent()).alignment(Alignment::Right),
        );
    }
    let inner = block.inner(r);
    frame.render_widget(block, r);
    if layout.columns > 1 {
        let mut parts = Vec::with_capacity(layout.columns * 2);
        for i in 0..layout.columns {
            if i > 0 {
                parts.push(Constraint::Length(GAP));
            }
            parts.push(Constraint::Fill(1));
        }
        let areas = Layout::horizontal(parts).split(inner);
        for (part, at) in rows.chunks(layout.per_column.max(1)).zip(areas.iter().step_by(2)) {
            let lines = to_lines(part, lw, at.width as usize, theme);
            frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), *at);
        }
    } else {
        let lines = to_lines(&rows, lw, inner.width as usize, theme);
        frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
    }
}

#[cfg(test)]
mod tests;
