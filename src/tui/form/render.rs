//! Drawing a form: a centred overlay sized to its fields. The focused
//! picker opens into a windowed list, the focused note into its text area;
//! when the fields do not fit, the window of fields follows the focus.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::field::{FieldState, RowValue};
use super::state::{Field, Form};
use crate::tui::keymap::Keymap;
use crate::tui::text::{clean_line, truncate, width};
use crate::tui::theme::Theme;
use crate::tui::widgets::{centered, window_start};

struct Geometry {
    inner: Rect,
    label_w: u16,
    list_cap: usize,
    note_rows: u16,
    /// (field index, its rectangle)
    fields: Vec<(usize, Rect)>,
    more_above: bool,
    more_below: bool,
    bottom: Rect,
}

fn one_line(s: &str, cols: usize) -> String {
    truncate(&clean_line(s), cols).into_owned()
}

impl Form {
    fn field_height(&self, idx: usize, list_cap: usize, note_rows: u16) -> u16 {
        let f = &self.fields[idx];
        let focused = idx == self.focus;
        let mut h = match &f.state {
            FieldState::Choice { .. } | FieldState::Multi { .. } if focused => {
                1 + f.state.rows().len().clamp(1, list_cap) as u16
            }
            FieldState::Note { .. } if focused => note_rows + 1,
            _ => 1,
        };
        if f.shown_error().is_some() {
            h += 1;
        }
        if focused && f.help.is_some() {
            h += 1;
        }
        h
    }

    fn bottom_lines(&self, cols: u16) -> u16 {
        let mut n = 1; // footer
        if let Some(e) = &self.server_error {
            let w = width(&clean_line(e)) as u16 + 2;
            n += w.div_ceil(cols.max(1)).clamp(1, 3);
        }
        if self.busy {
            n += 1;
        }
        n
    }

    fn geometry(&self, area: Rect, keys: &Keymap) -> Geometry {
        let big = area.height >= 30;
        let list_cap = if big { 10 } else { 5 };
        let note_rows: u16 = if big { 10 } else { 6 };
        let label_w = self
            .fields
            .iter()
            .map(|f| width(&clean_line(&f.label)) + 2)
            .max()
            .unwrap_or(0)
            .min(22) as u16;
        let content_w = self
            .fields
            .iter()
            .map(|f| match &f.state {
                FieldState::Text { input, .. } => width(&clean_line(input.value())),
                FieldState::Choice { options, .. } | FieldState::Multi { options, .. } => {
                    options.iter().map(|o| width(&clean_line(o)) + 4).max().unwrap_or(0)
                }
                FieldState::Note { .. } => 60,
            })
            .max()
            .unwrap_or(0)
            .clamp(36, 72) as u16;
        let desired = (label_w + 2 + content_w + 2)
            .max(width(&clean_line(&self.title)) as u16 + 6)
            .max(
                self.fields
                    .iter()
                    .map(|f| width(&footer_for(Some(&f.state), keys).replace("save", self.submit_verb)))
                    .max()
                    .unwrap_or(0) as u16
                    + 2,
            );
        let min_w = area.width.min(20);
        let w = desired.min(area.width.saturating_sub(4)).max(min_w);
        let inner_w = w.saturating_sub(2);
        let label_w = label_w.min(inner_w / 3);
        let bottom_h = self.bottom_lines(inner_w);
        let heights: Vec<u16> = (0..self.fields.len())
            .map(|i| self.field_height(i, list_cap, note_rows))
            .collect();
        let total: u16 = heights.iter().sum();
        let h = (total + bottom_h + 3).min(area.height);
        let rect = centered(area, w, h);
        let inner = Rect {
            x: rect.x + 1,
            y: rect.y + 1,
            width: rect.width.saturating_sub(2),
            height: rect.height.saturating_sub(2),
        };
        let bottom_h = bottom_h.min(inner.height);
        let avail = inner.height.saturating_sub(bottom_h + 1);
        // The window of fields: start as early as possible while the focused
        // field still fits.
        let focus = self.focus.min(self.fields.len().saturating_sub(1));
        let mut start = 0;
        while start < focus && heights[start..=focus].iter().sum::<u16>() > avail {
            start += 1;
        }
        let mut fields = Vec::new();
        let mut y = inner.y;
        let mut idx = start;
        while idx < self.fields.len() && y < inner.y + avail {
            let fh = heights[idx].min(inner.y + avail - y);
            fields.push((
                idx,
                Rect {
                    x: inner.x,
                    y,
                    width: inner.width,
                    height: fh,
                },
            ));
            y += fh;
            idx += 1;
        }
        let bottom = Rect {
            x: inner.x,
            y: inner.y + inner.height - bottom_h,
            width: inner.width,
            height: bottom_h,
        };
        Geometry {
            inner,
            label_w,
            list_cap,
            note_rows,
            fields,
            more_above: start > 0,
            more_below: idx < self.fields.len(),
            bottom,
        }
    }

