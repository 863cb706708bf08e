//! A contact walk that misses nobody under live traffic.
//!
//! Contacts are sorted by latest activity, newest first, so a contact that
//! gets a message during a cursor walk jumps ahead of the cursor and a plain
//! walk never sees it (extensions.md, "Ordering"). The complete walk ends
//! the plain one with top-up passes from the newest contact down to where
//! the list is as the passes before saw it: the service sends no activity
//! (no `lastMessageAt`), so that place is found by order, not by time. The
//! contacts that moved since a pass began sit above all the others; below
//! them the list keeps the order the walk met it in. A top-up pass ends at
//! the first page whose contacts were all met before, in the order they
//! were met. Every contact is yielded once (by uuid). A contact that moves
//! again during a top-up pass is caught by the next one; passes repeat
//! while they find contacts not seen before, up to [`MAX_TOP_UP_PASSES`].

use std::collections::HashMap;

use futures::StreamExt;
use futures::stream::BoxStream;

use super::client::Client;
use super::error::ApiError;
use super::model::Contact;
use super::page::Page;
use super::request::ContactFilter;

/// Top-up passes after the main walk, at most.
pub const MAX_TOP_UP_PASSES: u32 = 50;

type Pages = BoxStream<'static, Result<Page<Contact>, ApiError>>;

enum Phase {
    /// The plain walk.
    Main(Pages),
    /// A top-up pass; `found`: whether it found anyone new.
    TopUp {
        pages: Pages,
        found: bool,
    },
    Done,
}

struct Walk {
    client: Client,
    filter: ContactFilter,
    /// Each contact met, and where: the order the walk met them in.
    seen: HashMap<String, usize>,
    phase: Phase,
    passes: u32,
    /// Pages of the main walk with contacts on them.
    main_pages: u32,
}

impl Walk {
    /// Keeps the contacts not seen before.
    fn fresh(&mut self, items: Vec<Contact>) -> Vec<Contact> {
        items
            .into_iter()
            .filter(|c| {
                let next = self.seen.len();
                match self.seen.entry(c.uuid.clone()) {
                    std::collections::hash_map::Entry::Occupied(_) => false,
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(next);
                        true
                    }
                }
            })
            .collect()
    }

    /// True when every contact of `page` was met before, in the order it
    /// was met: the part of the list nothing moved in since.
    fn settled(&self, page: &[Contact]) -> bool {
        let mut last = None;
        for c in page {
            match self.seen.get(&c.uuid) {
                Some(&at) if last.is_none_or(|l| at > l) => last = Some(at),
                _ => return false,
            }
        }
        !page.is_empty()
    }

    /// Starts the next top-up pass, or ends the walk.
    fn next_pass(&mut self, found: bool) {
        if !found || self.passes >= MAX_TOP_UP_PASSES {
            self.phase = Phase::Done;
            return;
        }
        self.passes += 1;
        self.phase = Phase::TopUp {
            pages: self.client.walk_contacts(self.filter.clone()),
            found: false,
        };
    }

    /// The next page of contacts not yielded before (possibly empty).
    /// The next page, and whether a top-up pass found it (its contacts
    /// then sit above every contact the walk met before).
    async fn step(&mut self) -> Option<Result<(Page<Contact>, bool), ApiError>> {
        loop {
            let phase = std::mem::replace(&mut self.phase, Phase::Done);
            match phase {
                Phase::Done => return None,
                Phase::Main(mut pages) => match pages.next().await {
                    Some(Ok(page)) => {
                        self.phase = Phase::Main(pages);
                        self.main_pages += u32::from(!page.items.is_empty());
                        let items = self.fresh(page.items);
                        return Some(Ok((Page { items, meta: page.meta }, false)));
                    }
                    Some(Err(e)) => return Some(Err(e)),
                    // The main walk counts as a pass that found contacts,
                    // unless one page held them all: one answer is one
                    // moment, where nobody can move past the walk.
                    None => self.next_pass(self.main_pages > 1),
                },
                Phase::TopUp { mut pages, found } => match pages.next().await {
                    Some(Ok(page)) => {
                        let reached = self.settled(&page.items);
                        let items = self.fresh(page.items);
                        let found = found || !items.is_empty();
                        if reached {
                            self.next_pass(found);
                        } else {
                            self.phase = Phase::TopUp { pages, found };
                        }
                        if !items.is_empty() {
                            return Some(Ok((Page { items, meta: page.meta }, true)));
                        }
                    }
                    Some(Err(e)) => return Some(Err(e)),
                    None => self.next_pass(found),
                },
            }
        }
    }
}

impl Client {
    /// Walks GET /contacts like [`Client::walk_contacts`], then tops up
    /// (see the module's notes) so that every contact that existed when the
    /// walk started is yielded exactly once, even while messages move
    /// contacts to the top. Pages hold only contacts not yielded before.
    pub fn walk_contacts_complete(&self, filter: ContactFilter) -> Pages {
        self.walk_contacts_passes(filter)
            .map(|step| step.map(|(page, _)| page))
            .boxed()
    }

    /// [`Client::walk_contacts_complete`], each page with whether a top-up
    /// pass found it: the order of the list is then the top-up pages (the
    /// later passes' first) above the main walk's.
    pub fn walk_contacts_passes(
        &self,
        filter: ContactFilter,
    ) -> BoxStream<'static, Result<(Page<Contact>, bool), ApiError>> {
        let walk = Walk {
            client: self.clone(),
            phase: Phase::Main(self.walk_contacts(filter.clone())),
            filter,
            seen: HashMap::new(),
            passes: 0,
            main_pages: 0,
        };
        futures::stream::unfold(
            walk,
            |mut walk| async move { walk.step().await.map(|page| (page, walk)) },
        )
        .boxed()
    }
}
