//! Filling the index from the API within a request budget.
//!
//! A full sync walks every contact (`Client::walk_contacts_complete`: a
//! cursor walk plus top-up passes, each contact once), stores each page in
//! its own transaction, and at the end removes the contacts the walk did
//! not see. An incremental pass walks from the newest contact until two
//! pages in a row match the index, storing what changed. Contacts are
//! sorted by latest activity, so a conversation with a new message comes
//! first; a change that does not move a contact (a close, a retag) is seen
//! by an incremental pass only while the contact is in the pages it reads,
//! and otherwise by the next full sync.
//!
//! Background work is a good citizen of the account's shared rate limit: a
//! token bucket spaces requests, and a 429 halves the pace and waits rather
//! than failing the sync.

use std::collections::HashSet;
use std::time::Duration;

use chrono::Utc;
use futures::StreamExt;
use tokio::time::Instant;

use super::{Index, IndexError};
use crate::api::{ApiError, Client, Contact, ContactFilter, CursorGuard, PageRequest};

/// Background requests per second unless configured otherwise.
pub const DEFAULT_SYNC_RATE: f64 = 5.0;

/// A full sync starts its walk again after a failure this many times.
pub const MAX_RESTARTS: u32 = 8;

/// Walks a full sync starts again after a 429 the client's own retries did
/// not get past, before it gives up.
pub const MAX_RATE_LIMITED: u32 = 32;

/// Pages in a row that must match the index to end an incremental pass.
pub const MATCHING_RUN: u32 = 2;

/// A walk that got an error it might not get on a second try.
fn transient(e: &ApiError) -> bool {
    matches!(
        e,
        ApiError::RateLimited { .. } | ApiError::Server { .. } | ApiError::Timeout(_) | ApiError::Transport(_)
    )
}

/// What stopped a sync.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error(transparent)]
    Index(#[from] IndexError),
}

/// A token bucket: at most `rate` requests per second on average, bursts of
/// up to one second's worth.
#[derive(Debug, Clone)]
pub struct Budget {
    rate: f64,
    /// The pace asked for; 429s lower `rate` to no less than an eighth of it.
    ceiling: f64,
    tokens: f64,
    last: Instant,
    /// No request before this (set by a 429).
    paused_until: Option<Instant>,
}

impl Budget {
    /// `rate` requests per second; zero, negative or not finite: no limit.
    pub fn new(rate: f64) -> Budget {
        Budget {
            rate,
            ceiling: rate,
            tokens: rate.max(1.0),
            last: Instant::now(),
            paused_until: None,
        }
    }

    fn unlimited(&self) -> bool {
        !(self.rate.is_finite() && self.rate > 0.0)
    }

    /// Waits until a request may go out, and spends a token on it.
    pub async fn take(&mut self) {
        if let Some(until) = self.paused_until.take() {
            tokio::time::sleep_until(until).await;
        }
        if self.unlimited() {
            return;
        }
        let capacity = self.rate.max(1.0);
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(capacity);
        self.last = now;
        if self.tokens < 1.0 {
            let wait = Duration::from_secs_f64((1.0 - self.tokens) / self.rate);
            tokio::time::sleep(wait).await;
            self.tokens = 1.0;
            self.last = Instant::now();
        }
        self.tokens -= 1.0;
    }

    /// After a 429: no request for `wait` (one second when the server did
    /// not say), and half the pace from now on (never below an eighth of
    /// the asked pace, nor one request every two seconds, so a few 429s
    /// cannot leave a sync crawling).
    pub fn back_off(&mut self, wait: Option<Duration>) {
        let wait = wait.unwrap_or(Duration::from_secs(1)).min(Duration::from_secs(60));
        self.paused_until = Some(Instant::now() + wait);
        if !self.unlimited() {
            self.rate = (self.rate / 2.0).max(0.5).max(self.ceiling / 8.0);
            self.tokens = self.tokens.min(1.0);
        }
    }

    /// After another passing failure (a 5xx, a timeout): no request for
    /// `wait`, the pace unchanged; only a 429 speaks of the pace.
    pub fn pause(&mut self, wait: Duration) {
        self.paused_until = Some(Instant::now() + wait);
    }

    /// The current pace, requests per second (infinite: no limit).
    pub fn rate(&self) -> f64 {
        if self.unlimited() { f64::INFINITY } else { self.rate }
    }
}

/// How far a full sync has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Contacts stored so far.
    pub done: u64,
    /// About how many there are (from the first page's page count).
    pub expected: Option<u64>,
}

