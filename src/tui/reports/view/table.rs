//! One row per group: its figures and a sparkline of conversations opened
//! per day.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::super::state::Reports;
use crate::report::{ALL, Report, human};
use crate::tui::shared::ViewCx;
use crate::tui::widgets::{clean, fit, window_start};

const SPARKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The last `width` values as a sparkline, scaled to their own maximum.
pub(super) fn sparkline(values: &[u64], width: usize) -> String {
    let shown = &values[values.len().saturating_sub(width)..];
    let max = shown.iter().copied().max().unwrap_or(0);
    shown
        .iter()
        .map(|v| {
            if max == 0 {
                SPARKS[0]
            } else {
                SPARKS[((v * 7).div_ceil(max) as usize).min(7)]
            }
        })
        .collect()
}

const NAME_W: usize = 18;
const NAME_MAX: usize = 32;
const SPARK_MIN: usize = 24;
const HEAD: [&str; 6] = ["opened", "closed", "1st", "p90", "resolve", "waiting"];

pub fn render(report: &Report, selected: usize, note: &str, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let theme = vcx.theme;
    let title = match report.by {
        None => " All conversations ".to_string(),
        Some(by) => format!(" By {} ({}) ", Reports::by_label(Some(by)), report.groups.len() - 1),
    };
    let mut block = Block::bordered().title(title).border_style(theme.border());
    if !note.is_empty() {
        block = block.title_bottom(Line::styled(format!(" {note} "), theme.dim()).right_aligned());
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height == 0 {
        return;
    }
    let cells = HEAD.len() * 8;
    // Names take the room a wide screen has, up to NAME_MAX; the
    // sparkline keeps at least SPARK_MIN columns.
    let avail = (inner.width as usize).saturating_sub(cells + 1);
    let name_w = avail.saturating_sub(SPARK_MIN).clamp(NAME_W.min(avail), NAME_MAX);
    let spark_w = (inner.width as usize).saturating_sub(name_w + cells + 1);
    let mut head = fit("", name_w);
    for h in HEAD {
        head.push_str(&format!("{h:>8}"));
    }
    let mut lines = vec![Line::styled(head, theme.dim())];
    let rows = inner.height.saturating_sub(1) as usize;
    let start = window_start(selected, report.groups.len(), rows);
    for (i, g) in report.groups.iter().enumerate().skip(start).take(rows) {
        let name = if g.group == ALL { "all".into() } else { clean(&g.group) };
        let mut s = fit(&name, name_w);
        let cols = [
            g.opened.to_string(),
            g.closed.to_string(),
            human(g.first_response.median_secs),
            human(g.first_response.p90_secs),
            human(g.resolution.median_secs),
            g.waiting.total.to_string(),
        ];
        for c in cols {
            s.push_str(&format!("{c:>8}"));
        }
        let opened: Vec<u64> = g.days.iter().map(|d| d.opened).collect();
        let style = if i == selected {
            theme.selected()
        } else {
            theme.normal()
        };
        lines.push(Line::from(vec![
            Span::styled(s, style),
            Span::raw(" "),
            Span::styled(sparkline(&opened, spark_w), theme.accent()),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
