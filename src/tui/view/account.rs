//! The account overlay: a tab bar, the tab's list (only the rows on screen
//! are formatted), the selected row's details, and a footer of keys.

use chrono::{DateTime, FixedOffset, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::{clean, fit, spinner};
use crate::api::{TeamMember, TemplateStatus, WebhookEvent};
use crate::tui::model::Model;
use crate::tui::model::account::{Account, AccountAreas, AccountTab, Cursor, Remote, account_areas};
use crate::tui::text::{plain_flags, sanitize, width};
use crate::tui::theme::Theme;
use crate::tui::update::account::{KEYS, tab_keys};

/// A column: its header, its width, whether it takes the rest, and how
/// late it is dropped on narrow screens (higher stays longer).
struct Col {
    header: &'static str,
    width: usize,
    flex: bool,
    keep: u8,
}

const fn col(header: &'static str, width: usize, keep: u8) -> Col {
    Col {
        header,
        width,
        flex: false,
        keep,
    }
}
const fn flex(header: &'static str, min: usize) -> Col {
    Col {
        header,
        width: min,
        flex: true,
        keep: u8::MAX,
    }
}

/// The widest a flexible column grows.
const FLEX_MAX: usize = 48;

/// Widths for `total` columns (after the 2-column marker); `None` for a
/// dropped column. One space between columns. The flexible column grows to
/// a readable width; what is left stays blank at the end of the row.
fn widths(cols: &[Col], total: usize) -> Vec<Option<usize>> {
    use crate::text::columns::{Column, fit_columns};
    let spec: Vec<Column> = cols
        .iter()
        .map(|c| Column {
            want: if c.flex { c.width.max(FLEX_MAX) } else { c.width },
            min: c.width,
            keep: c.keep,
        })
        .collect();
    fit_columns(&spec, total, 1)
}

fn row_text(cells: &[String], widths: &[Option<usize>]) -> String {
    cells
        .iter()
        .zip(widths)
        .filter_map(|(c, w)| w.map(|w| fit(c, w)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Server text for a wrapped paragraph: inert, newlines kept.
fn block_text(s: &str) -> String {
    plain_flags(&sanitize(s, true)).into_owned()
}

fn local(t: Option<DateTime<Utc>>, tz: Option<FixedOffset>) -> String {
    super::stamp(t, tz).unwrap_or_default()
}

pub fn render(model: &Model, frame: &mut Frame, theme: &Theme) {
    let Some(acc) = model.account.as_ref() else { return };
    let full = frame.area();
    let bottom = if model.status.current().is_some() { 2 } else { 1 };
    let area = Rect::new(full.x, full.y, full.width, full.height.saturating_sub(bottom));
    let a = account_areas(area, acc.tab);
    frame.render_widget(Clear, area);
    let block = Block::bordered()
        .title(" Account ")
        .border_style(theme.border_focused());
    frame.render_widget(block, area);
    tabs(model, acc, frame, &a, theme);
    match acc.tab {
        AccountTab::Templates => templates(model, acc, frame, &a, theme),
        AccountTab::Channels => channels(model, acc, frame, &a, theme),
        AccountTab::Teams => teams(model, acc, frame, &a, theme),
        AccountTab::Plan => plan(model, acc, frame, &a, theme),
        AccountTab::Webhooks => webhooks(model, acc, frame, &a, theme),
    }
    footer(acc, frame, a.footer, theme);
    if let Some(r) = &acc.rename {
        r.form.render(frame, full, theme);
        if let Some(pos) = r.form.cursor_position(full) {
            frame.set_cursor_position(pos);
        }
    }
}

fn tabs(model: &Model, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let mut spans = Vec::new();
    for (i, t) in AccountTab::ALL.iter().enumerate() {
        if *t == acc.tab {
            spans.push(Span::styled(format!("[{} {}]", i + 1, t.title()), theme.selected()));
        } else {
            spans.push(Span::styled(format!(" {} {} ", i + 1, t.title()), theme.dim()));
        }
        spans.push(Span::raw(" "));
    }
    let mut right = String::new();
    if acc.tab == AccountTab::Webhooks {
        let w = &acc.webhooks;
        let pages = w.pages.map_or("?".to_string(), |p| p.to_string());
        right = format!("{} │ page {}/{} ", w.filter.label(), w.page, pages);
        right.insert_str(0, "filter: ");
    }
    if loading(acc) {
        right.push_str(spinner(model.frame));
        right.push(' ');
    }
    let left_w = spans.iter().map(|s| width(&s.content)).sum::<usize>();
    let room = (a.tabs.width as usize).saturating_sub(left_w);
    if width(&right) > room {
        // Narrow: only the current tab's name, then the rest.
        spans.clear();
        spans.push(Span::styled(
            format!("[{}/5 {}]", acc.tab.index() + 1, acc.tab.title()),
            theme.selected(),
        ));
        spans.push(Span::raw(" "));
    }
    let left_w = spans.iter().map(|s| width(&s.content)).sum::<usize>();
    let pad = (a.tabs.width as usize).saturating_sub(left_w + width(&right));
    spans.push(Span::raw(" ".repeat(pad)));
    spans.push(Span::styled(right, theme.accent()));
    frame.render_widget(Paragraph::new(Line::from(spans)), a.tabs);
}

fn loading(acc: &Account) -> bool {
    match acc.tab {
        AccountTab::Templates => acc.templates.loading.is_some(),
        AccountTab::Channels => acc.channels.loading.is_some(),
        AccountTab::Teams => acc.teams.loading.is_some() || acc.members.list.loading.is_some(),
        AccountTab::Plan => acc.plan.loading.is_some() || acc.funnels.loading.is_some(),
        AccountTab::Webhooks => acc.webhooks.events.loading.is_some(),
    }
}

fn footer(acc: &Account, frame: &mut Frame, area: Rect, theme: &Theme) {
    let mut spans = Vec::new();
    for (k, what) in tab_keys(acc.tab).iter().chain(KEYS) {
        spans.push(Span::styled(format!("{k} "), theme.accent()));
        spans.push(Span::styled(format!("{what}  "), theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// Loading, error or empty states in `area`; true when the list itself
/// should be drawn (there is data). An error with data shows on the last
/// line of `area`, which it takes.
fn state<T>(model: &Model, remote: &Remote<Vec<T>>, frame: &mut Frame, area: &mut Rect, theme: &Theme) -> bool {
    match (&remote.data, &remote.error) {
        (None, Some(e)) => {
            let p = Paragraph::new(Line::styled(format!("✗ {}", clean(e)), theme.error())).wrap(Wrap { trim: false });
            frame.render_widget(p, *area);
            false
        }
        (None, None) => {
            let s = if remote.loading.is_some() {
                format!("{} loading…", spinner(model.frame))
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
fn table<T>(
    frame: &mut Frame,
    area: Rect,
    cols: &[Col],
    items: &[T],
    cursor: Option<Cursor>,
    theme: &Theme,
    cells: impl Fn(&T) -> Vec<String>,
) {
    let w = widths(cols, (area.width as usize).saturating_sub(2));
    let headers: Vec<String> = cols.iter().map(|c| c.header.to_string()).collect();
    let mut lines = vec![Line::styled(format!("  {}", row_text(&headers, &w)), theme.dim())];
    let height = area.height.saturating_sub(1) as usize;
    let mut c = cursor.unwrap_or_default();
    c.clamp(items.len(), height);
    for (i, item) in items.iter().enumerate().skip(c.offset).take(height) {
        let text = row_text(&cells(item), &w);
        if cursor.is_some() && i == c.selected {
            lines.push(Line::styled(format!("▶ {text}"), theme.selected()));
        } else {
            lines.push(Line::raw(format!("  {text}")));
        }
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// A detail area: a top rule with a title, then wrapped lines.
fn detail(frame: &mut Frame, area: Rect, title: String, lines: Vec<Line<'static>>, theme: &Theme) {
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border())
        .title(Span::styled(format!(" {title} "), theme.accent()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

fn text_lines(s: &str, style: Style) -> Vec<Line<'static>> {
    block_text(s)
        .split('\n')
        .map(|l| Line::styled(l.to_string(), style))
        .collect()
}

fn templates(model: &Model, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let mut area = a.list;
    if !state(model, &acc.templates, frame, &mut area, theme) {
        return;
    }
    let items = acc.templates.data.as_deref().unwrap_or_default();
    let cols = [
        col("Status", 10, 9),
        flex("Title", 12),
        col("Category", 12, 3),
        col("Type", 8, 2),
        col("Created", 16, 5),
    ];
    table(frame, area, &cols, items, Some(acc.templates_cursor), theme, |t| {
        let status = match &t.status {
            TemplateStatus::Approved => "✓ approved".to_string(),
            TemplateStatus::Rejected => "✗ rejected".to_string(),
            s => format!("? {}", clean(s.as_str())),
        };
        vec![
            status,
            clean(&t.title),
            clean(&t.category),
            clean(&t.template_type),
            local(t.created_at, model.session.tz),
        ]
    });
    if let Some(t) = items.get(acc.templates_cursor.selected) {
        detail(
            frame,
            a.detail,
            clean(&t.title),
            text_lines(&t.text, theme.normal()),
            theme,
        );
    }
}

fn channels(model: &Model, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let mut area = a.list;
    if !state(model, &acc.channels, frame, &mut area, theme) {
        return;
    }
    let items = acc.channels.data.as_deref().unwrap_or_default();
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

fn custom_status(m: &TeamMember) -> String {
    m.user_custom_status
        .as_ref()
        .map(|s| clean(&s.label()))
        .unwrap_or_default()
}

fn teams(model: &Model, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let mut area = a.list;
    if state(model, &acc.teams, frame, &mut area, theme) {
        let items = acc.teams.data.as_deref().unwrap_or_default();
        let cols = [flex("Team", 12), col("Default", 9, 5), col("Members", 7, 9)];
        table(frame, area, &cols, items, Some(acc.teams_cursor), theme, |t| {
            vec![
                clean(&t.name),
                if t.default { "★ default".into() } else { String::new() },
                t.members.map_or("?".into(), |n| format!("{n:>7}")),
            ]
        });
    }
    let title = match &acc.members.team {
        Some((_, name)) => format!("Members of {}", clean(name)),
        None => "Members (Enter or m shows them)".into(),
    };
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border())
        .title(Span::styled(format!(" {title} "), theme.accent()));
    let mut inner = block.inner(a.detail);
    frame.render_widget(block, a.detail);
    if acc.members.team.is_none() || !state(model, &acc.members.list, frame, &mut inner, theme) {
        return;
    }
    let members = acc.members.list.data.as_deref().unwrap_or_default();
    let cols = [
        col("Status", 11, 9),
        flex("Name", 10),
        col("Email", 26, 5),
        col("Custom status", 16, 3),
    ];
    let shown = (inner.height as usize).saturating_sub(1);
    let mut area = inner;
    if members.len() > shown && inner.height > 2 {
        let more = Rect::new(inner.x, inner.y + inner.height - 1, inner.width, 1);
        let n = members.len() - (shown - 1);
        frame.render_widget(Paragraph::new(Line::styled(format!("  +{n} more"), theme.dim())), more);
        area.height -= 1;
    }
    table(frame, area, &cols, members, None, theme, |m| {
        let status = match m.available {
            Some(true) => "● available",
            Some(false) => "○ away",
            None => "?",
        };
        vec![status.into(), clean(&m.name), clean(&m.email), custom_status(m)]
    });
}

fn plan(model: &Model, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let mut lines = Vec::new();
    match (&acc.plan.data, &acc.plan.error) {
        (_, Some(e)) => lines.push(Line::styled(format!("✗ {}", clean(e)), theme.error())),
        (None, None) if acc.plan.loading.is_some() => {
            lines.push(Line::styled(format!("{} loading…", spinner(model.frame)), theme.dim()))
        }
        _ => {}
    }
    if let Some(p) = &acc.plan.data {
        let label = |k: &str| Span::styled(format!("{k:<18}"), theme.accent());
        let teams: Vec<String> = p.teams.iter().map(|t| clean(&t.name)).collect();
        lines.push(Line::from(vec![label("Plan"), Span::raw(clean(&p.plan))]));
        lines.push(Line::from(vec![
            label("Included channels"),
            Span::raw(p.included_channels.to_string()),
        ]));
        lines.push(Line::from(vec![label("Licenses"), Span::raw(p.licenses.to_string())]));
        lines.push(Line::from(vec![
            label("Active users"),
            Span::raw(format!("{} of {}", p.active_users, p.licenses)),
        ]));
        lines.push(Line::from(vec![
            label("Teams"),
            Span::raw(format!("{}: {}", teams.len(), teams.join(", "))),
        ]));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), a.list);
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border())
        .title(Span::styled(" Funnels ", theme.accent()));
    let mut inner = block.inner(a.detail);
    frame.render_widget(block, a.detail);
    if !state(model, &acc.funnels, frame, &mut inner, theme) {
        return;
    }
    let funnels = acc.funnels.data.as_deref().unwrap_or_default();
    let cols = [col("Pos", 4, 9), col("Emoji", 5, 8), flex("Name", 10)];
    table(frame, inner, &cols, funnels, Some(acc.funnels_cursor), theme, |f| {
        vec![format!("{:>4}", f.position), clean(&f.emoji), clean(&f.name)]
    });
}

fn webhooks(model: &Model, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let w = &acc.webhooks;
    let mut area = a.list;
    if !state(model, &w.events, frame, &mut area, theme) {
        return;
    }
    let items = w.events.data.as_deref().unwrap_or_default();
    let cols = [
        col("Time", 16, 8),
        col("OK", 2, 9),
        col("Code", 4, 7),
        flex("Event", 14),
        col("Payload", 16, 3),
    ];
    table(frame, area, &cols, items, Some(w.cursor), theme, |e: &WebhookEvent| {
        vec![
            local(e.created_at, model.session.tz),
            if e.success { "✓".into() } else { "✗".into() },
            e.response
                .as_ref()
                .and_then(|r| r.code)
                .map_or(String::new(), |c| c.to_string()),
            clean(e.event.as_str()),
            clean(&e.payload),
        ]
    });
    let Some(e) = items.get(w.cursor.selected) else { return };
    let mut lines = Vec::new();
    match &e.response {
        None => lines.push(Line::styled("no response recorded", theme.dim())),
        Some(r) => {
            let code = r.code.map_or("?".into(), |c| c.to_string());
            let ok = if e.success { "✓ success" } else { "✗ failed" };
            lines.push(Line::from(vec![
                Span::styled("Code ", theme.accent()),
                Span::raw(format!("{code}  {ok}")),
            ]));
            lines.push(Line::styled("Headers", theme.accent()));
            match &r.headers {
                serde_json::Value::Object(h) if !h.is_empty() => {
                    for (k, v) in h {
                        let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                        lines.push(Line::raw(format!("  {}: {}", clean(k), clean(&v))));
                    }
                }
                serde_json::Value::Null => lines.push(Line::styled("  (none)", theme.dim())),
                other => lines.push(Line::raw(format!("  {}", clean(&other.to_string())))),
            }
            lines.push(Line::styled("Body", theme.accent()));
            let body = serde_json::to_string_pretty(&r.body).unwrap_or_default();
            lines.extend(text_lines(&body, theme.normal()));
        }
    }
    let title = format!("Response to {}", clean(e.event.as_str()));
    detail(frame, a.detail, title, lines, theme);
}

#[cfg(test)]
#[path = "account_tests.rs"]
mod tests;
