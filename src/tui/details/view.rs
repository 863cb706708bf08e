//! Details of the selected contact, its bot, and my availability.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::state::{Availability, Details, NO_USER_HINT};
use crate::api::Contact;
use crate::text::{clean_text, width};
use crate::tui::shared::{Pane, ViewCx};
use crate::tui::theme::Theme;
use crate::tui::widgets::clean;

/// The full record of `open` (whose thread shows), else its list row.
fn shown<'a>(st: &'a Details, vcx: &ViewCx, open: Option<&str>) -> Option<std::borrow::Cow<'a, Contact>> {
    let uuid = open?;
    match st.shown(Some(uuid)) {
        Some(c) => Some(std::borrow::Cow::Borrowed(c)),
        None => vcx.contacts.contact(uuid).map(std::borrow::Cow::Owned),
    }
}

fn field<'a>(label: &str, value: String, theme: &Theme) -> Line<'a> {
    Line::from(vec![Span::styled(format!("{label:<9}"), theme.dim()), Span::raw(value)])
}

fn when(vcx: &ViewCx, t: Option<chrono::DateTime<chrono::Utc>>) -> String {
    crate::tui::widgets::stamp(t, vcx.session.tz).unwrap_or_else(|| "—".into())
}

/// The contact's details; `open` is whose thread shows.
pub fn render(st: &Details, vcx: &ViewCx, open: Option<&str>, frame: &mut Frame, area: Rect) {
    let theme = vcx.theme;
    let mut title = "Details".to_string();
    if st.loading.is_some() {
        title = format!("{title} {}", vcx.spinner());
    }
    let block = vcx.pane_block(Pane::Details, title);
    let Some(c) = shown(st, vcx, open) else {
        frame.render_widget(
            Paragraph::new(Line::styled("no contact selected", theme.dim())).block(block),
            area,
        );
        return;
    };
    let dash = || "—".to_string();
    let mut lines = vec![
        Line::styled(clean(&c.name), theme.accent()),
        field("phone", clean(&c.phone_number), theme),
        field("source", clean(&c.source), theme),
        field("created", when(vcx, c.created_at), theme),
        field(
            "assignee",
            c.assigned_user.as_deref().map(clean).unwrap_or_else(dash),
            theme,
        ),
    ];
    let team = c.team_uuid().map(|u| {
        let name = c.team.as_ref().and_then(|t| t.name.clone()).filter(|n| !n.is_empty());
        clean(name.as_deref().or(vcx.known.team_name(u)).unwrap_or(u))
    });
    lines.push(field("team", team.unwrap_or_else(dash), theme));
    lines.push(field(
        "funnel",
        c.funnel_id
            .as_deref()
            .map(|u| clean(&vcx.known.funnel_label(u)))
            .unwrap_or_else(dash),
        theme,
    ));
    let state = match c.closed_at {
        _ if c.state_unknown => "state unknown".to_string(),
        None => "open".to_string(),
        Some(_) => format!("closed {}", when(vcx, c.closed_at)),
    };
    lines.push(field("state", state, theme));
    let tags = if c.tags.is_empty() {
        dash()
    } else {
        c.tags
            .iter()
            .map(|t| format!("#{}", clean(t)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    lines.push(field("tags", tags, theme));
    if !c.custom_fields.is_empty() || c.custom_fields_metadata.is_some() {
        lines.push(Line::styled("custom fields", theme.dim()));
        let meta = c.custom_fields_metadata.as_ref();
        let mut names: Vec<&String> = c.custom_fields.keys().collect();
        if let Some(m) = meta {
            names.extend(m.keys().filter(|k| !c.custom_fields.contains_key(*k)));
        }
        names.sort();
        for name in names {
            let m = meta.and_then(|m| m.get(name));
            let value = c
                .custom_fields
                .get(name)
                .or(m.map(|m| &m.value))
                .map(|v| v.display())
                .filter(|v| !v.trim().is_empty())
                .unwrap_or_else(|| "—".into());
            let ty = m.map(|m| format!(" ({})", m.field_type)).unwrap_or_default();
            lines.push(Line::from(vec![
                Span::raw(format!(" {}", clean(name))),
                Span::styled(clean(&ty), theme.dim()),
                Span::raw(format!(": {}", clean(&value))),
            ]));
        }
    }
    lines.push(Line::styled("note", theme.dim()));
    match c.note.as_deref().filter(|n| !n.is_empty()) {
        Some(n) => lines.extend(clean_text(n).lines().map(|l| Line::raw(format!(" {l}")))),
        None => lines.push(Line::raw(" —")),
    }
    if let Some(h) = &c.conversation_href {
        lines.push(field("chat", clean(h), theme));
    }
    if let Some(h) = &c.href {
        lines.push(field("contact", clean(h), theme));
    }
    lines.push(Line::styled("y copies the chat link", theme.dim()));
    // At 80x24 the pane holds ~8 rows: say that there is more below. Rows
    // are counted by width, a lower bound of what word wrapping takes.
    let inner_w = area.width.saturating_sub(2).max(1) as usize;
    let rows: usize = lines.iter().map(|l| l.width().div_ceil(inner_w).max(1)).sum();
    let visible = area.height.saturating_sub(2) as usize + st.scroll as usize;
    let block = if rows > visible {
        block.title_bottom(Line::styled(" more ↓ ", theme.dim()).right_aligned())
    } else {
        block
    };
    let p = Paragraph::new(lines)
        .block(block)
        .wrap(Wrap { trim: false })
        .scroll((st.scroll, 0));
    frame.render_widget(p, area);
}

/// `14:02` today, `Nov 19` before: short enough for the narrow bot panel.
fn since(vcx: &ViewCx, t: chrono::DateTime<chrono::Utc>) -> String {
    let tz = vcx.session.tz;
    let (t, now) = (
        crate::tui::widgets::local(t, tz),
        crate::tui::widgets::local(vcx.now, tz),
    );
    if t.date_naive() == now.date_naive() {
        t.format("%H:%M").to_string()
    } else {
        t.format("%b %d").to_string()
    }
}

/// Name, status and key hint each on their own line, wrapped at word
/// boundaries: the panel is only ~22 columns wide at 100 columns.
pub fn render_bot(st: &Details, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let theme = vcx.theme;
    let panel = &st.bot;
    let block = Block::bordered().title(" Bot ").border_style(theme.border());
    let mut lines = Vec::new();
    let mut hint = None;
    let inner_w = area.width.saturating_sub(2) as usize;
    let mut version = None;
    if panel.contact.is_none() {
        lines.push(Line::styled("no contact selected", theme.dim()));
    } else if panel.loading.is_some() {
        lines.push(Line::styled(format!("{} loading…", vcx.spinner()), theme.dim()));
    } else if let Some(e) = &panel.error {
        lines.push(Line::styled(clean(e), theme.dim()));
        hint = Some("b starts the bot");
    } else if let Some(bot) = &panel.bot {
        let name = if bot.name.is_empty() {
            "bot".to_string()
        } else {
            clean(&bot.name)
        };
        version = version_label(bot, theme);
        lines.push(Line::raw(name));
        if bot.is_running() {
            let at = bot
                .conversation_started_at
                .map(|t| format!(" since {}", since(vcx, t)))
                .unwrap_or_default();
            lines.push(Line::styled(format!("● running{at}"), theme.success()));
            hint = Some("b stops it");
        } else {
            lines.push(Line::styled("○ stopped", theme.dim()));
            hint = Some("b starts it");
        }
    }
    if panel.pending.is_some() {
        lines.push(Line::styled(format!("{} saving…", vcx.spinner()), theme.warning()));
    } else if let Some(h) = hint {
        lines.push(Line::styled(h, theme.dim()));
    }
    // The version goes at the end of the first line with room for it, else
    // on a line of its own before the last.
    if let Some((v, style)) = version {
        let room = lines.iter().position(|l| l.width() + 3 + width(&v) <= inner_w);
        match room {
            Some(i) => lines[i].push_span(Span::styled(format!(" · {v}"), style)),
            None => {
                let at = lines.len().saturating_sub(1);
                lines.insert(at, Line::styled(v, style));
            }
        }
    }
    frame.render_widget(
        Paragraph::new(fit(lines, area)).block(block).wrap(Wrap { trim: true }),
        area,
    );
}

/// The bot's own version and whether it is the latest (`latestBotVersion`).
fn version_label(bot: &crate::api::Bot, theme: &Theme) -> Option<(String, ratatui::style::Style)> {
    match (bot.version, bot.latest_bot_version) {
        (Some(v), Some(true)) => Some((format!("v{v} latest"), theme.dim())),
        (Some(v), Some(false)) => Some((format!("v{v} outdated"), theme.warning())),
        (Some(v), None) => Some((format!("v{v}"), theme.dim())),
        (None, Some(false)) => Some(("outdated".to_string(), theme.warning())),
        (None, _) => None,
    }
}

/// In a panel with room for one line (the narrow layout), the facts are
/// joined on that line with ` · ` instead of being cut after the first.
fn fit(lines: Vec<Line<'static>>, area: Rect) -> Vec<Line<'static>> {
    if area.height > 3 || lines.len() < 2 {
        return lines;
    }
    let mut spans = Vec::new();
    for (i, line) in lines.into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw(" · "));
        }
        let style = line.style;
        spans.extend(line.spans.into_iter().map(|s| s.patch_style(style)));
    }
    vec![Line::from(spans)]
}

/// State, custom status and key hints each on their own line, so nothing
/// is cut in the narrow column at 100–160 columns.
pub fn render_availability(av: &Availability, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let theme = vcx.theme;
    let block = Block::bordered().title(" My status ").border_style(theme.border());
    let mut lines = Vec::new();
    if av.user.is_none() {
        lines.push(Line::styled(NO_USER_HINT, theme.dim()));
        frame.render_widget(Paragraph::new(lines).block(block).wrap(Wrap { trim: true }), area);
        return;
    }
    let state = match av.available {
        Some(true) => Span::styled("● available", theme.success()),
        Some(false) => Span::styled("○ away", theme.warning()),
        None => Span::styled("? unknown", theme.dim()),
    };
    let mut first = vec![state];
    if av.pending.is_some() {
        first.push(Span::styled(format!(" {}", vcx.spinner()), theme.warning()));
    }
    lines.push(Line::from(first));
    let custom = match (&av.custom_status, &av.statuses) {
        (Some((_, name)), _) => Line::raw(clean(name)),
        (None, Some(Err(e))) => Line::styled(clean(e), theme.dim()),
        (None, _) => Line::styled("no custom status", theme.dim()),
    };
    lines.push(custom);
    lines.push(Line::styled("v toggles · s status", theme.dim()));
    frame.render_widget(
        Paragraph::new(fit(lines, area)).block(block).wrap(Wrap { trim: true }),
        area,
    );
}
