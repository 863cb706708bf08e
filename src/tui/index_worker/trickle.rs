//! The background trickle of last messages, made cheap to keep going for
//! hours on a big account:
//!
//! - it walks the stale conversations from a cursor, so each batch costs a
//!   short index read rather than a scan past every fresh conversation
//!   above it;
//! - what it fetched is held back and handed to the UI together, at most
//!   once every [`HOLD`]: each hand-over recounts every view over every
//!   row, which at 100,000 contacts is the idle app's largest cost. What the
//!   UI asked for (rows on screen) is never held.

use std::time::Duration;

use tokio::time::Instant;

use crate::index::{Preview, Wanted};

/// How long fetched last messages wait to reach the UI together.
pub const HOLD: Duration = Duration::from_secs(5);
/// Held back at most this many: more go at once.
pub const HOLD_MAX: usize = 500;

/// Where the trickle stands and what it holds back.
#[derive(Debug, Default)]
pub struct Trickle {
    /// The last conversation handed out: the next batch starts past it.
    /// `None`: from the newest.
    cursor: Option<Wanted>,
    held: Vec<(String, Preview)>,
    held_since: Option<Instant>,
}

impl Trickle {
    /// Where the next batch starts.
    pub fn cursor(&self) -> Option<&Wanted> {
        self.cursor.as_ref()
    }

    /// A batch was handed out (or nothing was left past the cursor:
    /// `None` starts again from the newest).
    pub fn moved_to(&mut self, last: Option<Wanted>) {
        self.cursor = last;
    }

    /// The index changed (a pass moved contacts up): the next batch starts
    /// from the newest again, where the moved ones now are.
    pub fn rewind(&mut self) {
        self.cursor = None;
    }

    /// Keeps what a background batch fetched until it is due.
    pub fn hold(&mut self, previews: Vec<(String, Preview)>, now: Instant) {
        if previews.is_empty() {
            return;
        }
        self.held_since.get_or_insert(now);
        self.held.extend(previews);
    }

    /// When what is held must go to the UI.
    pub fn due(&self) -> Option<Instant> {
        let since = self.held_since?;
        Some(if self.held.len() >= HOLD_MAX {
            since
        } else {
            since + HOLD
        })
    }

    /// What is held, when it is due at `now`.
    pub fn take_due(&mut self, now: Instant) -> Option<Vec<(String, Preview)>> {
        self.due().filter(|&d| d <= now)?;
        Some(self.take())
    }

    /// Everything held, due or not (it goes along with what the UI asked).
    pub fn take(&mut self) -> Vec<(String, Preview)> {
        self.held_since = None;
        std::mem::take(&mut self.held)
    }
}

#[cfg(test)]
mod tests;
