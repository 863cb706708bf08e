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

mod identity;
mod order;
mod previews;
mod states;

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures::StreamExt;
use tokio::time::Instant;

use super::{Index, IndexAccess, IndexError};
use crate::api::{ApiError, Client, Contact, ContactFilter, Page, PageRequest, Pager};
pub use identity::{STARTED_OVER, check_account, fingerprint};
pub use order::incremental_by_order;
pub use previews::fetch_previews;
pub use states::{STATES_PER_PASS, learn_states};

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

/// Foreground requests in flight (the agent's own), which background work
/// waits for: the agent's actions always go first. Clones share the count.
#[derive(Debug, Clone, Default)]
pub struct Foreground(Arc<AtomicUsize>);

/// Held while a foreground request runs.
#[derive(Debug)]
pub struct ForegroundGuard(Arc<AtomicUsize>);

impl Foreground {
    /// Marks a foreground request in flight until the guard drops.
    pub fn enter(&self) -> ForegroundGuard {
        self.0.fetch_add(1, Ordering::SeqCst);
        ForegroundGuard(self.0.clone())
    }

    pub fn busy(&self) -> bool {
        self.0.load(Ordering::SeqCst) > 0
    }
}

impl Drop for ForegroundGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Background work waits for foreground requests at most this long before
/// going on anyway (a stuck request must not stop syncing for good).
const FOREGROUND_WAIT: Duration = Duration::from_secs(3);

#[derive(Debug)]
struct Bucket {
    rate: f64,
    /// The pace asked for; 429s lower `rate` to no less than an eighth of it.
    ceiling: f64,
    tokens: f64,
    last: Instant,
    /// No request before this (set by a 429).
    paused_until: Option<Instant>,
}

/// A token bucket: at most `rate` requests per second on average, bursts of
/// up to one second's worth. Clones share one bucket, so every background
/// task of a process spends from the same budget.
#[derive(Debug, Clone)]
pub struct Budget {
    bucket: Arc<Mutex<Bucket>>,
    foreground: Option<Foreground>,
}

impl Budget {
    /// `rate` requests per second; zero, negative or not finite: no limit.
    pub fn new(rate: f64) -> Budget {
        Budget {
            bucket: Arc::new(Mutex::new(Bucket {
                rate,
                ceiling: rate,
                tokens: rate.max(1.0),
                last: Instant::now(),
                paused_until: None,
            })),
            foreground: None,
        }
    }

    /// The same budget, yielding to the requests `foreground` counts.
    pub fn yielding_to(mut self, foreground: Foreground) -> Budget {
        self.foreground = Some(foreground);
        self
    }

