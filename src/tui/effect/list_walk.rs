//! The contact list's walk: pages of GET /contacts fetched one after the
//! other by cursor and sent to `update` as they arrive, so a long walk
//! (`G`) goes at the network's pace, not one frame per page: `update`
//! applies whatever pages have queued up, then the loop draws once. The
//! walk has its own [`CursorGuard`], so a server that repeats a cursor
//! cannot keep it going; `update` checks every page against the model's
//! guard as well and stops asking.

use std::future::Future;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use crate::api::{ApiError, Client, Contact, ContactFilter, CursorGuard, Page, PageRequest};
use crate::tui::msg::{ListFetch, Msg, ReqId};

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

/// Runs `walk` against the server, sending each page (or the error that
/// ends it) as `Msg::ContactsLoaded`.
pub async fn run(client: Client, tx: UnboundedSender<Msg>, walk: Walk) {
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
        tx.send(Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result,
        })
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
    let mut guard = CursorGuard::new();
    if let PageRequest::After(c) = &at {
        let _ = guard.follow(Some(c));
    }
    let mut held: Option<(Page<Contact>, tokio::time::Instant)> = None;
    for n in 1..=pages.max(1) {
        let result = fetch(at.clone()).await;
        let (next, repeated) = match &result {
            Ok(page) => match guard.follow(page.meta.next.as_deref()) {
                Ok(next) => (next, None),
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
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::tui::fixtures::{contacts, page};

    /// Serves pages whose `next` cursors are `nexts`, in turn; records asks.
    async fn walk(nexts: &[Option<&str>], pages: u32) -> (Vec<PageRequest>, usize) {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let nexts: Vec<Option<String>> = nexts.iter().map(|n| n.map(str::to_string)).collect();
        let log = asked.clone();
        let fetch = move |at: PageRequest| {
            let mut log = log.lock().unwrap();
            let n = log.len();
            log.push(at);
            let next = nexts.get(n).cloned().flatten();
            async move { Ok(page(contacts(n * 20..n * 20 + 20), next.as_deref())) }
        };
        let mut sent = 0;
        pages_from(fetch, PageRequest::After("c0".into()), pages, Duration::ZERO, |_| {
            sent += 1;
            true
        })
        .await;
        let asked = asked.lock().unwrap().clone();
        (asked, sent)
    }

    #[tokio::test]
    async fn follows_cursors_to_the_end() {
        let (asked, sent) = walk(&[Some("c1"), Some("c2"), None], 100).await;
        assert_eq!(asked.len(), 3);
        assert_eq!(asked[2], PageRequest::After("c2".into()));
        assert_eq!(sent, 3);
    }

    #[tokio::test]
    async fn stops_at_a_repeated_cursor_and_a_cycle() {
        let (asked, sent) = walk(&[Some("c1"), Some("c1"), Some("c1"), Some("c1")], 100).await;
        assert_eq!(asked.len(), 2, "c1 is not asked for twice");
        assert_eq!(sent, 3, "two pages, then the error");
        let (asked, _) = walk(&[Some("c1"), Some("c0"), Some("c1")], 100).await;
        assert_eq!(asked.len(), 2, "c0 (where the walk began) is not asked again");
    }

    #[tokio::test]
    async fn a_batched_walk_hands_over_all_items_with_the_last_cursor() {
        let nexts = [Some("c1"), Some("c2"), None];
        let mut n = 0;
        let fetch = |_at: PageRequest| {
            let next = nexts[n];
            n += 1;
            let items = contacts((n - 1) * 20..n * 20);
            async move { Ok(page(items, next)) }
        };
        let mut got = Vec::new();
        pages_from(
            fetch,
            PageRequest::After("c0".into()),
            u32::MAX,
            Duration::from_secs(60),
            |r| {
                got.push(r.unwrap());
                true
            },
        )
        .await;
        assert_eq!(got.len(), 1, "one hand-over within the batch time");
        assert_eq!(got[0].items.len(), 60);
        assert_eq!(got[0].meta.next, None);
    }

    #[tokio::test]
    async fn asks_for_no_more_pages_than_wanted() {
        let (asked, _) = walk(&[Some("c1"), Some("c2"), Some("c3")], 1).await;
        assert_eq!(asked.len(), 1);
    }
}
