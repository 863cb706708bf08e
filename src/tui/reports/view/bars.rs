//! The three charts of one group: opened/closed bars per day, the waiting
//! histogram, and the first response line with its p90.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph};

use crate::report::{BUCKET_LABELS, Day, Group, human};
use crate::tui::shared::ViewCx;

const EIGHTHS: [&str; 9] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];

/// Columns one day takes: opened, closed, a gap.
const DAY_W: u16 = 3;

/// The days that fit in `width` columns, newest last.
pub(super) fn days_that_fit(days: &[Day], width: u16) -> &[Day] {
    let fit = (width.saturating_add(1) / DAY_W) as usize;
    &days[days.len().saturating_sub(fit)..]
}

/// Eighths of a cell `v` out of `max` fills over `rows` rows (at least one
/// eighth when `v` is not zero, so a small day still shows).
fn eighths(v: u64, max: u64, rows: u16) -> u64 {
    if v == 0 || max == 0 {
        return 0;
    }
    (v * rows as u64 * 8 / max).max(1)
}

/// Opened (`█`, in eighths) and closed (`▒`, whole cells) side by side,
/// a day a pair, with the day of the month beneath.
pub fn per_day(g: &Group, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let theme = vcx.theme;
    let block = Block::bordered().border_style(theme.border());
    let inner = block.inner(area);
    let shown = days_that_fit(&g.days, inner.width);
    let max = shown.iter().map(|d| d.opened.max(d.closed)).max().unwrap_or(0);
    let cut = if shown.len() < g.days.len() {
        format!(", last {}", shown.len())
    } else {
        String::new()
    };
    let title = format!(" Opened █ closed ▒ per day (max {max}{cut}) ");
    frame.render_widget(block.title(title), area);
    if inner.height < 2 || inner.width < DAY_W {
        return;
    }
    let rows = inner.height - 1;
    let mut lines = Vec::with_capacity(inner.height as usize);
    for row in 0..rows {
        let level = (rows - 1 - row) as u64;
        let mut spans = Vec::with_capacity(shown.len() * 3);
        for d in shown {
            let o = eighths(d.opened, max, rows).saturating_sub(level * 8).min(8) as usize;
            let c_cells = eighths(d.closed, max, rows).div_ceil(8);
            let c = if level < c_cells { "▒" } else { " " };
            spans.push(Span::styled(EIGHTHS[o], theme.accent()));
            spans.push(Span::styled(c, theme.success()));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    let labels: String = shown.iter().map(|d| format!("{:<3}", d.day.format("%d"))).collect();
    lines.push(Line::styled(labels, theme.dim()));
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Conversations waiting now, by how long, as horizontal bars.
pub fn waiting(g: &Group, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let theme = vcx.theme;
    let w = g.waiting;
    let block = Block::bordered()
        .title(format!(" Waiting now ({}) ", w.total))
        .border_style(theme.border());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let max = w.buckets.iter().copied().max().unwrap_or(0);
    let label_w = 9usize;
    let num_w = max.to_string().len();
    let bar_w = (inner.width as usize).saturating_sub(label_w + num_w + 1);
    let lines: Vec<Line> = BUCKET_LABELS
        .iter()
        .zip(w.buckets)
        .map(|(label, n)| {
            let len = if max == 0 {
                0
            } else {
                (n as usize * bar_w).div_ceil(max as usize)
            };
            let style = if *label == "older" {
                theme.warning()
            } else {
                theme.accent()
            };
            Line::from(vec![
                Span::styled(format!("{label:<label_w$}"), theme.dim()),
                Span::styled("█".repeat(len), style),
                Span::raw(format!("{}{n:>num_w$}", " ".repeat(bar_w - len + 1))),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The first response per day: the median as a line (`•`), the p90 as
/// dots (`·`), on a scale in minutes.
pub fn first_response(g: &Group, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let theme = vcx.theme;
    let t = g.first_response;
    let title = format!(
        " First response: median {} •, p90 {} ⠂ ({} answered) ",
        human(t.median_secs),
        human(t.p90_secs),
        t.count
    );
    let mins = |s: Option<i64>| s.map(|s| s as f64 / 60.0);
    let median: Vec<(f64, f64)> = g
        .days
        .iter()
        .enumerate()
        .filter_map(|(i, d)| mins(d.first_response.median_secs).map(|m| (i as f64, m)))
        .collect();
    let p90: Vec<(f64, f64)> = g
        .days
        .iter()
        .enumerate()
        .filter_map(|(i, d)| mins(d.first_response.p90_secs).map(|m| (i as f64, m)))
        .collect();
    let block = Block::bordered().title(title).border_style(theme.border());
    if median.is_empty() {
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let line = Line::styled("no first response in this period that the index can tell", theme.dim());
        frame.render_widget(Paragraph::new(line), inner);
        return;
    }
    let top = p90.iter().map(|p| p.1).fold(1.0, f64::max);
    let last = g.days.len().saturating_sub(1) as f64;
    let day = |i: usize| {
        g.days
            .get(i)
            .map(|d| d.day.format("%b %d").to_string())
            .unwrap_or_default()
    };
    let datasets = vec![
        Dataset::default()
            .name("median •")
            .marker(Marker::Dot)
            .graph_type(GraphType::Line)
            .style(theme.accent())
            .data(&median),
        Dataset::default()
            .name("p90 ·")
            .marker(Marker::Braille)
            .graph_type(GraphType::Scatter)
            .style(theme.warning())
            .data(&p90),
    ];
    let chart = Chart::new(datasets)
        .block(block)
        .x_axis(
            Axis::default()
                .bounds([0.0, last.max(1.0)])
                .labels([Span::raw(day(0)), Span::raw(day(g.days.len().saturating_sub(1)))])
                .style(theme.dim()),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, top])
                .labels([Span::raw("0"), Span::raw(human(Some((top * 60.0) as i64)))])
                .style(theme.dim()),
        )
        .style(Style::default());
    frame.render_widget(chart, area);
}
