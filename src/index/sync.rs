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

mod budget;
mod error;
mod identity;
mod order;
mod paced;
mod previews;
mod states;

use std::collections::HashSet;
use std::time::Duration;

use chrono::Utc;
use futures::StreamExt;

use super::db::{Index, IndexAccess};
use super::error::IndexError;
use crate::api::{ApiError, Client, Contact, ContactFilter, PageRequest, Pager};
pub use budget::{Budget, Foreground, ForegroundGuard};
pub use error::SyncError;
pub use identity::{STARTED_OVER, check_account, fingerprint};
pub use order::incremental_by_order;
pub use paced::IncrementalReport;
use paced::budgeted_page;
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
        ix.settle_order(&order, started)?;
        let removed = ix.remove_missing(started, &seen)? as u64;
        ix.finish_walk(Utc::now())?;
        Ok(removed)
    })?;
    Ok(report)
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
            let items = ix.known_activity(&page.items, asked)?;
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
