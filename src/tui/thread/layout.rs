//! The thread's layout, shared by `update` (cursor, scrolling) and the view
//! (drawing): a message's block is its lead lines (start of conversation, day
//! separator, new mark), a header and its wrapped body. Bodies are wrapped
//! once per width and kept in a cache, so a frame or a scroll step lays out
//! only the messages it touches.

use std::cell::RefCell;
use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};

use super::hyperlink::{LinkSpan, in_text, locate, target};
use crate::api::{Message, MessageStatus};
use crate::text::truncate;
use crate::tui::zone::{Zone, local};

/// What a line of the thread is, for its style and alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Day,
    NewMark,
    Header(Side),
    Body(Side),
}

/// A line of the thread as drawn: what it is, its text, its links.
pub type Row = (Kind, String, Vec<LinkSpan>);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Received,
    Sent,
    Note,
}

pub fn side(m: &Message) -> Side {
    match m.status {
        MessageStatus::Sent => Side::Sent,
        MessageStatus::Note => Side::Note,
        _ => Side::Received,
    }
}

/// Wrapped bodies at one width, by message identity ([`message_key`]).
/// Messages are immutable once sent, so an entry never goes stale; a new
/// width empties the cache and messages are laid out again as they are
/// needed (a resize costs what is drawn next, not the whole thread).
#[derive(Debug, Clone, Default)]
pub struct LayoutCache {
    width: u16,
    bodies: HashMap<String, Body>,
    /// How many bodies were wrapped since the cache was made: lets tests
    /// prove a scroll step does not lay out the thread again.
    pub wrapped: usize,
}

/// A message's body as laid out: its lines, and the links shown in them
/// (by line; columns of the line as it is, indentation included).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Body {
    pub lines: Vec<String>,
    pub links: Vec<(usize, LinkSpan)>,
}

/// The width messages are wrapped to inside a pane of inner width `w`.
fn text_width(w: u16) -> usize {
    w.max(8) as usize
}

/// A message's body lines at inner width `w`: received messages and notes
/// indented by two, sent ones (right-aligned) kept four short of the edge.
pub fn body_lines(m: &Message, w: u16) -> Vec<String> {
    body(m, w).lines
}

/// A message's body at inner width `w` ([`body_lines`]) with its links:
/// its attachments', its map's and those written in its text.
pub fn body(m: &Message, w: u16) -> Body {
    let w = text_width(w);
    let s = side(m);
    let indent = if s == Side::Sent { 0 } else { 2 };
    let tw = w - if s == Side::Sent { 4 } else { 2 };
    let mut lines = super::rich::lead(m, tw);
    let tail = super::rich::tail(m, tw);
    // A message that is only a file or a card shows no empty text line.
    if !m.text.trim().is_empty() || (lines.is_empty() && tail.is_empty()) {
        lines.extend(wrap(&crate::text::clean_text(&m.text), tw));
    }
    lines.extend(tail);
    let rich = m.rich.links();
    let mut urls: Vec<&str> = rich.iter().filter_map(|u| target(u)).collect();
    urls.extend(in_text(&m.text));
    let mut links = locate(&lines, &urls);
    let pad = " ".repeat(indent);
    if indent > 0 {
        for (_, l) in &mut links {
            l.start += indent as u16;
            l.end += indent as u16;
        }
    }
    Body {
        lines: lines.into_iter().map(|l| format!("{pad}{l}")).collect(),
        links,
    }
}

impl LayoutCache {
    fn ensure_width(&mut self, w: u16) {
        if self.width != w {
            self.width = w;
            self.bodies.clear();
        }
    }

    /// Calls `f` with `m`'s body at width `w`, wrapping it only if needed.
    pub fn with_body<R>(&mut self, m: &Message, w: u16, f: impl FnOnce(&[String]) -> R) -> R {
        self.with_links(m, w, |b| f(&b.lines))
    }

    /// Calls `f` with `m`'s body and its links at width `w`.
    pub fn with_links<R>(&mut self, m: &Message, w: u16, f: impl FnOnce(&Body) -> R) -> R {
        self.ensure_width(w);
        let key = message_key(m);
        if let Some(b) = self.bodies.get(&key) {
            return f(b);
        }
        self.wrapped += 1;
        let b = body(m, w);
        let r = f(&b);
        self.bodies.insert(key, b);
        r
    }
}

/// Shared cell around the cache: the view reads the model by reference and
/// still fills the cache for what it draws.
#[derive(Debug, Clone, Default)]
pub struct Layout(RefCell<LayoutCache>);

impl Layout {
    pub fn with_body<R>(&self, m: &Message, w: u16, f: impl FnOnce(&[String]) -> R) -> R {
        self.0.borrow_mut().with_body(m, w, f)
    }
    pub fn with_links<R>(&self, m: &Message, w: u16, f: impl FnOnce(&Body) -> R) -> R {
        self.0.borrow_mut().with_links(m, w, f)
    }
    /// Bodies wrapped so far (for tests).
    pub fn wrapped(&self) -> usize {
        self.0.borrow().wrapped
    }
}

pub fn local_date(t: Option<DateTime<Utc>>, tz: Option<Zone>) -> Option<NaiveDate> {
    t.map(|t| local(t, tz).date_naive())
}

/// The day separator above a message of day `t`.
pub fn day_line(t: DateTime<Utc>, tz: Option<Zone>) -> String {
    let t = local(t, tz);
    format!("── {} ──", t.format("%a %-d %b %Y"))
}

/// A message's header: `‹ 14:02 +4915…`, `14:03 Ana ›`,
/// `14:03 you › ✓ delivered`, `14:04 dana ›`, `✎ note 14:05`. A delivery
/// `mark` is only given for a message this session sent: it is the
/// agent's, shown as `you` whatever sender the server names. A message a
/// team hub says an agent sent (`sent_by`) shows that agent's name, or
/// `you` when it is this agent (`me`, the hub's name for it). `selected`
/// puts `▶` in front, so the cursor shows without colour.
pub fn header(m: &Message, w: u16, tz: Option<Zone>, mark: Option<&str>, selected: bool, me: Option<&str>) -> String {
    let time = m
        .created_at
        .map(|t| local(t, tz).format("%H:%M").to_string())
        .unwrap_or_default();
    let from = clean(&m.from);
    let h = match (side(m), mark) {
        (Side::Received, _) => format!("‹ {time} {from}"),
        (Side::Sent, Some(mark)) => format!("{time} you › {mark}"),
        (Side::Sent, None) => match m.sent_by.as_deref().map(clean).filter(|n| !n.is_empty()) {
            Some(by) if me.is_some_and(|me| clean(me) == by) => format!("{time} you ›"),
            Some(by) => format!("{time} {by} ›"),
            None => format!("{time} {from} ›"),
        },
        (Side::Note, _) => format!("✎ note {time}"),
    };
    let h = if selected { format!("▶ {h}") } else { h };
    truncate(&h, text_width(w)).into_owned()
}

fn clean(s: &str) -> String {
    crate::text::clean_line(s)
}

pub use crate::tui::widgets::wrap;

#[cfg(test)]
mod tests;

/// A stable identity for merging refreshed batches (notes have no uuid).
pub fn message_key(m: &Message) -> String {
    match &m.uuid {
        Some(u) => u.clone(),
        None => format!("{:?}|{}|{}", m.created_at, m.status, m.text),
    }
}
