//! The status bar, the toast line and the narrow layout's tab strip.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::clean;
use super::spinner;
use crate::tui::keymap::{Action, first_key};
use crate::tui::model::{Model, Pane, ToastKind};
use crate::tui::text::{truncate, width};
use crate::tui::theme::Theme;

/// A one-line summary of the list filter.
pub fn filter_summary(model: &Model) -> String {
    let f = &model.list.filter;
    if f.is_empty() {
        return String::new();
    }
    let mut parts = Vec::new();
    if let Some(s) = &f.source {
        parts.push(format!("source={}", clean(s)));
    }
    if !f.tags.is_empty() {
        parts.push(format!("tags={}", clean(&f.tags.join(","))));
    }
    if let Some(t) = &f.team_uuid {
        let name = model.known.team_name(t).filter(|n| !n.is_empty()).unwrap_or(t);
        parts.push(format!("team={}", clean(name)));
    }
    format!("filter {}", parts.join(" "))
}

pub fn bar(model: &Model, frame: &mut Frame, area: Rect, theme: &Theme) {
    let mut spans = Vec::new();
    if model.session.demo {
        spans.push(Span::styled(" DEMO ", theme.selected()));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(clean(&model.session.account), theme.accent()));
    let list = &model.list;
    let mut count = format!(" │ {} loaded", list.store.len());
    if list.paging.loading.is_some() || list.paging.refreshing.is_some() {
        count.push(' ');
        count.push_str(spinner(model.frame));
    } else if list.paging.exhausted {
        count.push_str(" (all)");
    }
    spans.push(Span::raw(count));
    let filter = filter_summary(model);
    if !filter.is_empty() {
        spans.push(Span::raw(" │ "));
        spans.push(Span::styled(filter, theme.warning()));
    }
    // The agent's own keys, from the resolved map.
    let shown: &[(Action, &str)] = if area.width >= 100 {
        &[
            (Action::Help, "help"),
            (Action::Palette, "commands"),
            (Action::Quit, "quit"),
        ]
    } else {
        &[(Action::Help, "help")]
    };
    let hint: String = shown
        .iter()
        .map(|(a, what)| (first_key(*a), what))
        .filter(|(k, _)| !k.is_empty())
        .map(|(k, what)| format!("{k} {what} "))
        .collect::<Vec<_>>()
        .join(" ");
    let hint = hint.as_str();
    let [left, right] = Layout::horizontal([Constraint::Min(1), Constraint::Length(width(hint) as u16)]).areas(area);
    frame.render_widget(Paragraph::new(Line::from(spans)), left);
    frame.render_widget(Paragraph::new(Line::styled(hint, theme.dim())), right);
}

pub fn toast(model: &Model, frame: &mut Frame, area: Rect, theme: &Theme) {
    let Some(t) = model.status.current() else { return };
    let (prefix, style) = match t.kind {
        ToastKind::Error => ("✗ ", theme.error()),
        ToastKind::Success => ("✓ ", theme.success()),
        ToastKind::Info => ("· ", theme.normal()),
    };
    let text = format!("{prefix}{}", clean(&t.text));
    let text = truncate(&text, area.width as usize).into_owned();
    frame.render_widget(Paragraph::new(Line::styled(text, style)), area);
}

pub fn tabs(model: &Model, frame: &mut Frame, area: Rect, theme: &Theme) {
    let mut spans = Vec::new();
    for p in Pane::ALL {
        if p == model.focus {
            spans.push(Span::styled(format!("[{}]", p.title()), theme.selected()));
        } else {
            spans.push(Span::styled(format!(" {} ", p.title()), theme.dim()));
        }
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled("Tab switches", theme.dim()));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
