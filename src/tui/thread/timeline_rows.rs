//! The timeline's rows placed among the thread's messages: the events
//! above a message and after the newest, each cut to the pane's width.

use super::timeline::{Event, row};

impl super::state::Thread {
    /// The timeline's rows above message `i` (its events since the message
    /// before). Above the oldest loaded one only when nothing older is
    /// left to load: older events belong among older messages.
    pub(super) fn events_above(&self, i: usize, g: super::state::Geometry) -> Vec<String> {
        let Some(upto) = self.messages.get(i).and_then(|m| m.created_at) else {
            return Vec::new();
        };
        if i == 0 && self.older.is_some() {
            return Vec::new();
        }
        let after = self.messages[..i].iter().rev().find_map(|m| m.created_at);
        let contact = self.contact.as_deref();
        self.timeline.between(contact, after, upto).map(|e| fit(e, g)).collect()
    }

    /// The rows after message `i` when it is the newest.
    pub(super) fn events_below(&self, i: usize, g: super::state::Geometry) -> Vec<String> {
        if i + 1 != self.messages.len() {
            return Vec::new();
        }
        let Some(t) = self.messages.iter().rev().find_map(|m| m.created_at) else {
            return Vec::new();
        };
        self.timeline
            .after(self.contact.as_deref(), t)
            .map(|e| fit(e, g))
            .collect()
    }
}

/// A row cut to the pane's width.
fn fit(e: &Event, g: super::state::Geometry) -> String {
    crate::text::truncate(&row(e, g.tz), usize::from(g.width.max(8))).into_owned()
}
