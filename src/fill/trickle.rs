//! The background trickle of last messages, made cheap to keep going for
//! hours on a big account:
//!
//! - it walks the stale conversations from a cursor, so each batch costs a
//!   short index read rather than a scan past every fresh conversation
//!   above it;
//! - what it fetched is held back and handed to the UI together, at most
//!   once every [`HOLD`]: each hand-over recounts every view over every
//!   row, which at 100,000 contacts is the idle app's largest cost. What the
//!   UI asked for (rows on screen) is never held;
//! - it goes at most [`RATE`] conversations a second (the sync budget
//!   still applies): each costs 2 to 4 ms of the index thread (the
//!   request, its JSON, and the search table's writes), so at the sync
//!   budget's 5 a second keeping a big account's previews took 1% of a
//!   core for hours; at one every 2 s it is about 0.15%, 1,800
//!   conversations an hour, while what the agent scrolls to is fetched at
//!   once. The first [`FAST_START`] of a session go at the budget's pace,
//!   so a small account (the demo's 200 open conversations) has every
//!   last message within a minute.

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::time::Instant;

use crate::index::{IndexAccess, Preview, SharedIndex, Wanted};

/// How long fetched last messages wait to reach the UI together.
pub const HOLD: Duration = Duration::from_secs(15);
/// Conversations a second the trickle fetches at most.
pub const RATE: f64 = 0.5;
/// Conversations fetched at the sync budget's pace before [`RATE`] applies.
pub const FAST_START: usize = 600;
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
    /// No batch starts before this (the pace).
    paced: Option<Instant>,
    /// Conversations the trickle handed out this session.
    handed_out: usize,
}

impl Trickle {
    /// Where the next batch starts.
    #[cfg(test)]
    pub fn cursor(&self) -> Option<&Wanted> {
        self.cursor.as_ref()
    }

    /// The next `size` stale open conversations from the cursor down
    /// (past the end, once more from the newest), stepping over those
    /// `tried` at their current activity this session (a 404). Empty when
    /// every open conversation is up to date.
    pub fn next_batch(
        &mut self,
        index: &mut SharedIndex,
        tried: &HashMap<String, Option<DateTime<Utc>>>,
        size: usize,
    ) -> Vec<Wanted> {
        for _ in 0..2 {
            let from_top = self.cursor.is_none();
            let mut batch = Vec::new();
            let mut last = None;
            while batch.len() < size {
                let after = last.as_ref().or(self.cursor.as_ref());
                let stale = index
                    .with(|ix| ix.stale_previews_after(after, 4 * size))
                    .unwrap_or_default();
                let Some(end) = stale.last().cloned() else { break };
                let room = size - batch.len();
                batch.extend(stale.into_iter().filter(|(u, a)| tried.get(u) != Some(a)).take(room));
                // Filled: the next batch starts past its last; else past
                // this page (all of it taken or stepped over).
                last = Some(if batch.len() == size {
                    batch.last().cloned().unwrap_or(end)
                } else {
                    end
                });
            }
            if !batch.is_empty() {
                self.cursor = last;
                return batch;
            }
            self.cursor = None;
            if from_top {
                break;
            }
        }
        Vec::new()
    }

    /// A batch of `n` started at `now`: the next waits until `n` / [`RATE`]
    /// seconds have passed. `unpaced` (a sync rate of 0: no limit) leaves
    /// the pace to the budget.
    pub fn pace(&mut self, n: usize, now: Instant, unpaced: bool) {
        self.handed_out += n;
        let fast = unpaced || self.handed_out <= FAST_START;
        self.paced = (!fast).then(|| now + Duration::from_secs_f64(n as f64 / RATE));
    }

    /// When the next batch may start, if that is after `now`.
    pub fn paced_until(&self, now: Instant) -> Option<Instant> {
        self.paced.filter(|&t| t > now)
    }

    /// The index changed (a pass moved contacts up): the next batch starts
    /// from the newest again, where the moved ones now are.
    pub fn rewind(&mut self) {
        self.cursor = None;
    }

    /// A batch's last messages arrived: what the UI asked for goes at
    /// once, with anything held; the trickle's are held.
    pub fn arrived(
        &mut self,
        previews: Vec<(String, Preview)>,
        asked: bool,
        now: Instant,
    ) -> Option<Vec<(String, Preview)>> {
        if !asked {
            self.hold(previews, now);
            return None;
        }
        let mut all = self.take();
        all.extend(previews);
        (!all.is_empty()).then_some(all)
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
