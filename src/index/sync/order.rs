//! An incremental pass that reads the list's order rather than times: the
//! service sends no `lastMessageAt`, but lists the most recent
//! conversation first. Every contact with activity since the last pass
//! moved to the top; below them, the contacts without any keep the order
//! they had. So a pass walks from the top until a run of contacts that
//! are listed exactly in the order the index holds them (by activity,
//! skipping those already read) and whose activity the index knows of is
//! older than `since` (the last pass's start: a contact a webhook moved
//! since then is above the ones whose webhooks were lost) is as long as a
//! page: everything above the run is read and stored, however many pages
//! down a lost webhook's contact lies. What a pass costs follows the
//! account's traffic, not the state of the index.
//!
//! A contact that moved while keeping its place among the others that
//! moved (two customers writing in the order they were listed) cannot be
//! told from one that did not; its state is still stored (it was read),
//! and its last message is read when its activity is next learned.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::budget::Budget;
use super::paced::{IncrementalReport, budgeted_page};

use super::error::SyncError;
use crate::api::{Client, ContactFilter, PageRequest, Pager};
use crate::index::{IndexAccess, IndexError};

/// Follows the index's order (newest activity first) past the contacts
/// the walk has already read.
struct Held {
    order: Vec<String>,
    next: usize,
    activity: HashMap<String, DateTime<Utc>>,
}

impl Held {
    fn new(order: Vec<(String, Option<DateTime<Utc>>)>) -> Held {
        let activity = order.iter().filter_map(|(u, a)| Some((u.clone(), (*a)?))).collect();
        Held {
            order: order.into_iter().map(|(u, _)| u).collect(),
            next: 0,
            activity,
        }
    }

    /// True when `uuid` keeps its place in the index's order (see
    /// [`Held::follows`]) and nothing the index learned moved it at or
    /// after `since`.
    fn stayed(&mut self, uuid: &str, read: &HashSet<String>, since: Option<DateTime<Utc>>) -> bool {
        let quiet = match (since, self.activity.get(uuid)) {
            (Some(s), Some(a)) => *a < s,
            _ => true,
        };
        self.follows(uuid, read) && quiet
    }

    /// True when `uuid` is the next contact of the index's order not yet
    /// read by the walk (`read` holds those, `uuid` not yet among them).
    fn follows(&mut self, uuid: &str, read: &HashSet<String>) -> bool {
        while self.order.get(self.next).is_some_and(|u| read.contains(u)) {
            self.next += 1;
        }
        if self.order.get(self.next).is_some_and(|u| u == uuid) {
            self.next += 1;
            true
        } else {
            false
        }
    }
}

/// Walks GET /contacts from the top until a page's worth of contacts in a
/// row is listed in the order the index holds them, none with activity
/// learned at or after `since` (or the list ends),
/// storing every contact it reads, and then raising each read contact's
/// activity above that of every contact listed below it (the list's order
/// is the only activity the service tells), so the conversations that moved
/// want their last message read.
pub async fn incremental_by_order(
    client: &Client,
    index: &mut impl IndexAccess,
    budget: &Budget,
    since: Option<DateTime<Utc>>,
) -> Result<IncrementalReport, SyncError> {
    let mut held = Held::new(index.with(|ix| ix.order_by_activity())?);
    let filter = ContactFilter::default();
    let mut pager = Pager::new();
    let mut at = PageRequest::First;
    let mut report = IncrementalReport::default();
    let mut read: HashSet<String> = HashSet::new();
    let mut walked: Vec<String> = Vec::new();
    let mut run = 0usize;
    let mut first_asked = None;
    loop {
        let (page, asked) = budgeted_page(client, &filter, &at, budget, &mut report).await?;
        first_asked.get_or_insert(asked);
        for c in &page.items {
            run = if held.stayed(&c.uuid, &read, since) { run + 1 } else { 0 };
            read.insert(c.uuid.clone());
            walked.push(c.uuid.clone());
        }
        report.changed += index.with(|ix| -> Result<usize, IndexError> {
            let items = ix.known_activity(&page.items, asked)?;
            ix.upsert_states(&items, Utc::now(), asked)
        })? as u64;
        if page.items.is_empty() || run >= page.items.len() {
            break;
        }
        match pager.next(&at, &page)? {
            Some(next) => at = next,
            None => break,
        }
    }
    if let Some(listed) = first_asked {
        index.with(|ix| ix.settle_order(&walked, listed))?;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(order: &[&str]) -> Held {
        Held::new(order.iter().map(|s| (s.to_string(), None)).collect())
    }

    /// The run each listed contact ends, for a list in `listed` order.
    fn runs(h: &mut Held, listed: &[&str]) -> Vec<usize> {
        let mut read = HashSet::new();
        let mut run = 0;
        listed
            .iter()
            .map(|u| {
                run = if h.follows(u, &read) { run + 1 } else { 0 };
                read.insert(u.to_string());
                run
            })
            .collect()
    }

    #[test]
    fn contacts_that_moved_to_the_top_break_the_run_and_the_rest_keeps_it() {
        let mut h = held(&["a", "b", "c", "d", "e"]);
        assert_eq!(runs(&mut h, &["d", "b", "a", "c", "e"]), vec![0, 0, 1, 2, 3]);
    }

    #[test]
    fn an_unchanged_list_is_one_run_and_a_new_contact_breaks_it() {
        let mut h = held(&["a", "b", "c"]);
        assert_eq!(runs(&mut h, &["a", "b", "c"]), vec![1, 2, 3]);
        let mut h = held(&["a", "b", "c"]);
        assert_eq!(runs(&mut h, &["n", "a", "b", "c"]), vec![0, 1, 2, 3]);
    }

    #[test]
    fn a_contact_a_webhook_moved_since_the_last_pass_does_not_count_as_staying() {
        let at = |m: i64| Some(Utc::now() - chrono::Duration::minutes(m));
        let since = at(10);
        let mut h = Held::new(vec![("a".into(), at(1)), ("b".into(), at(2)), ("c".into(), at(60))]);
        let mut read = HashSet::new();
        let got: Vec<bool> = ["a", "b", "c"]
            .iter()
            .map(|u| {
                let s = h.stayed(u, &read, since);
                read.insert(u.to_string());
                s
            })
            .collect();
        assert_eq!(got, vec![false, false, true]);
    }
}
