//! The list's walk: paging, prefetch, the top-up pass after a walk of
//! several pages, and the refreshed first page merged in. `/` search is in
//! `search.rs`, moving the selection in `moves.rs`.

use super::super::fx::{InboxEffect, IndexAsk};
use super::super::list_walk::Walk;
use super::super::msg::ListFetch;
use super::super::state::contact_list::{PAGE_ROWS, TopUp};
use super::super::state::{ContactList, Inbox};
use super::{O, index, search, selection};
use crate::api::{ApiError, Contact, ContactFilter, Page, PageRequest, Pager};
use crate::tui::shared::{Cx, Note, ReqId, ToastKind};

/// Asks for the next batch (the first when nothing is loaded): as many
/// pages as the prefetch distance is short of, and every page to the end
/// after `G`.
pub fn fetch_next(st: &mut Inbox, cx: &Cx, out: &mut O) {
    let p = &st.list.paging;
    if p.loading.is_some() || p.exhausted || p.top_up.is_some() {
        return;
    }
    if index::backs_list(st.list, st.sync) && (st.sync.loading.is_some() || st.sync.complete()) {
        return; // the index has (or is reading) every contact
    }
    let at = match (&p.next_cursor, p.next_page, st.list.store.is_empty()) {
        (Some(c), _, _) => PageRequest::After(c.clone()),
        (None, Some(n), _) => PageRequest::Number(n),
        (None, None, true) => PageRequest::First,
        (None, None, false) => return,
    };
    let pages = if p.follow_end {
        u32::MAX
    } else {
        let ahead = p.prefetch_rows(cx.list_rows());
        let short = (st.list.view.selected + ahead).saturating_sub(st.list.visible_len());
        short.div_ceil(PAGE_ROWS).clamp(1, 50) as u32
    };
    request(st, cx, out, at, pages);
}

/// Asks for `pages` pages of the walk from `at`.
fn request(st: &mut Inbox, cx: &Cx, out: &mut O, at: PageRequest, pages: u32) {
    let id = out.id();
    let p = &mut st.list.paging;
    p.loading = Some(id);
    p.coming = pages;
    p.sent_at = Some(cx.now);
    out.fx(InboxEffect::FetchContacts(Walk {
        id,
        generation: p.generation,
        fetch: ListFetch::Next,
        filter: st.list.filter.clone(),
        at,
        pages,
    }));
}

pub fn fetch_refresh(st: &mut Inbox, cx: &Cx, out: &mut O) {
    if st.list.store.is_empty() {
        // Nothing to merge into: a plain first load (or a retry after an error).
        st.list.paging.exhausted = false;
        fetch_next(st, cx, out);
        return;
    }
    let id = out.id();
    st.list.paging.refreshing = Some(id);
    out.fx(InboxEffect::FetchContacts(Walk {
        id,
        generation: st.list.paging.generation,
        fetch: ListFetch::Refresh,
        filter: st.list.filter.clone(),
        at: PageRequest::First,
        pages: 1,
    }));
}

/// Prefetches when the selection is near the end of what is loaded: within
/// a screen, plus what a held key covers during one measured round trip.
pub fn maybe_prefetch(st: &mut Inbox, cx: &Cx, out: &mut O) {
    if st.list.store.is_empty() {
        return; // the first page is asked for explicitly
    }
    let len = st.list.visible_len();
    let ahead = st.list.paging.prefetch_rows(cx.list_rows());
    if st.list.view.selected + ahead >= len || st.list.paging.follow_end {
        fetch_next(st, cx, out);
    }
}

