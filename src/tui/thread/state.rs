//! The selected contact's messages, the message cursor, the viewport and
//! the message popups (delete confirmation, details).

use std::collections::HashSet;

use crate::api::{Message, MessageSendRequest};
use crate::tui::shared::ReqId;

use super::layout::{self, Layout};

/// The view's top edge: a message's block and how many of its lines are
/// scrolled off above. Block indexes follow the messages (older batches
/// shift them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub block: usize,
    pub skip: usize,
}

/// What the thread is laid out for: the pane's inner size and the zone.
#[derive(Debug, Clone, Copy)]
pub struct Geometry {
    pub width: u16,
    pub height: usize,
    pub tz: Option<crate::tui::zone::Zone>,
}

/// The delivery status shown in a sent message's details.
#[derive(Debug, Clone, PartialEq)]
pub enum Delivery {
    /// A received message or a note: nothing was sent through the API.
    NotSent,
    Loading,
    Known(MessageSendRequest),
    /// Not found (sent elsewhere) or the request failed: why.
    Unavailable(String),
}

#[derive(Debug, Clone)]
pub enum Popup {
    /// `d`: deleting the message needs a `y`.
    ConfirmDelete { message: Box<Message> },
    /// `i`: the message's details; `poll` is the status request awaited.
    Info {
        message: Box<Message>,
        delivery: Delivery,
        poll: Option<ReqId>,
    },
    /// `T` in the thread: the funnel picker (`funnel`).
    Funnel { picker: Box<crate::tui::form::FuzzyPicker> },
    /// `N`: an internal note being written (`note`).
    Note { form: Box<crate::tui::form::Form> },
}

#[derive(Debug, Clone, Default)]
pub struct Thread {
    /// Whose thread this is (set as soon as the selection settles).
    pub contact: Option<String>,
    /// Oldest first: the view draws them top to bottom.
    pub messages: Vec<Message>,
    /// Cursor of the next older batch.
    pub older: Option<String>,
    pub loaded: bool,
    pub loading: Option<ReqId>,
    pub loading_older: Option<ReqId>,
    pub refreshing: Option<ReqId>,
    /// The selected message; `None`: the newest, following new arrivals.
    pub cursor: Option<usize>,
    /// The view's top; `None`: pinned to the newest at the bottom.
    pub top: Option<Pos>,
    /// `g` was pressed: keep loading older batches to the start.
    pub to_start: bool,
    /// Messages at or after this index arrived while the thread was open.
    pub new_from: Option<usize>,
    pub error: Option<String>,
    pub popup: Option<Popup>,
    /// The delete in flight: request id and the message's key.
    pub deleting: Option<(ReqId, String)>,
    /// Wrapped bodies per width (see [`layout`]).
    pub layout: Layout,
    /// This agent's name on the team hub (`Session::agent`): a message the
    /// hub says it sent shows as `you`.
    pub me: Option<String>,
    /// The message (key) and link index `o` opened last: the next `o` on
    /// it opens its next link.
    pub opened: Option<(String, usize)>,
    /// The note being written: request, contact, text.
    pub noting: Option<(ReqId, String, String)>,
    /// A note the service did not take, by contact: `N` brings it back.
    pub note_draft: Option<(String, String)>,
    /// The funnel move in flight.
    pub moving: Option<ReqId>,
    /// The conversation's timeline, drawn between messages (`timeline`).
    pub timeline: super::timeline::Timeline,
    /// Inline image previews (off unless the terminal shows images).
    pub previews: super::preview::Previews,
    /// Links drawn as OSC 8 hyperlinks (the `hyperlinks` setting).
    pub hyperlinks: bool,
}

impl Thread {
    /// A stable identity for merging refreshed batches (notes have no uuid).
    pub fn key(m: &Message) -> String {
        layout::message_key(m)
    }

    /// Index of the selected message (the newest when none was chosen).
    pub fn selected(&self) -> Option<usize> {
        let last = self.messages.len().checked_sub(1)?;
        Some(self.cursor.map_or(last, |c| c.min(last)))
    }

    pub fn index_of(&self, key: &str) -> Option<usize> {
        self.messages.iter().rposition(|m| Thread::key(m) == key)
    }

    /// Puts an older batch (oldest first) before the loaded messages,
    /// leaving out ones already there; the cursor and the view stay on the
    /// messages they showed. Returns how many were added.
    pub fn prepend(&mut self, mut batch: Vec<Message>) -> usize {
        // Pages are by time: only loaded messages no newer than the batch's
        // newest can repeat it, and those are at the start.
        let newest = batch.iter().filter_map(|m| m.created_at).max();
        let known: HashSet<String> = self
            .messages
            .iter()
            .take_while(|m| newest.is_none() || m.created_at.is_none() || m.created_at <= newest)
            .map(Thread::key)
            .collect();
        batch.retain(|m| !known.contains(&Thread::key(m)));
        let n = batch.len();
        self.messages.splice(0..0, batch);
        if let Some(c) = self.cursor.as_mut() {
            *c += n;
        }
        if let Some(p) = self.top.as_mut() {
            p.block += n;
        }
        if let Some(f) = self.new_from.as_mut() {
            *f += n;
        }
        n
    }

    /// Adds the newest batch's unseen messages (oldest first) at the end;
    /// returns how many. The view stays where it is; when pinned it shows
    /// them.
    pub fn append(&mut self, mut batch: Vec<Message>) -> usize {
        let oldest = batch.iter().filter_map(|m| m.created_at).min();
        let known: HashSet<String> = self
            .messages
            .iter()
            .rev()
            .take_while(|m| oldest.is_none() || m.created_at.is_none() || m.created_at >= oldest)
            .map(Thread::key)
            .collect();
        let latest = self.messages.last().and_then(|m| m.created_at);
        batch.retain(|m| !known.contains(&Thread::key(m)) && m.created_at >= latest);
        let n = batch.len();
        if n > 0 {
            let start = self.messages.len();
            self.messages.extend(batch);
            self.new_from.get_or_insert(start);
        }
        n
    }

    /// Removes the message with `key` (deleted on the server).
    pub fn remove(&mut self, key: &str) -> bool {
        let Some(i) = self.index_of(key) else { return false };
        self.messages.remove(i);
        let len = self.messages.len();
        self.cursor = match self.cursor {
            Some(c) if c > i => Some(c - 1),
            Some(c) if c >= len => None,
            other => other,
        };
        if let Some(p) = self.top {
            self.top = match p.block {
                b if b > i => Some(Pos {
                    block: b - 1,
                    skip: p.skip,
                }),
                b if b == i && b < len => Some(Pos { block: b, skip: 0 }),
                b if b >= len => None,
                _ => Some(p),
            };
        }
        self.new_from = match self.new_from {
            Some(f) if f > i => Some(f - 1),
            Some(f) if f >= len => None,
            other => other,
        };
        true
    }

    /// Back to the newest message, pinned to the bottom.
    pub fn scroll_to_newest(&mut self) {
        self.cursor = None;
        self.top = None;
        self.new_from = None;
        self.to_start = false;
    }

    /// The line above the oldest message, if any: loading, start, empty.
    pub fn top_line(&self, spin: &str) -> Option<String> {
        if self.loading_older.is_some() {
            Some(format!("{spin} loading older messages…"))
        } else if self.older.is_none() {
            Some(if self.messages.is_empty() {
                "no messages yet".into()
            } else {
                "— start of conversation —".into()
            })
        } else {
            None
        }
    }
}