    /// Draws the form as a centred overlay inside `area`, clearing behind it.
    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme, keys: &Keymap) {
        if area.width < 3 || area.height < 3 {
            return;
        }
        let g = self.geometry(area, keys);
        let rect = Rect {
            x: g.inner.x - 1,
            y: g.inner.y - 1,
            width: g.inner.width + 2,
            height: g.inner.height + 2,
        };
        frame.render_widget(Clear, rect);
        let mut block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border_focused())
            .title(Span::styled(
                format!(" {} ", one_line(&self.title, rect.width.saturating_sub(4) as usize)),
                theme.accent(),
            ));
        if g.more_above {
            block = block.title_top(Line::from(Span::styled("▲ more ", theme.dim())).right_aligned());
        }
        if g.more_below {
            block = block.title_bottom(Line::from(Span::styled("▼ more ", theme.dim())).right_aligned());
        }
        frame.render_widget(block, rect);
        for &(idx, r) in &g.fields {
            self.render_field(frame, idx, r, &g, theme);
        }
        self.render_bottom(frame, g.bottom, theme, keys);
    }

    fn render_field(&self, frame: &mut Frame, idx: usize, r: Rect, g: &Geometry, theme: &Theme) {
        let f = &self.fields[idx];
        let focused = idx == self.focus;
        let label_style = if focused { theme.accent() } else { theme.normal() };
        let marker = if focused { "›" } else { " " };
        let star = if f.required { "*" } else { "" };
        let label = one_line(&format!("{}{star}", f.label), g.label_w.saturating_sub(1) as usize);
        let label_line = Line::from(vec![
            Span::styled(marker, theme.accent()),
            Span::styled(label, label_style),
        ]);
        frame.render_widget(
            Paragraph::new(label_line),
            Rect {
                height: 1,
                width: g.label_w.min(r.width),
                ..r
            },
        );
        let vx = r.x + g.label_w + 1;
        let vw = r.width.saturating_sub(g.label_w + 1);
        if vw == 0 {
            return;
        }
        let cols = vw as usize;
        let mut y = r.y;
        let end = r.y + r.height;
        let row = |y: u16| Rect {
            x: vx,
            y,
            width: vw,
            height: 1,
        };
        match &f.state {
            FieldState::Text { input, .. } => {
                let line = if input.value().is_empty() && !focused {
                    Line::from(Span::styled("—", theme.dim()))
                } else {
                    input.view(cols, theme.normal()).0
                };
                frame.render_widget(Paragraph::new(line), row(y));
                y += 1;
            }
            FieldState::Choice { .. } | FieldState::Multi { .. } if focused => {
                y = self.render_picker(frame, f, vx, vw, y, end, g.list_cap, theme);
            }
            FieldState::Choice {
                selected, none_label, ..
            } => {
                let line = match selected {
                    Some(s) => Line::from(vec![
                        Span::raw(one_line(s, cols.saturating_sub(2))),
                        Span::styled(" ▾", theme.dim()),
                    ]),
                    None => Line::from(Span::styled(one_line(&format!("{none_label} ▾"), cols), theme.dim())),
                };
                frame.render_widget(Paragraph::new(line), row(y));
                y += 1;
            }
            FieldState::Multi { .. } => {
                let line = match f.state.value() {
                    super::spec::FormValue::Many(v) if !v.is_empty() => Line::from(vec![
                        Span::raw(one_line(&v.join(", "), cols.saturating_sub(2))),
                        Span::styled(" ▾", theme.dim()),
                    ]),
                    _ => Line::from(Span::styled(one_line("(none) ▾", cols), theme.dim())),
                };
                frame.render_widget(Paragraph::new(line), row(y));
                y += 1;
            }
            FieldState::Note { area, .. } => {
                let (n, max) = f.state.note_count().unwrap_or((0, 0));
                let count = format!("{n}/{max}");
                let count_style = if n > max { theme.error() } else { theme.dim() };
                if focused {
                    let h = g.note_rows.min(end.saturating_sub(y + 1)).max(1).min(end - y);
                    frame.render_widget(
                        &**area,
                        Rect {
                            x: vx,
                            y,
                            width: vw,
                            height: h,
                        },
                    );
                    y += h;
                    if y < end {
                        let line = Line::from(Span::styled(count, count_style)).right_aligned();
                        frame.render_widget(Paragraph::new(line), row(y));
                        y += 1;
                    }
                } else {
                    let text = area.lines().join(" ⏎ ");
                    let room = cols.saturating_sub(width(&count) + 1);
                    let line = if text.is_empty() {
                        Line::from(vec![Span::styled(one_line("—", room), theme.dim())])
                    } else {
                        Line::from(Span::raw(one_line(&text, room)))
                    };
                    frame.render_widget(Paragraph::new(line), row(y));
                    let c = Line::from(Span::styled(count, count_style)).right_aligned();
                    frame.render_widget(Paragraph::new(c), row(y));
                    y += 1;
                }
            }
        }
        if let Some(err) = f.shown_error()
            && y < end
        {
            frame.render_widget(
                Paragraph::new(Span::styled(one_line(&format!("✗ {err}"), cols), theme.error())),
                row(y),
            );
            y += 1;
        }
        if focused
            && let Some(help) = &f.help
            && y < end
        {
            frame.render_widget(Paragraph::new(Span::styled(one_line(help, cols), theme.dim())), row(y));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn render_picker(
        &self,
        frame: &mut Frame,
        f: &Field,
        vx: u16,
        vw: u16,
        mut y: u16,
        end: u16,
        cap: usize,
        theme: &Theme,
    ) -> u16 {
        let cols = vw as usize;
        let row = |y: u16| Rect {
            x: vx,
            y,
            width: vw,
            height: 1,
        };
        let Some(picker) = f.state.picker() else { return y };
        let query_line = if picker.query.value().is_empty() {
            Line::from(Span::styled(one_line("type to filter…", cols), theme.dim()))
        } else {
            let mut l = picker.query.view(cols.saturating_sub(2), theme.normal()).0;
            l.spans.insert(0, Span::styled("/ ", theme.accent()));
            l
        };
        frame.render_widget(Paragraph::new(query_line), row(y));
        y += 1;
        let rows = f.state.rows();
        let height = (end.saturating_sub(y) as usize).min(cap).min(rows.len().max(1));
        if rows.is_empty() {
            if y < end {
                frame.render_widget(Paragraph::new(Span::styled("no match", theme.dim())), row(y));
                y += 1;
            }
            return y;
        }
        let start = window_start(picker.cursor, rows.len(), height);
        for (n, r) in rows.iter().enumerate().skip(start).take(height) {
            let highlighted = n == picker.cursor;
            let text = match (&f.state, r) {
                (
                    FieldState::Choice {
                        none_label, selected, ..
                    },
                    RowValue::Nothing,
                ) => {
                    format!("{} {none_label}", if selected.is_none() { "●" } else { "○" })
                }
                (FieldState::Choice { options, selected, .. }, RowValue::Option(i)) => {
                    let on = selected.as_deref() == Some(options[*i].as_str());
                    format!("{} {}", if on { "●" } else { "○" }, options[*i])
                }
                (FieldState::Choice { .. }, RowValue::Custom(q)) => format!("+ use “{q}”"),
                (FieldState::Multi { options, selected, .. }, RowValue::Option(i)) => {
                    let on = selected.contains(&options[*i]);
                    format!("[{}] {}", if on { "x" } else { " " }, options[*i])
                }
                (_, RowValue::Custom(q)) => format!("+ add “{q}”"),
                _ => String::new(),
            };
            let style = if highlighted {
                theme.selected()
            } else {
                Style::default()
            };
            let text = one_line(&text, cols);
            let pad = cols.saturating_sub(width(&text));
            let line = Line::from(Span::styled(format!("{text}{}", " ".repeat(pad)), style));
            frame.render_widget(Paragraph::new(line), row(y));
            y += 1;
        }
        y
    }

    fn footer(&self, keys: &Keymap) -> String {
        footer_for(self.fields.get(self.focus).map(|f| &f.state), keys).replace("save", self.submit_verb)
    }

    fn render_bottom(&self, frame: &mut Frame, r: Rect, theme: &Theme, keys: &Keymap) {
        if r.height == 0 {
            return;
        }
        let cols = r.width as usize;
        let mut lines: Vec<Line> = Vec::new();
        if let Some(e) = &self.server_error {
            lines.push(Line::from(Span::styled(format!("✗ {}", clean_line(e)), theme.error())));
        }
        if self.busy {
            lines.push(Line::from(Span::styled("saving…", theme.warning())));
        }
        let footer_area = Rect {
            y: r.y + r.height - 1,
            height: 1,
            ..r
        };
        let msg_area = Rect {
            height: r.height - 1,
            ..r
        };
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), msg_area);
        frame.render_widget(
            Paragraph::new(Span::styled(
                truncate(&self.footer(keys), cols).into_owned(),
                theme.dim(),
            )),
            footer_area,
        );
    }

    /// Where the terminal cursor belongs for a form drawn in `area`: in the
    /// focused single-line field or picker filter. (The note draws its own.)
    pub fn cursor_position(&self, area: Rect, keys: &Keymap) -> Option<Position> {
        if area.width < 3 || area.height < 3 {
            return None;
        }
        let g = self.geometry(area, keys);
        let &(idx, r) = g.fields.iter().find(|(i, _)| *i == self.focus)?;
        let vx = r.x + g.label_w + 1;
        let vw = r.width.saturating_sub(g.label_w + 1);
        if vw == 0 {
            return None;
        }
        match &self.fields[idx].state {
            FieldState::Text { input, .. } => {
                Some(Position::new(vx + input.view(vw as usize, Style::default()).1, r.y))
            }
            FieldState::Choice { picker, .. } | FieldState::Multi { picker, .. } => {
                if picker.query.value().is_empty() {
                    Some(Position::new(vx, r.y))
                } else {
                    Some(Position::new(
                        vx + 2 + picker.query.view((vw as usize).saturating_sub(2), Style::default()).1,
                        r.y,
                    ))
                }
            }
            FieldState::Note { .. } => None,
        }
    }
}

