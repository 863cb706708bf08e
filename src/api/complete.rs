//! A contact walk that misses nobody under live traffic.
//!
//! Contacts are sorted by latest activity, newest first, so a contact that
//! gets a message during a cursor walk jumps ahead of the cursor and a plain
//! walk never sees it (extensions.md, "Ordering"). The complete walk ends
//! the plain one with top-up passes from the newest contact down to the
//! activity the list had at its top when the pass before started; every
//! contact is yielded once (by uuid). A contact that moves again during a
//! top-up pass is caught by the next one; passes repeat while they find
//! contacts not seen before, up to [`MAX_TOP_UP_PASSES`].

use std::collections::HashSet;

use chrono::{DateTime, Utc};
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
    /// A top-up pass down to `floor` (the list's top activity when the pass
    /// before began); `found`: whether it found anyone new.
    TopUp {
        pages: Pages,
        floor: Option<DateTime<Utc>>,
        found: bool,
    },
    Done,
}

struct Walk {
    client: Client,
    filter: ContactFilter,
    seen: HashSet<String>,
    phase: Phase,
    /// The newest activity on the first page of the current pass.
    top: Option<DateTime<Utc>>,
    first_page: bool,
    passes: u32,
}

impl Walk {
    /// Keeps the contacts not seen before, and notes the pass's top.
    fn fresh(&mut self, items: Vec<Contact>) -> Vec<Contact> {
        if self.first_page {
            self.top = items.iter().filter_map(Contact::last_activity).max();
            self.first_page = false;
        }
        items.into_iter().filter(|c| self.seen.insert(c.uuid.clone())).collect()
    }

    /// Starts the next top-up pass down to the top the last pass began at,
    /// or ends the walk.
    fn next_pass(&mut self, found: bool) {
        let floor = self.top;
        if !found || self.passes >= MAX_TOP_UP_PASSES || floor.is_none() {
            self.phase = Phase::Done;
            return;
        }
        self.passes += 1;
        self.first_page = true;
        self.phase = Phase::TopUp {
            pages: self.client.walk_contacts(self.filter.clone()),
            floor,
            found: false,
        };
    }

    /// The next page of contacts not yielded before (possibly empty).
    async fn step(&mut self) -> Option<Result<Page<Contact>, ApiError>> {
        loop {
            let phase = std::mem::replace(&mut self.phase, Phase::Done);
            match phase {
                Phase::Done => return None,
                Phase::Main(mut pages) => match pages.next().await {
                    Some(Ok(page)) => {
                        self.phase = Phase::Main(pages);
                        let items = self.fresh(page.items);
                        return Some(Ok(Page { items, meta: page.meta }));
                    }
                    Some(Err(e)) => return Some(Err(e)),
                    // The main walk counts as a pass that found contacts.
                    None => self.next_pass(true),
                },
                Phase::TopUp {
                    mut pages,
                    floor,
                    found,
                } => match pages.next().await {
                    Some(Ok(page)) => {
                        let older = |c: &Contact| matches!((c.last_activity(), floor), (Some(t), Some(f)) if t < f);
                        let reached = page.items.iter().any(older);
                        let recent: Vec<Contact> = page.items.into_iter().take_while(|c| !older(c)).collect();
                        let items = self.fresh(recent);
                        let found = found || !items.is_empty();
                        if reached {
                            self.next_pass(found);
                        } else {
                            self.phase = Phase::TopUp { pages, floor, found };
                        }
                        if !items.is_empty() {
                            return Some(Ok(Page { items, meta: page.meta }));
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
        let walk = Walk {
            client: self.clone(),
            phase: Phase::Main(self.walk_contacts(filter.clone())),
            filter,
            seen: HashSet::new(),
            top: None,
            first_page: true,
            passes: 0,
        };
        futures::stream::unfold(
            walk,
            |mut walk| async move { walk.step().await.map(|page| (page, walk)) },
        )
        .boxed()
    }
}
