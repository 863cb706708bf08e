//! The Reports screen: four pictures of one report. Every mark differs by
//! shape as well as colour (opened `█`, closed `▒`, median `•`, p90 `·`),
//! so it reads with NO_COLOR.

mod bars;
mod table;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::state::Reports;
use crate::tui::keymap::{Action, Mode, ModeAction};
use crate::tui::shared::ViewCx;
use crate::tui::widgets::clean;

/// Draws the screen over `area` (the panes; the status bar stays).
pub fn render(st: &Reports, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let theme = vcx.theme;
    frame.render_widget(Clear, area);
    let shown = st
        .report
        .as_ref()
        .and_then(|r| r.groups.get(st.group))
        .filter(|_| st.group > 0);
    let mut title = match st.by {
        None => format!(" Reports · last {} days ", st.days()),
        by => format!(" Reports · last {} days · by {} ", st.days(), Reports::by_label(by)),
    };
    if let Some(g) = shown {
        title = format!("{title}· charts of {} ", clean(&g.group));
    }
    if st.loading.is_some() {
        title = format!("{title}{} ", vcx.spinner());
    }
    let block = Block::bordered()
        .title(title)
        .title_bottom(footer(vcx))
        .border_style(theme.border_focused());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if let Some(e) = &st.error {
        let lines = vec![Line::styled(format!("no report: {}", clean(e)), theme.error())];
        frame.render_widget(Paragraph::new(lines), Rect { height: 1, ..inner });
    }
    let Some(report) = &st.report else {
        if st.error.is_none() {
            frame.render_widget(Paragraph::new(Line::styled("computing…", theme.dim())), inner);
        }
        return;
    };
    let inner = if st.error.is_some() {
        Rect {
            y: inner.y + 1,
            height: inner.height.saturating_sub(1),
            ..inner
        }
    } else {
        inner
    };
    let Some(group) = report.groups.get(st.group).or(report.groups.first()) else {
        return;
    };
    let rows = report.groups.len() as u16;
    let table_h = (rows + 3).clamp(4, inner.height / 3 + 1);
    let [top, line, bottom] = Layout::vertical([
        Constraint::Percentage(45),
        Constraint::Min(4),
        Constraint::Length(table_h),
    ])
    .areas(inner);
    let wait_w = 30.min(top.width / 3);
    let [days, waiting] = Layout::horizontal([Constraint::Min(10), Constraint::Length(wait_w)]).areas(top);
    bars::per_day(group, vcx, frame, days);
    bars::waiting(group, vcx, frame, waiting);
    bars::first_response(group, vcx, frame, line);
    table::render(report, st.group, &footnote(report), vcx, frame, bottom);
}

/// The keys, as the session binds them.
fn footer(vcx: &ViewCx) -> Line<'static> {
    let rows = vcx.keys.mode_rows(Mode::Reports);
    let label = |a: ModeAction| {
        rows.iter()
            .find(|r| r.action == a)
            .map(|r| r.label.clone())
            .unwrap_or_default()
    };
    let parts = [
        (ModeAction::NextPeriod, "period"),
        (ModeAction::NextGrouping, "group by"),
        (ModeAction::Down, "select"),
    ];
    let mut spans = vec![Span::raw(" ")];
    let close = [Action::Cancel, Action::Reports].map(|a| vcx.keys.label(a).to_string());
    let keys = parts
        .map(|(a, what)| (label(a), what))
        .into_iter()
        .chain([(close.join(" "), "close")]);
    for (k, what) in keys {
        if !k.trim().is_empty() {
            spans.push(Span::styled(k, vcx.theme.accent()));
            spans.push(Span::raw(format!(" {what}  ")));
        }
    }
    Line::from(spans)
}

/// What the index could not tell, when anything.
fn footnote(report: &crate::report::Report) -> String {
    let u = report.unknown;
    if u.first_response == 0 && u.waiting == 0 {
        return String::new();
    }
    format!(
        "not in the index: first response of {}, last message of {} open",
        u.first_response, u.waiting
    )
}
