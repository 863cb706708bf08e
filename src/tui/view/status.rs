//! The status bar, the toast line and the narrow layout's tab strip.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::keymap::Action;
use crate::tui::widgets::{clean, thousands};
use chrono::{DateTime, Utc};

use crate::tui::model::{Model, Pane, ToastKind};
use crate::tui::msg::index::{HubLink, SyncStatus};
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
    if let Some((text, available)) = me(&model.details.me) {
        spans.push(Span::raw(" │ "));
        let style = match available {
            Some(true) => theme.success(),
            Some(false) => theme.warning(),
            None => theme.dim(),
        };
        spans.push(Span::styled(text, style));
    }
    if let Some(quiet) = crate::tui::notify::status(&model.slices.notify, model.now, model.session.tz) {
        spans.push(Span::raw(" │ "));
        spans.push(Span::styled(quiet, theme.warning()));
    }
    if let Some(run) = &model.act.bulk {
        // "closing 37/120 Esc stops", early: it matters more than the counts.
        spans.push(Span::raw(" │ "));
        let text = if run.cancelled {
            format!("stopping {}/{} {}", run.done(), run.total, model.spinner())
        } else {
            let stop = model.keys.first_key(Action::Cancel);
            format!(
                "{} {}/{} {} {stop} stops",
                run.doing,
                run.done(),
                run.total,
                model.spinner()
            )
        };
        spans.push(Span::styled(text, theme.warning()));
    }
    if !model.marks.is_empty() || model.marks.range.is_some() {
        spans.push(Span::raw(" │ "));
        let range = if model.marks.range.is_some() { " (V range)" } else { "" };
        spans.push(Span::styled(
            format!("{} marked{range}", thousands(model.marks.len() as u64)),
            theme.accent(),
        ));
    }
    let list = &model.list;
    if let Some(sync) = &model.sync.status {
        spans.push(Span::raw(format!(" │ {} contacts", thousands(list.store.len() as u64))));
        let (text, warn) = freshness(model, sync);
        spans.push(Span::raw(" │ "));
        spans.push(Span::styled(text, if warn { theme.warning() } else { theme.dim() }));
    } else {
        let mut count = format!(" │ {} loaded", list.store.len());
        if list.paging.loading.is_some() || list.paging.refreshing.is_some() {
            count.push(' ');
            count.push_str(model.spinner());
        } else if list.paging.exhausted {
            count.push_str(" (all)");
        }
        spans.push(Span::raw(count));
    }
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
        .map(|(a, what)| (model.keys.first_key(*a), what))
        .filter(|(k, _)| !k.is_empty())
        .map(|(k, what)| format!("{k} {what} "))
        .collect::<Vec<_>>()
        .join(" ");
    let hint = hint.as_str();
    let [left, right] = Layout::horizontal([Constraint::Min(1), Constraint::Length(width(hint) as u16)]).areas(area);
    frame.render_widget(Paragraph::new(Line::from(spans)), left);
    frame.render_widget(Paragraph::new(Line::styled(hint, theme.dim())), right);
}

/// The agent's own availability and custom status, compact enough for 80
/// columns (`● available · Lunch`, `○ away`), and whether available; `None`
/// when neither is known (or there is no user to have them).
pub fn me(av: &crate::tui::details::Availability) -> Option<(String, Option<bool>)> {
    av.user.as_ref()?;
    let state = match av.available {
        Some(true) => Some("● available"),
        Some(false) => Some("○ away"),
        None => None,
    };
    let custom = av.custom_status.as_ref().map(|(_, name)| clean(name));
    let custom = custom
        .filter(|c| !c.trim().is_empty())
        .map(|c| truncate(&c, 16).into_owned());
    let text = match (state, custom) {
        (None, None) => return None,
        (Some(s), None) => s.to_string(),
        (None, Some(c)) => c,
        (Some(s), Some(c)) => format!("{s} · {c}"),
    };
    Some((text, av.available))
}

