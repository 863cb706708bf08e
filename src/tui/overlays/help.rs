//! The help overlay (`?`): every row of the resolved key map, fitted to the
//! terminal. As many columns as it takes for every row to show, as far as
//! the width allows, each as wide as its widest row; within a part (the
//! inbox, the account overlay, each mode) the keys line up in a column as
//! wide as that part's widest label. A row too wide for its column loses
//! the end of its description to `…` (the key and the action's short name
//! stay whole); when the rows outnumber the lines, the overlay scrolls
//! (j/k, PgUp/PgDn, g/G) and says there is more.

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
    Key { label: String, help: String, name: String },
    Heading(&'static str),
}

/// Every row, inbox keys first, then the account overlay's, then each
/// mode's.
pub fn help_rows(map: &Keymap) -> Vec<HelpRow> {
    let key = |label: &str, help: &str, name: &str| HelpRow::Key {
        label: label.to_string(),
        help: help.to_string(),
        name: name.to_string(),
    };
    let mut rows: Vec<HelpRow> = map.rows().iter().map(|b| key(&b.label, &b.help, &b.name)).collect();
    rows.push(HelpRow::Heading("In the account overlay (A):"));
    rows.extend(map.account_rows().iter().map(|b| key(&b.label, &b.help, &b.name)));
    // One heading for every mode (each row's name says which), so the
    // whole help still fits a 160x48 terminal without scrolling.
    rows.push(HelpRow::Heading("In the other modes (MODE.name):"));
    // The first-run screen names its own keys, and help is the inbox's:
    // its rows stay in `[keys]` and the README, not here.
    for mode in Mode::ALL.into_iter().filter(|m| *m != Mode::FirstRun) {
        rows.extend(map.mode_rows(mode).iter().map(|b| key(&b.label, &b.help, &b.name)));
    }
    rows
}

/// The part a row belongs to: its name's `MODE.` prefix ("" for the
/// inbox's rows).
fn part(name: &str) -> &str {
    name.split_once('.').map_or("", |(p, _)| p)
}

/// The width of each row's key column: the widest label of its part, at
/// most `MAX_LABEL` (0 for a heading). A long label widens only its part.
fn label_widths(rows: &[HelpRow]) -> Vec<usize> {
    let mut widest: Vec<(&str, usize)> = Vec::new();
    for r in rows {
        if let HelpRow::Key { label, name, .. } = r {
            let w = width(&clean(label)).min(MAX_LABEL);
            match widest.iter_mut().find(|(p, _)| *p == part(name)) {
                Some((_, max)) => *max = (*max).max(w),
                None => widest.push((part(name), w)),
            }
        }
    }
    rows.iter()
        .map(|r| match r {
            HelpRow::Key { name, .. } => widest.iter().find(|(p, _)| *p == part(name)).map_or(0, |(_, w)| *w),
            HelpRow::Heading(_) => 0,
        })
        .collect()
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

/// The natural width of each row (no cuts), its key column `lw` wide.
fn natural_widths(rows: &[HelpRow], lws: &[usize]) -> Vec<usize> {
    rows.iter()
        .zip(lws)
        .map(|(r, lw)| match r {
            HelpRow::Key { help, name, .. } => lw + 3 + width(help) + 2 + width(name),
            HelpRow::Heading(h) => 1 + width(h),
        })
        .collect()
}

/// The width of each column when `widths` (each row's) are cut into
/// columns of `per_column` rows.
fn column_widths(widths: &[usize], per_column: usize) -> Vec<usize> {
    widths
        .chunks(per_column.max(1))
        .map(|c| c.iter().copied().max().unwrap_or(0))
        .collect()
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
    /// For `n` rows all `natural` columns wide.
    #[cfg(test)]
    pub fn new(area: Rect, n: usize, natural: usize) -> HelpLayout {
        HelpLayout::fit(area, &vec![natural; n])
    }

    /// For rows of these natural widths, in order.
    pub fn fit(area: Rect, widths: &[usize]) -> HelpLayout {
        let n = widths.len();
        let per = |k: usize| n.div_ceil(k).max(1);
        // The box: the columns, the gaps between them and the border.
        let width_of = |k: usize| {
            let cols = column_widths(widths, per(k));
            cols.iter().sum::<usize>() + cols.len().saturating_sub(1) * GAP as usize + 2
        };
        // As many columns as it takes for every row to show, as far as the
        // width allows.
        let mut columns = 1;
        while per(columns) + 2 > area.height as usize && columns < n && width_of(columns + 1) <= area.width as usize {
            columns += 1;
        }
        let per_column = per(columns);
        let w = width_of(columns).min(u16::MAX as usize) as u16;
        let h = (per_column + 2).min(u16::MAX as usize) as u16;
        let rect = centered(area, w, h);
        HelpLayout {
            rect,
            columns: column_widths(widths, per_column).len().max(1),
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
    let lws = label_widths(&rows);
    HelpLayout::fit(Rect::new(0, 0, width, height), &natural_widths(&rows, &lws))
}

fn to_lines(rows: &[HelpRow], lws: &[usize], w: usize, theme: &Theme) -> Vec<Line<'static>> {
    rows.iter()
        .zip(lws)
        .map(|(r, lw)| match r {
            HelpRow::Key { label, help, name } => {
                let (l, h, n) = fit_row(label, help, name, *lw, w);
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
    to_lines(&rows, &label_widths(&rows), usize::MAX, theme)
}

pub fn render(map: &Keymap, frame: &mut Frame, area: Rect, scroll: u16, theme: &Theme) {
    let rows = help_rows(map);
    let lws = label_widths(&rows);
    let widths = natural_widths(&rows, &lws);
    let layout = HelpLayout::fit(area, &widths);
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
        let per = layout.per_column.max(1);
        let mut parts = Vec::with_capacity(layout.columns * 2);
        for (i, w) in column_widths(&widths, per).into_iter().enumerate() {
            if i > 0 {
                parts.push(Constraint::Length(GAP));
            }
            parts.push(Constraint::Length(w.min(u16::MAX as usize) as u16));
        }
        let areas = Layout::horizontal(parts).split(inner);
        let chunks = rows.chunks(per).zip(lws.chunks(per));
        for ((part, lws), at) in chunks.zip(areas.iter().step_by(2)) {
            let lines = to_lines(part, lws, at.width as usize, theme);
            frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), *at);
        }
    } else {
        let lines = to_lines(&rows, &lws, inner.width as usize, theme);
        frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
    }
}

#[cfg(test)]
mod tests;