/// A page of the walk or of the refresh arrived (the contacts it brings
/// are handed back to be learnt).
pub fn contacts_loaded(
    st: &mut Inbox,
    cx: &Cx,
    out: &mut O,
    id: ReqId,
    generation: u64,
    fetch: ListFetch,
    result: Result<Page<Contact>, ApiError>,
) {
    let list = &mut *st.list;
    if generation != list.paging.generation {
        return; // an old filter's page
    }
    let slot = match fetch {
        ListFetch::Next => &mut list.paging.loading,
        ListFetch::Refresh => &mut list.paging.refreshing,
    };
    if *slot != Some(id) {
        return; // superseded
    }
    // A walk of several pages sends them one by one under one id.
    let more = fetch == ListFetch::Next
        && list.paging.coming > 1
        && result
            .as_ref()
            .is_ok_and(|p| p.meta.next.is_some() || matches!(Pager::numbered_next(p), Ok(Some(_))));
    if more {
        list.paging.coming -= 1;
    } else {
        *slot = None;
    }
    if fetch == ListFetch::Next {
        list.paging.measured(cx.now);
    }
    let page = match result {
        Ok(p) => p,
        Err(e) => return walk_failed(st, out, &e.to_string()),
    };
    st.list.error = None;
    for c in &page.items {
        out.note(Note::Learned(Box::new(c.clone())));
    }
    // Under a filter the rows come from the API: the index still knows
    // their last messages.
    let arrived: Vec<String> = if st.sync.previews.is_empty() {
        Vec::new()
    } else {
        page.items.iter().map(|c| c.uuid.clone()).collect()
    };
    let had_selection = st.list.selected_uuid();
    let mut stop = None;
    match fetch {
        ListFetch::Next if st.list.paging.top_up.is_some() => stop = top_up_page(st, cx, out, page).err(),
        ListFetch::Next => stop = walk_page(st, cx, out, page).err(),
        ListFetch::Refresh => {
            let arrived = merge_refresh(st.list, page);
            let rang = !arrived.is_empty();
            for uuid in arrived {
                out.note(Note::Arrived(uuid));
            }
            if rang && cx.session.bell {
                out.note(Note::Bell);
            }
        }
    }
    for uuid in &arrived {
        index::with_last(st.list, st.sync, uuid);
    }
    search::recompute_search(st, out);
    let list = &mut *st.list;
    if let Some(uuid) = &had_selection
        && let Some(row) = list.row_of(uuid)
    {
        list.view.selected = row;
    }
    if list.paging.follow_end {
        list.view.selected = list.visible_len().saturating_sub(1);
        if list.paging.exhausted {
            list.paging.follow_end = false;
        }
    }
    list.clamp(cx.list_rows());
    if had_selection.is_none() && selection::open(cx, out).is_none() {
        // The first page: show its first contact at once.
        selection::show_now(st, out);
    } else if st.list.selected_uuid() != had_selection {
        selection::selection_changed(st, cx, out);
    }
    match stop {
        Some(e) => walk_failed(st, out, &e.to_string()),
        None => maybe_prefetch(st, cx, out),
    }
}

/// The walk stops: the error shows in the list and as a toast.
fn walk_failed(st: &mut Inbox, out: &mut O, e: &str) {
    st.list.paging.loading = None;
    st.list.error = Some(e.to_string());
    st.list.paging.follow_end = false;
    st.list.paging.top_up = None;
    out.toast(ToastKind::Error, format!("could not load contacts: {e}"));
}

/// A page of the walk: appended; at the end of a walk of several pages the
/// top-up pass starts. A repeated cursor stops the walk for good.
fn walk_page(st: &mut Inbox, cx: &Cx, out: &mut O, page: Page<Contact>) -> Result<(), ApiError> {
    let p = &mut st.list.paging;
    if p.pages == 0 {
        p.walk_start = page.items.iter().filter_map(Contact::last_activity).max();
    }
    p.pages += 1;
    // By cursor, else by page number (the walk marked the page's number).
    let next = match page.meta.next {
        Some(_) => p.guard.follow(page.meta.next.as_deref()),
        None => Pager::numbered_next(&page),
    };
    apply_page(st.list, page);
    let p = &mut st.list.paging;
    p.next_page = None;
    match next {
        Err(e) => {
            p.next_cursor = None;
            Err(e)
        }
        Ok(Some(PageRequest::After(c))) => {
            p.next_cursor = Some(c);
            Ok(())
        }
        Ok(Some(PageRequest::Number(n))) => {
            p.next_cursor = None;
            p.next_page = Some(n);
            Ok(())
        }
        Ok(_) if p.pages > 1 && p.walk_start.is_some() => {
            // Contacts that got a message during the walk moved ahead of
            // the cursor: walk again from the newest down to the start.
            p.next_cursor = None;
            p.guard.reset();
            p.top_up = Some(TopUp {
                since: p.walk_start,
                inserted: 0,
            });
            request(st, cx, out, PageRequest::First, 1);
            Ok(())
        }
        Ok(_) => {
            p.next_cursor = None;
            p.exhausted = true;
            Ok(())
        }
    }
}