/// How fresh the list is: "synced 15 s ago", "syncing 41,200 / ~100,000",
/// "offline: showing the index from 09:12", "rate limited: next try in
/// 5 s". True when it is worth the agent's attention.
pub fn freshness(model: &Model, sync: &SyncStatus) -> (String, bool) {
    let now = model.now;
    let searching = model.list.view.search.as_ref().is_some_and(|s| !s.query.is_empty());
    if model.sync.index_busy && searching {
        return ("index busy (sync)".to_string(), true);
    }
    if let Some((done, total)) = sync.indexing
        && searching
    {
        // Search finds only the contacts indexed so far.
        let left = thousands(total.saturating_sub(done));
        return (format!("search incomplete: {left} left to index"), true);
    }
    // Out of reach comes first: a pause left by an earlier rate limit
    // must not pass for the reason nothing arrives.
    if sync.offline {
        let from = match sync.synced_at {
            Some(t) => format!(" from {}", local_clock(model, t)),
            None => String::new(),
        };
        return (format!("offline: showing the index{from}"), true);
    }
    if let Some(at) = sync.retry_at.filter(|t| *t > now) {
        let secs = (at - now).num_seconds().max(1);
        return (format!("rate limited: next try in {secs} s"), true);
    }
    if let Some(link) = &sync.hub
        && let Some(said) = hub_link(model, sync, link)
    {
        return said;
    }
    if let Some((done, expected)) = sync.walking {
        let of = match expected {
            Some(n) if n > done => format!(" / ~{}", thousands(n)),
            _ => String::new(),
        };
        return (format!("syncing {}{of} {}", thousands(done), model.spinner()), false);
    }
    if let Some(said) = indexing(model, sync) {
        return (said, false);
    }
    let text = match sync.synced_at {
        None => "not synced yet".to_string(),
        Some(t) => format!("synced {}", ago(now, t)),
    };
    let text = if sync.in_memory {
        format!("{text} (in memory)")
    } else {
        text
    };
    (text, false)
}

/// Through a hub: how its stream stands, when that is the news (a live
/// stream with a snapshot loaded is "live"; while the snapshot loads, its
/// progress shows as a walk's).
fn hub_link(model: &Model, sync: &SyncStatus, link: &HubLink) -> Option<(String, bool)> {
    if let (HubLink::Live, Some((state, since))) = (link, model.colleagues.service) {
        let what = match state {
            crate::hubclient::ServiceState::Limited => "service rate-limiting",
            _ => "service unreachable",
        };
        return Some((format!("{what} (hub) since {}", local_clock(model, since)), true));
    }
    match link {
        HubLink::Live if sync.walking.is_none() => Some((
            match indexing(model, sync) {
                Some(i) => format!("live (hub) · {i}"),
                None => "live (hub)".to_string(),
            },
            false,
        )),
        HubLink::Live => None,
        HubLink::Connecting if sync.walking.is_some() => None,
        HubLink::Connecting => Some((format!("connecting to the hub {}", model.spinner()), false)),
        // The pause before the next try is short (at most 10 s): no
        // countdown that the 15 s clock would show stale.
        HubLink::Down { .. } => Some(("hub stream down: polling, reconnecting".to_string(), true)),
        HubLink::Refused(_) => Some(("the hub refused the agent token".to_string(), true)),
    }
}

/// Search rows being written: "indexing for search 40%".
fn indexing(model: &Model, sync: &SyncStatus) -> Option<String> {
    let (done, total) = sync.indexing?;
    let pct = (done * 100).checked_div(total).unwrap_or(0).min(99);
    Some(format!("indexing for search {pct}% {}", model.spinner()))
}

/// "just now", "15 s ago" (in steps of the 15 s redraw clock), "3 min ago",
/// "2 h ago", "4 d ago".
fn ago(now: DateTime<Utc>, t: DateTime<Utc>) -> String {
    let secs = (now - t).num_seconds().max(0);
    match secs {
        0..15 => "just now".into(),
        15..60 => format!("{} s ago", secs / 15 * 15),
        60..3600 => format!("{} min ago", secs / 60),
        3600..86_400 => format!("{} h ago", secs / 3600),
        _ => format!("{} d ago", secs / 86_400),
    }
}

/// A time of day in the session's zone ("09:12"), or the date when it is
/// not today.
fn local_clock(model: &Model, t: DateTime<Utc>) -> String {
    let tz = model.session.tz;
    let here = crate::tui::zone::local(t, tz).format("%Y-%m-%d %H:%M").to_string();
    let today = crate::tui::zone::local(model.now, tz).format("%Y-%m-%d").to_string();
    match here.strip_prefix(&today) {
        Some(time) => time.trim().to_string(),
        None => here,
    }
}

pub fn toast(model: &Model, frame: &mut Frame, area: Rect, theme: &Theme) {
    let Some(t) = model.status.current() else { return };
    let (prefix, style) = match t.kind {
        ToastKind::Error => ("✗ ", theme.error()),
        ToastKind::Success => ("✓ ", theme.success()),
        ToastKind::Info => ("· ", theme.normal()),
    };
    let text = format!("{prefix}{}", clean(&t.text));
    // While `u` can take the last action back, the toast line says so at
    // its end, whatever toast came since.
    let key = model.keys.first_key(Action::Undo);
    let offer = if model.act.undo.offered(model.now).is_some() && !key.is_empty() {
        format!(" {key} undo ")
    } else {
        String::new()
    };
    let room = (area.width as usize).saturating_sub(width(&offer));
    let text = truncate(&text, room).into_owned();
    let [left, right] = Layout::horizontal([Constraint::Min(1), Constraint::Length(width(&offer) as u16)]).areas(area);
    frame.render_widget(Paragraph::new(Line::styled(text, style)), left);
    if !offer.is_empty() {
        frame.render_widget(Paragraph::new(Line::styled(offer, theme.selected())), right);
    }
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