    fn bucket(&self) -> std::sync::MutexGuard<'_, Bucket> {
        self.bucket.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until a request may go out, and spends a token on it.
    pub async fn take(&self) {
        if let Some(fg) = &self.foreground {
            let give_up = Instant::now() + FOREGROUND_WAIT;
            while fg.busy() && Instant::now() < give_up {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        loop {
            let wait = {
                let mut b = self.bucket();
                let now = Instant::now();
                match b.paused_until {
                    Some(until) if until > now => Some(until - now),
                    _ => {
                        b.paused_until = None;
                        if b.unlimited() {
                            None
                        } else {
                            let capacity = b.rate.max(1.0);
                            b.tokens = (b.tokens + now.duration_since(b.last).as_secs_f64() * b.rate).min(capacity);
                            b.last = now;
                            if b.tokens >= 1.0 {
                                b.tokens -= 1.0;
                                None
                            } else {
                                Some(Duration::from_secs_f64((1.0 - b.tokens) / b.rate))
                            }
                        }
                    }
                }
            };
            match wait {
                None => return,
                Some(d) => tokio::time::sleep(d).await,
            }
        }
    }

    /// After a 429: no request for `wait` (one second when the server did
    /// not say), and half the pace from now on (never below an eighth of
    /// the asked pace, nor one request every two seconds, so a few 429s
    /// cannot leave a sync crawling).
    pub fn back_off(&self, wait: Option<Duration>) {
        let wait = wait.unwrap_or(Duration::from_secs(1)).min(Duration::from_secs(60));
        let mut b = self.bucket();
        b.paused_until = Some(Instant::now() + wait);
        if !b.unlimited() {
            // Never below an eighth of the asked pace nor one request every
            // two seconds, and never faster than asked.
            let floor = (b.ceiling / 8.0).max(0.5).min(b.ceiling);
            b.rate = (b.rate / 2.0).max(floor);
            b.tokens = b.tokens.min(1.0);
        }
    }

    /// After another passing failure (a 5xx, a timeout): no request for
    /// `wait`, the pace unchanged; only a 429 speaks of the pace.
    pub fn pause(&self, wait: Duration) {
        self.bucket().paused_until = Some(Instant::now() + wait);
    }

    /// The current pace, requests per second (infinite: no limit).
    pub fn rate(&self) -> f64 {
        let b = self.bucket();
        if b.unlimited() { f64::INFINITY } else { b.rate }
    }

    /// How long until the next request may go out after a 429 (`None`: not
    /// paused).
    pub fn paused_for(&self) -> Option<Duration> {
        let b = self.bucket();
        b.paused_until.and_then(|u| u.checked_duration_since(Instant::now()))
    }
}

impl Bucket {
    fn unlimited(&self) -> bool {
        !(self.rate.is_finite() && self.rate > 0.0)
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
    /// The index held another account's data and started over first
    /// (say [`STARTED_OVER`]).
    pub started_over: bool,
}

/// One complete walk of the account into `index`, after checking the
/// index holds this account ([`check_account`]). Failures that may pass
/// (a 429, a 5xx, a timeout, a broken connection) start the walk again,
/// up to [`MAX_RESTARTS`] times; what was stored stays stored. At the end
/// the contacts the service no longer lists are removed.
pub async fn full_sync(
    client: &Client,
    index: &mut impl IndexAccess,
    budget: &Budget,
    progress: &mut dyn FnMut(Progress),
) -> Result<FullReport, SyncError> {
    let mut report = FullReport {
        started_over: check_account(client, index, budget).await?.is_some(),
        ..FullReport::default()
    };
    let started = Utc::now();
    let mut seen: HashSet<String> = HashSet::new();
    // The list's order: the top-up passes' finds above the main walk.
    let mut main: Vec<String>;
    let mut above: Vec<Vec<String>>;
    let mut expected = None;
    let mut rate_limited = 0u32;
    'walk: loop {
        let mut pages = client.walk_contacts_passes(ContactFilter::default());
        (main, above) = (Vec::new(), Vec::new());
        loop {
            budget.take().await;
            // The page shows the contacts as they were when it was asked for.
            let asked = Utc::now();
            match pages.next().await {
                None => break 'walk,
                Some(Ok((page, top_up))) => {
                    let uuids = page.items.iter().map(|c| c.uuid.clone());
                    if top_up {
                        above.push(uuids.collect());
                    } else {
                        main.extend(uuids);
                    }
                    if expected.is_none() {
                        expected = page.meta.pages.map(|p| u64::from(p) * page.items.len().max(1) as u64);
                    }
                    seen.extend(page.items.iter().map(|c| c.uuid.clone()));
                    let now = Progress {
                        done: seen.len() as u64,
                        expected,
                    };
                    report.changed += index.with(|ix| -> Result<u64, IndexError> {
                        let changed = ix.upsert_listed(&page.items, started, asked)? as u64;
                        ix.set_walk_progress(started, now.done, now.expected)?;
                        Ok(changed)
                    })?;
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
    report.removed = index.with(|ix| -> Result<u64, IndexError> {
        let order: Vec<String> = above.into_iter().rev().flatten().chain(main).collect();
        ix.settle_order(&order)?;
        let removed = ix.remove_missing(started, &seen)? as u64;
        ix.finish_walk(Utc::now())?;
        Ok(removed)
    })?;
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
    index: &mut impl IndexAccess,
    budget: &Budget,
) -> Result<IncrementalReport, SyncError> {
    let filter = ContactFilter::default();
    let mut pager = Pager::new();
    let mut at = PageRequest::First;
    let mut report = IncrementalReport::default();
    let mut run = 0;
    loop {
        let (page, asked) = budgeted_page(client, &filter, &at, budget, &mut report).await?;
        let (matches, changed) = index.with(|ix| -> Result<(bool, usize), IndexError> {
            let items = ix.known_activity(&page.items)?;
            let matches = !items.is_empty() && page_matches(ix, &items)?;
            Ok((matches, ix.upsert_states(&items, Utc::now(), asked)?))
        })?;
        report.changed += changed as u64;
        run = if matches { run + 1 } else { 0 };
        if run >= MATCHING_RUN {
            break;
        }
        match pager.next(&at, &page)? {
            Some(next) => at = next,
            None => break,
        }
    }
    Ok(report)
}

/// One page of GET /contacts within the budget (a rate limit backs the
/// budget off and asks again), and when it was asked; every request
/// counted in `report`.
async fn budgeted_page(
    client: &Client,
    filter: &ContactFilter,
    at: &PageRequest,
    budget: &Budget,
    report: &mut IncrementalReport,
) -> Result<(Page<Contact>, DateTime<Utc>), SyncError> {
    loop {
        budget.take().await;
        let asked = Utc::now();
        report.requests += 1;
        match client.list_contacts(filter, at).await {
            Ok(page) => return Ok((page, asked)),
            Err(ApiError::RateLimited { retry_after }) => budget.back_off(retry_after),
            Err(e) => return Err(e.into()),
        }
    }
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