/// A page of the top-up pass: new contacts go on top (in order), known
/// ones are updated in place. Ends at a contact older than the walk's
/// start, or at the end of the list.
fn top_up_page(st: &mut Inbox, cx: &Cx, out: &mut O, page: Page<Contact>) -> Result<(), ApiError> {
    let list = &mut *st.list;
    let Some(mut top) = list.paging.top_up.take() else {
        return Ok(());
    };
    let reached = page
        .items
        .iter()
        .any(|c| matches!((c.last_activity(), top.since), (Some(a), Some(s)) if a < s));
    let next = list.paging.guard.follow(page.meta.next.as_deref());
    let mut fresh = Vec::new();
    for c in page.items {
        if list.pending.contains_key(&c.uuid) {
            continue; // our own write decides this row
        }
        if list.store.position(&c.uuid).is_some() {
            list.store.replace(c);
        } else {
            fresh.push(c);
        }
    }
    let n = fresh.len();
    if n > 0 {
        let matched = list.matched_contacts();
        list.store.insert(top.inserted, fresh);
        list.rematch(matched);
        top.inserted += n;
        if list.view.shows_store() && list.view.offset > 0 {
            list.view.offset += n;
        }
    }
    match next? {
        Some(at) if !reached => {
            list.paging.top_up = Some(top);
            request(st, cx, out, at, 1);
        }
        _ => list.paging.exhausted = true,
    }
    Ok(())
}

/// Appends a batch by cursor. Contacts already loaded (a refresh put them at
/// the top) are updated in place, never duplicated.
pub fn apply_page(list: &mut ContactList, page: Page<Contact>) {
    for c in page.items {
        list.store.push(c);
    }
}

/// Merges a refreshed first page: changed contacts in place, new ones on
/// top; returns the contacts that got a new message.
fn merge_refresh(list: &mut ContactList, page: Page<Contact>) -> Vec<String> {
    let selected = list.selected_uuid();
    let mut fresh = Vec::new();
    let mut new_message = Vec::new();
    for c in page.items {
        if list.pending.contains_key(&c.uuid) {
            continue; // our own write decides this row
        }
        let own = list.brings_own(&c);
        match list.store.by_id(&c.uuid) {
            Some(old) => {
                if !own && old.new_message_in(&c) {
                    new_message.push(c.uuid.clone());
                }
                let uuid = c.uuid.clone();
                list.store.replace(c);
                if own {
                    list.mark_seen(&uuid); // the agent's own message
                }
            }
            None => {
                new_message.push(c.uuid.clone());
                fresh.push(c);
            }
        }
    }
    if !fresh.is_empty() {
        let n = fresh.len();
        let matched = list.matched_contacts();
        list.store.insert(0, fresh);
        list.rematch(matched);
        // Keep the window on the same rows.
        if list.view.shows_store() {
            list.view.offset += n;
        }
    }
    // The contact on screen is being read: its messages are seen.
    if let Some(uuid) = &selected {
        list.mark_seen(uuid);
    }
    new_message
}

/// A new filter: everything loaded under the old one is dropped, and so is
/// every page of it still on its way (the generation moves on). The root
/// closes the thread and details that showed.
pub fn set_filter(st: &mut Inbox, cx: &Cx, out: &mut O, filter: ContactFilter) {
    let list = &mut *st.list;
    list.filter = filter;
    list.paging.restart();
    list.store.clear();
    list.view = Default::default();
    if index::backs_list(st.list, st.sync) {
        // Back to the whole account: read it from the index.
        let generation = st.list.paging.generation;
        st.sync.loading = Some(generation);
        st.sync.load_next = 0;
        out.fx(InboxEffect::Index(IndexAsk::Load { generation, skip: 0 }));
        return;
    }
    fetch_next(st, cx, out);
}
