//! Drawing: reads the model, never changes it. Every string from the server
//! goes through `text::sanitize*` before it reaches a cell.

pub(crate) mod account;
pub(crate) mod compose;
pub(crate) mod details;
pub(crate) mod help;
pub(crate) mod history;
pub(crate) mod list;
mod many;
pub(crate) mod overlay;
pub(crate) mod status;
pub(crate) mod tabs;
pub(crate) mod thread;

#[cfg(test)]
pub(crate) mod tests;

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::widgets::Block;

use super::model::{Model, Pane};
use super::theme::Theme;

pub const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

thread_local! {
    /// Set whenever a spinner is drawn: the loop ticks only while one shows.
    static SPUN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

pub fn spinner(frame: u64) -> &'static str {
    SPUN.with(|s| s.set(true));
    SPINNER[(frame % SPINNER.len() as u64) as usize]
}

/// Whether a spinner was drawn since the last call.
pub fn take_spun() -> bool {
    SPUN.with(|s| s.replace(false))
}

/// Draws the whole screen.
pub fn view(model: &Model, frame: &mut Frame, theme: &Theme) {
    let a = super::model::areas(
        frame.area(),
        model.is_wide(),
        model.focus,
        model.status.current().is_some(),
    );
    if let Some(r) = a.tabs {
        status::tabs(model, frame, r, theme);
    }
    if let Some(r) = a.list {
        list::render(model, frame, r, theme);
    }
    if let Some(r) = a.thread {
        let (r, c) = compose::split(model, r);
        thread::render(model, frame, r, theme);
        if let Some(c) = c {
            compose::render(model, frame, c, theme);
        }
    }
    if let Some(r) = a.details {
        details::render(model, frame, r, theme);
    }
    if let Some(r) = a.bot {
        details::render_bot(model, frame, r, theme);
    }
    if let Some(r) = a.availability {
        details::render_availability(model, frame, r, theme);
    }
    if let Some(r) = a.toast {
        status::toast(model, frame, r, theme);
    }
    status::bar(model, frame, a.status, theme);
    account::render(model, frame, theme);
    overlay::render(model, frame, theme);
    compose::render_overlay(model, frame, theme);
    overlay::settle_wide(frame.buffer_mut());
}

/// A pane's frame, with the focused one set apart (bold + marker, so it
/// reads without colour).
pub fn pane_block<'a>(model: &Model, pane: Pane, title: String, theme: &Theme) -> Block<'a> {
    let focused = model.focus == pane;
    let title = if focused {
        format!("▶ {title} ")
    } else {
        format!(" {title} ")
    };
    Block::bordered().title(title).border_style(if focused {
        theme.border_focused()
    } else {
        theme.border()
    })
}

/// "now", "5m", "3h", "2d", "4w", or the date.
pub fn relative(now: DateTime<Utc>, t: Option<DateTime<Utc>>) -> String {
    let Some(t) = t else { return String::new() };
    let secs = (now - t).num_seconds();
    if secs < 60 {
        "now".into()
    } else if secs < 3600 {
        format!("{}m", secs / 60)
    } else if secs < 86_400 {
        format!("{}h", secs / 3600)
    } else if secs < 86_400 * 7 {
        format!("{}d", secs / 86_400)
    } else if secs < 86_400 * 60 {
        format!("{}w", secs / (86_400 * 7))
    } else {
        t.format("%b %y").to_string()
    }
}

/// Server text for one line: inert, invisible characters shown, flags
/// as letters (`text::clean_line`).
pub fn clean(s: &str) -> String {
    super::text::clean_line(s)
}

/// Pads or cuts `s` (already sanitized) to exactly `w` columns.
pub fn fit(s: &str, w: usize) -> String {
    let t = super::text::truncate(s, w);
    let pad = w.saturating_sub(super::text::width(&t));
    format!("{t}{}", " ".repeat(pad))
}

/// A timestamp in the local zone (its offset at that time), or UTC when
/// unknown: the one place views convert times.
pub(crate) use crate::tui::zone::local;

/// A timestamp as the panes show it (`2026-11-22 14:02`, local time), or
/// `None` when the server sent none.
pub(crate) fn stamp(t: Option<chrono::DateTime<chrono::Utc>>, tz: Option<crate::tui::zone::Zone>) -> Option<String> {
    t.map(|t| local(t, tz).format("%Y-%m-%d %H:%M").to_string())
}
