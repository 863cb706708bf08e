//! The last message of each conversation, fetched within the budget.

use super::budget::Budget;
use super::error::SyncError;
use crate::api::{ApiError, Client, ContactId, PageRequest};
use crate::index::{IndexAccess, Preview, Wanted};

/// Fetches the latest page of messages of each contact in `wanted` (uuid
/// and its activity now), one request each within the budget, and keeps
/// it in the index with its preview. A contact gone from the server (404)
/// is skipped; a 429 slows down and tries again; another failure stops
/// the batch, keeping what was fetched. Returns the previews fetched, and
/// the error that stopped it, if any.
pub async fn fetch_previews(
    client: &Client,
    index: &mut impl IndexAccess,
    budget: &Budget,
    wanted: &[Wanted],
) -> (Vec<(String, Preview)>, Option<SyncError>) {
    let mut out = Vec::new();
    // Pages are stored a few at a time, in one transaction: the search
    // table then writes one segment for them, not one each (and merges
    // far less), which halves what a page costs to keep.
    let mut pages: Vec<crate::index::Thread> = Vec::new();
    let mut store = |pages: &mut Vec<crate::index::Thread>, out: &mut Vec<(String, Preview)>| {
        if pages.is_empty() {
            return Ok(());
        }
        index.with(|ix| ix.store_threads(pages))?;
        out.extend(pages.drain(..).map(|(uuid, activity, items)| {
            let p = Preview::of(&items, activity);
            (uuid, p)
        }));
        Ok::<(), SyncError>(())
    };
    let mut i = 0;
    let mut error = None;
    while let Some((uuid, activity)) = wanted.get(i) {
        budget.take().await;
        match client
            .list_messages(&ContactId::from(uuid.as_str()), &PageRequest::First)
            .await
        {
            Ok(page) => {
                // Its newest message is activity the list never says.
                let activity = crate::index::thread_activity(*activity, &page.items);
                pages.push((uuid.clone(), activity, page.items));
            }
            Err(ApiError::RateLimited { retry_after }) => {
                budget.back_off(retry_after);
                continue;
            }
            Err(ApiError::NotFound { .. }) => {}
            Err(e) => {
                error = Some(e.into());
                break;
            }
        }
        i += 1;
        if pages.len() >= STORE_PAGES
            && let Err(e) = store(&mut pages, &mut out)
        {
            return (out, Some(e));
        }
    }
    if let Err(e) = store(&mut pages, &mut out) {
        return (out, Some(e));
    }
    (out, error)
}

/// Pages of last messages stored together.
const STORE_PAGES: usize = 16;
