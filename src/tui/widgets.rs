//! Small drawing pieces any part of the TUI uses: server text made fit for
//! a cell, times as the panes show them, a centred box, the spinner. They
//! know nothing of the model, so forms, views and overlays share them.

use chrono::{DateTime, Utc};
use ratatui::layout::Rect;
use unicode_segmentation::UnicodeSegmentation;

pub const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// The spinner's glyph at `frame` (the model's tick count). Views draw it
/// through `Model::spinner`, which also notes that one showed.
pub fn spinner_glyph(frame: u64) -> &'static str {
    SPINNER[(frame % SPINNER.len() as u64) as usize]
}

/// 41200 → "41,200".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
    crate::tui::text::clean_line(s)
}

/// Pads or cuts `s` (already sanitized) to exactly `w` columns.
pub fn fit(s: &str, w: usize) -> String {
    let t = crate::tui::text::truncate(s, w);
    let pad = w.saturating_sub(crate::tui::text::width(&t));
    format!("{t}{}", " ".repeat(pad))
}

/// A timestamp in the local zone (its offset at that time), or UTC when
/// unknown: the one place views convert times.
pub use crate::tui::zone::local;

/// A timestamp as the panes show it (`2026-11-22 14:02`, local time), or
/// `None` when the server sent none.
pub fn stamp(t: Option<chrono::DateTime<chrono::Utc>>, tz: Option<crate::tui::zone::Zone>) -> Option<String> {
    t.map(|t| local(t, tz).format("%Y-%m-%d %H:%M").to_string())
}

/// A `w` x `h` rectangle centred in `area` (clamped to it).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h)
}

/// First visible row of a `height`-row window over `len` rows that keeps
/// `cursor` near the middle.
pub fn window_start(cursor: usize, len: usize, height: usize) -> usize {
    if height == 0 || len <= height {
        return 0;
    }
    cursor.saturating_sub(height / 2).min(len - height)
}

/// Word wrap by display width; words wider than a line break by grapheme.
pub fn wrap(text: &str, w: usize) -> Vec<String> {
    let w = w.max(1);
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        let mut used = 0;
        for word in para.split_word_bounds() {
            let ww = crate::text::width(word);
            if used + ww > w && used > 0 {
                lines.push(std::mem::take(&mut line).trim_end().to_string());
                used = 0;
                if word.trim().is_empty() {
                    continue;
                }
            }
            if ww > w {
                for g in word.graphemes(true) {
                    let gw = crate::text::width(g);
                    if used + gw > w && used > 0 {
                        lines.push(std::mem::take(&mut line));
                        used = 0;
                    }
                    line.push_str(g);
                    used += gw;
                }
            } else {
                line.push_str(word);
                used += ww;
            }
        }
        lines.push(line.trim_end().to_string());
    }
    lines
}
