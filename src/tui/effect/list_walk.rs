//! The contact list's walk: pages of GET /contacts fetched one after the
//! other by cursor and sent to `update` as they arrive, so a long walk
//! (`G`) goes at the network's pace, not one frame per page: `update`
//! applies whatever pages have queued up, then the loop draws once. The
//! walk has its own [`CursorGuard`], so a server that repeats a cursor
//! cannot keep it going; `update` checks every page against the model's
//! guard as well and stops asking.

use std::future::Future;

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
    pages_from(get, at, pages, |result| {
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

/// Fetches up to `pages` pages from `at`, following `meta.next`, handing
/// each result to `send` (which returns false when nobody listens). Stops
/// at the end, at an error, and at a cursor followed before.
pub async fn pages_from<F, Fut>(
    mut fetch: F,
    mut at: PageRequest,
    pages: u32,
    mut send: impl FnMut(Result<Page<Contact>, ApiError>) -> bool,
) where
    F: FnMut(PageRequest) -> Fut,
    Fut: Future<Output = Result<Page<Contact>, ApiError>>,
{
    let mut guard = CursorGuard::new();
    if let PageRequest::After(c) = &at {
        let _ = guard.follow(Some(c));
    }
    for _ in 0..pages.max(1) {
        let result = fetch(at.clone()).await;
        let next = match &result {
            Ok(page) => guard.follow(page.meta.next.as_deref()).ok().flatten(),
            Err(_) => None,
        };
        if !send(result) {
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
        pages_from(fetch, PageRequest::After("c0".into()), pages, |_| {
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
        let (asked, _) = walk(&[Some("c1"), Some("c1"), Some("c1"), Some("c1")], 100).await;
        assert_eq!(asked.len(), 2, "c1 is not asked for twice");
        let (asked, _) = walk(&[Some("c1"), Some("c0"), Some("c1")], 100).await;
        assert_eq!(asked.len(), 2, "c0 (where the walk began) is not asked again");
    }

    #[tokio::test]
    async fn asks_for_no_more_pages_than_wanted() {
        let (asked, _) = walk(&[Some("c1"), Some("c2"), Some("c3")], 1).await;
        assert_eq!(asked.len(), 1);
    }
}