/// The hint under a form for the focused field, naming the keys the
/// session's keymap binds (a rebound key shows as rebound).
fn footer_for(state: Option<&FieldState>, keys: &Keymap) -> String {
    use crate::tui::keymap::{Mode, ModeAction as M};
    let k = |mode, action| keys.mode_key(mode, action);
    let next = k(Mode::Form, M::NextField);
    let cancel = k(Mode::Form, M::Cancel);
    match state {
        Some(FieldState::Choice { .. }) => format!(
            "{}{} choose · type to filter · {next} next · {} save · {cancel} cancel",
            k(Mode::Picker, M::Up),
            k(Mode::Picker, M::Down),
            k(Mode::Picker, M::Choose)
        ),
        Some(FieldState::Multi { .. }) => format!(
            "{} toggle · type to filter/add · {next} next · {} save · {cancel} cancel",
            k(Mode::Picker, M::Toggle),
            k(Mode::Picker, M::Choose)
        ),
        Some(FieldState::Note { .. }) => format!(
            "{} newline · {next} next · {} save · {cancel} cancel",
            k(Mode::TextBox, M::Newline),
            k(Mode::Form, M::Save)
        ),
        _ => format!(
            "{next} next · {} save · {} save · {cancel} cancel",
            k(Mode::Form, M::Done),
            k(Mode::Form, M::Save)
        ),
    }
}
