//! Where the walk over GET /contacts stands: the cursor, the guard against
//! a server that repeats one, the generation that drops pages of an old
//! filter, the request in flight, the top-up pass that makes "(all)" true,
//! and the measured round trip that sets how far ahead to prefetch.

use chrono::{DateTime, Utc};

use crate::api::CursorGuard;
use crate::tui::shared::ReqId;

/// The pass that ends a walk: from the newest contact down to the walk's
/// start, so contacts that moved ahead of the cursor during the walk (a new
/// message re-sorts them) are loaded too.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TopUp {
    /// The newest activity on the walk's first page: a contact older than
    /// this did not change during the walk.
    pub since: Option<DateTime<Utc>>,
    /// Contacts the pass found new so far (inserted on top, in order).
    pub inserted: usize,
}

#[derive(Debug, Clone, Default)]
pub struct Paging {
    /// Bumped when the filter changes: pages of an older generation are dropped.
    pub generation: u64,
    /// Cursor of the next batch; `None` before the first page, at the end,
    /// and after the walk stopped on an error it cannot retry.
    pub next_cursor: Option<String>,
    /// The next page's number, for a server that pages by number only
    /// (`None` otherwise, and at the end).
    pub next_page: Option<u32>,
    /// True once every contact is loaded (the top-up pass included).
    pub exhausted: bool,
    /// Id of the next-page (or top-up) request in flight.
    pub loading: Option<ReqId>,
    /// Pages still to come under `loading` (a walk of several pages sends
    /// them one by one under one id).
    pub coming: u32,
    /// Id of the refresh in flight.
    pub refreshing: Option<ReqId>,
    /// `G` was pressed: stay at the end while more pages arrive.
    pub follow_end: bool,
    /// Every cursor this walk followed.
    pub guard: CursorGuard,
    /// Pages the walk has loaded (the first included).
    pub pages: u32,
    /// The newest activity on the walk's first page.
    pub walk_start: Option<DateTime<Utc>>,
    /// Set while the top-up pass runs.
    pub top_up: Option<TopUp>,
    /// When the request in flight was sent (the tick clock).
    pub sent_at: Option<DateTime<Utc>>,
    /// Smoothed round trip of a page, in milliseconds.
    pub rtt_ms: Option<u32>,
}

/// Rows of a contacts page (extensions.md: 20).
pub const PAGE_ROWS: usize = 20;

/// A key held down repeats about this often.
const KEY_REPEAT_MS: u32 = 33;

impl Paging {
    /// Starts over (a new filter, or the first load).
    pub fn restart(&mut self) {
        let generation = self.generation + 1;
        let rtt_ms = self.rtt_ms;
        *self = Paging {
            generation,
            rtt_ms,
            ..Paging::default()
        };
    }

    /// Records a round trip: a smoothed mean that follows a link that gets
    /// slower within a few pages.
    pub fn measured(&mut self, now: DateTime<Utc>) {
        let Some(sent) = self.sent_at.take() else { return };
        let ms = (now - sent).num_milliseconds().clamp(0, 60_000) as u32;
        self.rtt_ms = Some(match self.rtt_ms {
            None => ms,
            Some(old) => (old * 3 + ms) / 4,
        });
    }

    /// How many rows before the end of what is loaded the next page is
    /// asked for: a screen, plus what a held key moves through while a page
    /// is on its way (a page more for margin).
    pub fn prefetch_rows(&self, screen: usize) -> usize {
        let rtt = self.rtt_ms.unwrap_or(0);
        let during = rtt.div_ceil(KEY_REPEAT_MS) as usize;
        let margin = if rtt > 0 { PAGE_ROWS } else { 0 };
        screen.max(1) + during + margin
    }
}
