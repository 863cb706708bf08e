//! Pages, cursors, and streams that walk them.

use std::collections::HashSet;
use std::future::Future;

use futures::StreamExt;
use futures::stream::BoxStream;
use serde::{Deserialize, Deserializer, Serialize};

use super::error::ApiError;

/// `meta` of a list answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// Current page, for page-based requests.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient_u32")]
    pub page: Option<u32>,
    /// Total pages, for page-based requests.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient_u32")]
    pub pages: Option<u32>,
    /// Opaque cursor for the next batch; `None` on the last one.
    #[serde(default, deserialize_with = "lenient_cursor")]
    pub next: Option<String>,
}

/// A page number given as a number or a numeric string (some servers quote
/// them); anything else reads as absent rather than failing the page.
fn lenient_u32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    Ok(match Option::<serde_json::Value>::deserialize(d)? {
        Some(serde_json::Value::Number(n)) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        Some(serde_json::Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    })
}

/// A cursor given as a string (or a number); empty means none.
fn lenient_cursor<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Option::<serde_json::Value>::deserialize(d)? {
        Some(serde_json::Value::String(s)) if !s.is_empty() => Some(s),
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        _ => None,
    })
}

/// One page of a list.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub meta: Meta,
}

/// Where a list request starts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum PageRequest {
    /// The first page (no `page`, no `after`).
    #[default]
    First,
    /// A page number (1-based). Contacts refuse numbers above 500.
    Number(u32),
    /// The batch after this cursor (from `meta.next`).
    After(String),
}

/// The highest page number GET /contacts serves.
pub const MAX_CONTACT_PAGE: u32 = 500;

/// The error a walk ends with when the server hands back a cursor it
/// already gave (a server bug that would otherwise loop forever).
pub const REPEATED_CURSOR: &str = "the server repeated a pagination cursor; stopping the walk";

/// A page-number walk stops here even if the server never says it is done.
pub const MAX_WALK_PAGES: u32 = 10_000;

/// Remembers every cursor a walk has followed, so a server that hands back
/// one it gave before (A→A, or A→B→A) cannot make the walk loop forever.
/// Every cursor walk, in the API layer or in the TUI, goes through one.
#[derive(Debug, Clone, Default)]
pub struct CursorGuard {
    seen: HashSet<String>,
}

impl CursorGuard {
    pub fn new() -> Self {
        Self::default()
    }

    /// The request that follows a page whose `meta.next` is `next`:
    /// `Ok(None)` at the end of the walk, `Ok(Some(After(c)))` to go on, and
    /// `Err(Pagination(REPEATED_CURSOR))` when `c` was followed before.
    pub fn follow(&mut self, next: Option<&str>) -> Result<Option<PageRequest>, ApiError> {
        match next.filter(|c| !c.is_empty()) {
            None => Ok(None),
            Some(c) if !self.seen.insert(c.to_string()) => Err(ApiError::Pagination(REPEATED_CURSOR.into())),
            Some(c) => Ok(Some(PageRequest::After(c.to_string()))),
        }
    }

    /// Forgets every cursor (a new walk from the first page).
    pub fn reset(&mut self) {
        self.seen.clear();
    }
}

/// Follows a list whichever way the server pages it: by `meta.next` when
/// it gives one (the reference's cursors), else by page number (the public
/// documentation shows GET /contacts and GET /contacts/:uuid/messages with
/// `page` only and no `meta`) until an empty page, or `meta.pages` when
/// given. `Ok(None)` only at the list's documented end: a walk that stops
/// any other way ends with an error, so nobody takes it as complete.
#[derive(Debug, Clone, Default)]
pub struct Pager {
    guard: CursorGuard,
}

impl Pager {
    pub fn new() -> Self {
        Self::default()
    }

    /// A walk resumed at `at`: a cursor it starts from counts as followed.
    pub fn resuming(at: &PageRequest) -> Self {
        let mut pager = Self::new();
        if let PageRequest::After(c) = at {
            let _ = pager.guard.follow(Some(c));
        }
        pager
    }

    /// A page numbered walk's next request after `page`, the answer to page
    /// `page.meta.page` (`None` for a cursor page, or a page without its
    /// number): what [`Pager::next`] answers for it, without a cursor
    /// guard (numbers cannot repeat).
    pub fn numbered_next<T>(page: &Page<T>) -> Result<Option<PageRequest>, ApiError> {
        match (page.meta.next.as_deref(), page.meta.page) {
            (None, Some(n)) => Pager::new().next(&PageRequest::Number(n), page),
            _ => Ok(None),
        }
    }

    /// Marks `page`, the answer to `at`, with what a page numbered walk
    /// needs to go on from it alone: its number (`meta.page`, when the
    /// server did not say) and, at the list's end (`next`, this pager's
    /// answer, is `None`), `meta.pages`. A cursor page is left as it is.
    pub fn mark<T>(at: &PageRequest, page: &mut Page<T>, next: Option<&PageRequest>) {
        let n = match at {
            PageRequest::After(_) => return,
            PageRequest::First => 1,
            PageRequest::Number(n) => *n,
        };
        if page.meta.next.is_some() {
            return;
        }
        page.meta.page.get_or_insert(n);
        if next.is_none() {
            page.meta.pages = Some(n);
        }
    }

