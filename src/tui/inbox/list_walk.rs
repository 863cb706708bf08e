//! The contact list's walk: pages of GET /contacts fetched one after the
//! other by cursor and sent to `update` as they arrive, so a long walk
//! (`G`) goes at the network's pace, not one frame per page: `update`
//! applies whatever pages have queued up, then the loop draws once. The
//! walk follows `meta.next`, else page numbers ([`Pager`]), so a server
//! that repeats a cursor cannot keep it going; `update` checks every page
//! against the model's guard as well and stops asking.

use std::future::Future;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use super::msg::ListFetch;
use crate::api::{ApiError, Client, Contact, ContactFilter, Page, PageRequest, Pager};
use crate::tui::shared::ReqId;

/// One list request: `pages` pages from `at` (1: a single page).
#[derive(Debug, Clone, PartialEq)]
pub struct Walk {
    pub id: ReqId,
    pub generation: u64,
    pub fetch: ListFetch,
    pub filter: ContactFilter,
    pub at: PageRequest,
    pub pages: u32,
}

/// A page of a walk (or the error that ends it), for `walk.id`.
#[derive(Debug)]
pub struct Loaded {
    pub id: ReqId,
    pub generation: u64,
    pub fetch: ListFetch,
    pub result: Result<Page<Contact>, ApiError>,
}

/// Runs `walk` against the server, sending each page (or the error that
/// ends it) as a [`Loaded`] (the root's `Msg::ContactsLoaded`).
pub async fn run<M: From<Loaded>>(client: Client, tx: UnboundedSender<M>, walk: Walk) {
    let Walk {
        id,
        generation,
        fetch,
        filter,
        at,
        pages,
    } = walk;
    let get = |at: PageRequest| {
        let client = client.clone();
        let filter = filter.clone();
        async move { client.list_contacts(&filter, &at).await }
    };
    // A walk to the end hands its pages over at most about every frame
    // (several merged into one), so the UI draws once per batch.
    let batch = if pages == u32::MAX { BATCH } else { Duration::ZERO };
    pages_from(get, at, pages, batch, |result| {
        if let Err(e) = &result {
            tracing::warn!("list contacts failed: {e}");
        }
        tx.send(M::from(Loaded {
            id,
            generation,
            fetch,
            result,
        }))
        .is_ok()
    })
    .await
}

/// How long a walk to the end gathers pages before handing them over.
pub const BATCH: Duration = Duration::from_millis(16);

/// Fetches up to `pages` pages from `at`, following `meta.next`, handing
/// results to `send` (which returns false when nobody listens): pages that
/// arrive within `batch` of the first one not yet sent go as one page (the
/// items of all, the `meta` of the last). Stops at the end, at an error,
/// and at a cursor followed before.
pub async fn pages_from<F, Fut>(
    mut fetch: F,
    mut at: PageRequest,
    pages: u32,
    batch: Duration,
    mut send: impl FnMut(Result<Page<Contact>, ApiError>) -> bool,
) where
    F: FnMut(PageRequest) -> Fut,
    Fut: Future<Output = Result<Page<Contact>, ApiError>>,
{
    // By `meta.next`, else by page number to an empty page (a server
    // that pages as the public documentation shows).
    let mut pager = Pager::resuming(&at);
    let mut held: Option<(Page<Contact>, tokio::time::Instant)> = None;
    for n in 1..=pages.max(1) {
        let mut result = fetch(at.clone()).await;
        let (next, repeated) = match &mut result {
            Ok(page) => match pager.next(&at, page) {
                Ok(next) => {
                    // The page says which it was and whether it ended the
                    // list, so `update` goes on from it alone.
                    Pager::mark(&at, page, next.as_ref());
                    (next, None)
                }
                Err(e) => (None, Some(e)),
            },
            Err(_) => (None, None),
        };
        let last = next.is_none() || n == pages.max(1);
        let out = match (held.take(), result) {
            (None, Ok(page)) if !last && !batch.is_zero() => {
                held = Some((page, tokio::time::Instant::now()));
                None
            }
            (Some((mut kept, since)), Ok(page)) => {
                kept.items.extend(page.items);
                kept.meta = page.meta;
                if last || since.elapsed() >= batch {
                    Some(Ok(kept))
                } else {
                    held = Some((kept, since));
                    None
                }
            }
            (Some((kept, _)), Err(e)) => {
                // What arrived before the error is not lost.
                if !send(Ok(kept)) {
                    return;
                }
                Some(Err(e))
            }
            (None, result) => Some(result),
        };
        if let Some(out) = out
            && !send(out)
        {
            return;
        }
        if let Some(e) = repeated {
            // Said, so a walk whose cursors were merged away stops too.
            send(Err(e));
            return;
        }
        match next {
            Some(n) => at = n,
            None => return,
        }
    }
}

#[cfg(test)]
mod tests;