/// What a full sync did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FullReport {
    /// Contacts the walk saw.
    pub seen: u64,
    /// Contacts new or changed in the index.
    pub changed: u64,
    /// Contacts removed because the walk did not see them.
    pub removed: u64,
    /// Times the walk started again after a failure.
    pub restarts: u32,
}

/// One complete walk of the account into `index`. Failures that may pass
/// (a 429, a 5xx, a timeout, a broken connection) start the walk again,
/// up to [`MAX_RESTARTS`] times; what was stored stays stored.
pub async fn full_sync(
    client: &Client,
    index: &mut Index,
    budget: &mut Budget,
    progress: &mut dyn FnMut(Progress),
) -> Result<FullReport, SyncError> {
    let started = Utc::now();
    let mut seen: HashSet<String> = HashSet::new();
    let mut report = FullReport::default();
    let mut expected = None;
    let mut rate_limited = 0u32;
    'walk: loop {
        let mut pages = client.walk_contacts_complete(ContactFilter::default());
        loop {
            budget.take().await;
            match pages.next().await {
                None => break 'walk,
                Some(Ok(page)) => {
                    if expected.is_none() {
                        expected = page.meta.pages.map(|p| u64::from(p) * page.items.len().max(1) as u64);
                    }
                    report.changed += index.upsert_contacts(&page.items, started)? as u64;
                    seen.extend(page.items.into_iter().map(|c| c.uuid));
                    let now = Progress {
                        done: seen.len() as u64,
                        expected,
                    };
                    index.set_walk_progress(started, now.done, now.expected)?;
                    progress(now);
                }
                // A 429 is the account's shared limit speaking, not a
                // failure: it slows the walk down and has a cap of its own.
                Some(Err(ApiError::RateLimited { retry_after })) if rate_limited < MAX_RATE_LIMITED => {
                    rate_limited += 1;
                    budget.back_off(retry_after);
                    continue 'walk;
                }
                Some(Err(e)) if transient(&e) && report.restarts < MAX_RESTARTS => {
                    report.restarts += 1;
                    budget.pause(Duration::from_millis(500) * report.restarts);
                    continue 'walk;
                }
                Some(Err(e)) => return Err(e.into()),
            }
        }
    }
    report.seen = seen.len() as u64;
    report.removed = index.remove_missing(started, &seen)? as u64;
    index.finish_walk(Utc::now())?;
    Ok(report)
}

/// What an incremental pass did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IncrementalReport {
    /// Requests made (429s the client retried count once).
    pub requests: u32,
    /// Contacts new or changed in the index.
    pub changed: u64,
}

/// Walks GET /contacts from the newest until [`MATCHING_RUN`] pages in a
/// row match the index (or the list ends), storing what changed.
pub async fn incremental_sync(
    client: &Client,
    index: &mut Index,
    budget: &mut Budget,
) -> Result<IncrementalReport, SyncError> {
    let filter = ContactFilter::default();
    let mut guard = CursorGuard::new();
    let mut at = PageRequest::First;
    let mut report = IncrementalReport::default();
    let mut run = 0;
    loop {
        budget.take().await;
        let page = match client.list_contacts(&filter, &at).await {
            Ok(page) => page,
            Err(ApiError::RateLimited { retry_after }) => {
                report.requests += 1;
                budget.back_off(retry_after);
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        report.requests += 1;
        let matches = !page.items.is_empty() && page_matches(index, &page.items)?;
        report.changed += index.upsert_contacts(&page.items, Utc::now())? as u64;
        run = if matches { run + 1 } else { 0 };
        if run >= MATCHING_RUN {
            break;
        }
        match guard.follow(page.meta.next.as_deref())? {
            Some(next) => at = next,
            None => break,
        }
    }
    Ok(report)
}

/// True when the index holds every contact of the page unchanged, and no
/// other contact strictly inside the page's range of activity.
fn page_matches(index: &Index, items: &[Contact]) -> Result<bool, IndexError> {
    for c in items {
        if !index.holds(c)? {
            return Ok(false);
        }
    }
    let (Some(newest), Some(oldest)) = (
        items.iter().filter_map(Contact::last_activity).max(),
        items.iter().filter_map(Contact::last_activity).min(),
    ) else {
        return Ok(true);
    };
    let on_page: HashSet<&str> = items.iter().map(|c| c.uuid.as_str()).collect();
    let inside = index.uuids_between(oldest, newest)?;
    Ok(inside.iter().all(|u| on_page.contains(u.as_str())))
}
