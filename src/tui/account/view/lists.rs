//! The templates and channels tabs.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::columns::{col, flex};
use super::parts::{V, detail, local, state, table, text_lines};
use crate::api::{Template, TemplateStatus};
use crate::tui::account::state::{Account, AccountAreas, Remote};
use crate::tui::theme::Theme;
use crate::tui::widgets::clean;

/// `✓ approved`, `✗ rejected` or `? other`.
fn status_label(status: &TemplateStatus) -> String {
    match status {
        TemplateStatus::Approved => "✓ approved".to_string(),
        TemplateStatus::Rejected => "✗ rejected".to_string(),
        s => format!("? {}", clean(s.as_str())),
    }
}

pub(super) fn templates(v: &V, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let remote = &v.catalog.templates;
    let mut area = a.list;
    if !state(v, remote, frame, &mut area, theme) {
        return;
    }
    let items = remote.data.as_deref().unwrap_or_default();
    let cols = [
        col("Status", 10, 9),
        flex("Title", 12),
        col("Category", 12, 3),
        col("Type", 8, 2),
        col("Created", 16, 5),
    ];
    table(frame, area, &cols, items, Some(acc.templates_cursor), theme, |t| {
        vec![
            status_label(&t.status),
            clean(&t.title),
            clean(&t.category),
            clean(&t.template_type),
            local(t.created_at, v.vcx.session.tz),
        ]
    });
    let Some(t) = items.get(acc.templates_cursor.selected) else {
        return;
    };
    match acc.template.as_ref().filter(|d| d.uuid == t.uuid) {
        Some(opened) => template_record(v, &opened.remote, frame, a.detail, theme),
        None => detail(
            frame,
            a.detail,
            format!("{} · Enter: details", clean(&t.title)),
            text_lines(&t.text, theme.normal()),
            theme,
        ),
    }
}

/// The record from GET /templates/:uuid: every fact, then the full text.
fn template_record(v: &V, remote: &Remote<Template>, frame: &mut Frame, area: Rect, theme: &Theme) {
    let mut lines = Vec::new();
    if let Some(e) = &remote.error {
        lines.push(Line::styled(format!("✗ {}", clean(e)), theme.error()));
    }
    let Some(t) = &remote.data else {
        if remote.loading.is_some() {
            lines.push(Line::styled(format!("{} loading…", v.spinner()), theme.dim()));
        }
        return detail(frame, area, "Template".into(), lines, theme);
    };
    let label = |k: &str| Span::styled(format!("{k:<9}"), theme.accent());
    let created = local(t.created_at, v.vcx.session.tz);
    lines.extend([
        Line::from(vec![label("Type"), Span::raw(clean(&t.template_type))]),
        Line::from(vec![label("Category"), Span::raw(clean(&t.category))]),
        Line::from(vec![label("Status"), Span::raw(status_label(&t.status))]),
        Line::from(vec![label("Created"), Span::raw(created)]),
        Line::styled(format!("{:<9}{}", "UUID", clean(&t.uuid)), theme.dim()),
        Line::raw(""),
    ]);
    lines.extend(text_lines(&t.text, theme.normal()));
    detail(frame, area, clean(&t.title), lines, theme);
}

pub(super) fn channels(v: &V, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let remote = &v.catalog.channels;
    let mut area = a.list;
    if !state(v, remote, frame, &mut area, theme) {
        return;
    }
    let items = remote.data.as_deref().unwrap_or_default();
    let cols = [col("Main", 6, 9), flex("Title", 12), col("Type", 16, 5)];
    table(frame, area, &cols, items, Some(acc.channels_cursor), theme, |c| {
        vec![
            if c.main { "★ main".into() } else { String::new() },
            clean(&c.title),
            clean(c.channel_type.as_str()),
        ]
    });
    if let Some(c) = items.get(acc.channels_cursor.selected) {
        let lines = vec![
            Line::raw(format!("Title: {}", clean(&c.title))),
            Line::raw(format!("Type:  {}", clean(c.channel_type.as_str()))),
            Line::raw(format!("Main:  {}", if c.main { "yes" } else { "no" })),
            Line::styled(format!("UUID:  {}", clean(&c.uuid)), theme.dim()),
        ];
        detail(frame, a.detail, "Channel".into(), lines, theme);
    }
}