    /// The request after `page`, the answer to `at`.
    pub fn next<T>(&mut self, at: &PageRequest, page: &Page<T>) -> Result<Option<PageRequest>, ApiError> {
        if let Some(next) = self.guard.follow(page.meta.next.as_deref())? {
            return Ok(Some(next));
        }
        let n = match at {
            // A cursor walk ends where `meta.next` is null.
            PageRequest::After(_) => return Ok(None),
            PageRequest::First => 1,
            PageRequest::Number(n) => *n,
        };
        if let Some(got) = page.meta.page.filter(|&p| n > 1 && p != n) {
            return Err(ApiError::Pagination(format!(
                "the server answered page {got} when asked for page {n}; stopping the walk"
            )));
        }
        let more = match page.meta.pages {
            Some(pages) => n < pages,
            None => !page.items.is_empty(),
        };
        if !more {
            return Ok(None);
        }
        if n >= MAX_WALK_PAGES {
            return Err(ApiError::Pagination(format!(
                "the list did not end within {MAX_WALK_PAGES} pages; stopping the walk"
            )));
        }
        Ok(Some(PageRequest::Number(n + 1)))
    }
}

enum Step<R> {
    Fetch(R),
    Fail(ApiError),
    Done,
}

/// Walks a list paged by cursor or by number (see [`Pager`]):
/// `fetch(First)`, then `fetch(After(next))` while `meta.next` is given,
/// else `fetch(Number(n + 1))` until an empty page (or `meta.pages`). A
/// request error is yielded and ends the walk; a cursor seen before, or a
/// walk that cannot reach its end, yields its page, then an
/// `ApiError::Pagination`, and ends the walk. The stream ends without an
/// error only at the list's end.
pub fn walk_cursor<T, F, Fut>(fetch: F) -> BoxStream<'static, Result<Page<T>, ApiError>>
where
    T: Send + 'static,
    F: FnMut(PageRequest) -> Fut + Send + 'static,
    Fut: Future<Output = Result<Page<T>, ApiError>> + Send + 'static,
{
    let start = (fetch, Pager::new(), Step::Fetch(PageRequest::First));
    futures::stream::unfold(start, |(mut fetch, mut pager, step)| async move {
        match step {
            Step::Done => None,
            Step::Fail(e) => Some((Err(e), (fetch, pager, Step::Done))),
            Step::Fetch(at) => match fetch(at.clone()).await {
                Err(e) => Some((Err(e), (fetch, pager, Step::Done))),
                Ok(page) => {
                    let next = match pager.next(&at, &page) {
                        Ok(None) => Step::Done,
                        Ok(Some(at)) => Step::Fetch(at),
                        Err(e) => Step::Fail(e),
                    };
                    Some((Ok(page), (fetch, pager, next)))
                }
            },
        }
    })
    .boxed()
}

/// Walks a page-numbered list (templates, teams, channels, custom statuses,
/// team members, webhook events) from page 1: continues while
/// `meta.page < meta.pages`. Without `pages`, it continues only while the
/// server echoes the page asked for and pages are not empty (never past
/// [`MAX_WALK_PAGES`]). An answer for another page than the one asked
/// ends the walk with `ApiError::Pagination`.
pub fn walk_numbered<T, F, Fut>(fetch: F) -> BoxStream<'static, Result<Page<T>, ApiError>>
where
    T: Send + 'static,
    F: FnMut(u32) -> Fut + Send + 'static,
    Fut: Future<Output = Result<Page<T>, ApiError>> + Send + 'static,
{
    futures::stream::unfold((fetch, Step::Fetch(1u32)), |(mut fetch, step)| async move {
        match step {
            Step::Done => None,
            Step::Fail(e) => Some((Err(e), (fetch, Step::Done))),
            Step::Fetch(n) => match fetch(n).await {
                Err(e) => Some((Err(e), (fetch, Step::Done))),
                Ok(page) => {
                    if n > 1 && page.meta.page.is_some_and(|p| p != n) {
                        let got = page.meta.page.unwrap_or_default();
                        let e = ApiError::Pagination(format!(
                            "the server answered page {got} when asked for page {n}; stopping the walk"
                        ));
                        return Some((Err(e), (fetch, Step::Done)));
                    }
                    let more = match page.meta.pages {
                        Some(pages) => n < pages,
                        None => page.meta.page == Some(n) && !page.items.is_empty(),
                    };
                    let next = if more && n < MAX_WALK_PAGES {
                        Step::Fetch(n + 1)
                    } else {
                        Step::Done
                    };
                    Some((Ok(page), (fetch, next)))
                }
            },
        }
    })
    .boxed()
}

/// Every item of a walk, in order; the walk's first error ends it. The one
/// way the TUI and the CLI read a whole list (each walk has the cap and the
/// repeated-page guard above).
pub async fn collect_pages<T>(mut pages: BoxStream<'static, Result<Page<T>, ApiError>>) -> Result<Vec<T>, ApiError> {
    let mut all = Vec::new();
    while let Some(page) = pages.next().await {
        all.extend(page?.items);
    }
    Ok(all)
}

#[cfg(test)]
mod tests;
