//! The contact list: the walk (paging, prefetch, top-up), refresh merge,
//! movement. `/` search is in `search.rs`.

use crossterm::event::KeyEvent;

use super::notes::selection_changed;
use super::search;
use super::select::load_selected;
use crate::api::{ApiError, Contact, ContactFilter, Page, PageRequest};
use crate::tui::effect::Effect;
use crate::tui::index_worker::IndexCmd;
use crate::tui::keymap::Action;
use crate::tui::model::contact_list::{PAGE_ROWS, TopUp};
use crate::tui::model::{ContactList, Model, ToastKind};
use crate::tui::msg::{ListFetch, ReqId};

/// Asks for the next batch (the first when nothing is loaded): as many
/// pages as the prefetch distance is short of, and every page to the end
/// after `G`.
pub(crate) fn fetch_next(model: &mut Model, fx: &mut Vec<Effect>) {
    let p = &model.list.paging;
    if p.loading.is_some() || p.exhausted || p.top_up.is_some() {
        return;
    }
    if super::index::backs_list(model) && (model.sync.loading.is_some() || model.sync.complete()) {
        return; // the index has (or is reading) every contact
    }
    let at = match (&p.next_cursor, model.list.store.is_empty()) {
        (Some(c), _) => PageRequest::After(c.clone()),
        (None, true) => PageRequest::First,
        (None, false) => return,
    };
    let pages = if p.follow_end {
        u32::MAX
    } else {
        let ahead = p.prefetch_rows(model.list_height());
        let short = (model.list.view.selected + ahead).saturating_sub(model.list.visible_len());
        short.div_ceil(PAGE_ROWS).clamp(1, 50) as u32
    };
    request(model, at, pages, fx);
}

/// Asks for `pages` pages of the walk from `at`.
fn request(model: &mut Model, at: PageRequest, pages: u32, fx: &mut Vec<Effect>) {
    let id = model.next_id();
    let p = &mut model.list.paging;
    p.loading = Some(id);
    p.coming = pages;
    p.sent_at = Some(model.now);
    fx.push(Effect::FetchContacts {
        id,
        generation: p.generation,
        fetch: ListFetch::Next,
        filter: model.list.filter.clone(),
        at,
        pages,
    });
}

pub(crate) fn fetch_refresh(model: &mut Model, fx: &mut Vec<Effect>) {
    if model.list.store.is_empty() {
        // Nothing to merge into: a plain first load (or a retry after an error).
        model.list.paging.exhausted = false;
        fetch_next(model, fx);
        return;
    }
    let id = model.next_id();
    model.list.paging.refreshing = Some(id);
    fx.push(Effect::FetchContacts {
        id,
        generation: model.list.paging.generation,
        fetch: ListFetch::Refresh,
        filter: model.list.filter.clone(),
        at: PageRequest::First,
        pages: 1,
    });
}

/// Prefetches when the selection is near the end of what is loaded: within
/// a screen, plus what a held key covers during one measured round trip.
pub(crate) fn maybe_prefetch(model: &mut Model, fx: &mut Vec<Effect>) {
    if model.list.store.is_empty() {
        return; // the first page is asked for explicitly
    }
    let len = model.list.visible_len();
    let ahead = model.list.paging.prefetch_rows(model.list_height());
    if model.list.view.selected + ahead >= len || model.list.paging.follow_end {
        fetch_next(model, fx);
    }
}

pub(crate) fn contacts_loaded(
    model: &mut Model,
    id: ReqId,
    generation: u64,
    fetch: ListFetch,
    result: Result<Page<Contact>, ApiError>,
    fx: &mut Vec<Effect>,
) {
    let list = &mut model.list;
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
    let more =
        fetch == ListFetch::Next && list.paging.coming > 1 && result.as_ref().is_ok_and(|p| p.meta.next.is_some());
    if more {
        list.paging.coming -= 1;
    } else {
        *slot = None;
    }
    if fetch == ListFetch::Next {
        list.paging.measured(model.now);
    }
    let page = match result {
        Ok(p) => p,
        Err(e) => return walk_failed(model, &e.to_string()),
    };
    model.list.error = None;
    for c in &page.items {
        model.known.learn(c);
    }
    // Under a filter the rows come from the API: the index still knows
    // their last messages.
    let arrived: Vec<String> = if model.sync.previews.is_empty() {
        Vec::new()
    } else {
        page.items.iter().map(|c| c.uuid.clone()).collect()
    };
    let had_selection = model.list.selected_uuid();
    let mut stop = None;
    match fetch {
        ListFetch::Next if model.list.paging.top_up.is_some() => stop = top_up_page(model, page, fx).err(),
        ListFetch::Next => stop = walk_page(model, page, fx).err(),
        ListFetch::Refresh => {
            let rang = merge_refresh(model, page);
            if rang && model.session.bell {
                fx.push(Effect::Bell);
            }
        }
    }
    for uuid in &arrived {
        super::index::with_last(model, uuid);
    }
    search::recompute_search(model, fx);
    let list = &mut model.list;
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
    let height = model.list_height();
    model.list.clamp(height);
    if had_selection.is_none() && model.thread.contact.is_none() {
        // The first page: show its first contact at once.
        load_selected(model, fx);
    } else if model.list.selected_uuid() != had_selection {
        selection_changed(model, fx);
    }
    match stop {
        Some(e) => walk_failed(model, &e.to_string()),
        None => maybe_prefetch(model, fx),
    }
}

/// The walk stops: the error shows in the list and as a toast.
fn walk_failed(model: &mut Model, e: &str) {
    let now = model.now;
    model.list.paging.loading = None;
    model.list.error = Some(e.to_string());
    model.list.paging.follow_end = false;
    model.list.paging.top_up = None;
    model
        .status
        .push(ToastKind::Error, format!("could not load contacts: {e}"), now);
}

/// A page of the walk: appended; at the end of a walk of several pages the
/// top-up pass starts. A repeated cursor stops the walk for good.
fn walk_page(model: &mut Model, page: Page<Contact>, fx: &mut Vec<Effect>) -> Result<(), ApiError> {
    let p = &mut model.list.paging;
    if p.pages == 0 {
        p.walk_start = page.items.iter().filter_map(Contact::last_activity).max();
    }
    p.pages += 1;
    let next = p.guard.follow(page.meta.next.as_deref());
    apply_page(&mut model.list, page);
    let p = &mut model.list.paging;
    match next {
        Err(e) => {
            p.next_cursor = None;
            Err(e)
        }
        Ok(Some(PageRequest::After(c))) => {
            p.next_cursor = Some(c);
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
            request(model, PageRequest::First, 1, fx);
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
fn top_up_page(model: &mut Model, page: Page<Contact>, fx: &mut Vec<Effect>) -> Result<(), ApiError> {
    let list = &mut model.list;
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
            request(model, at, 1, fx);
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
/// top; returns true when some contact got a new message.
fn merge_refresh(model: &mut Model, page: Page<Contact>) -> bool {
    let selected = model.list.selected_uuid();
    let list = &mut model.list;
    let mut fresh = Vec::new();
    let mut new_message = false;
    for c in page.items {
        if list.pending.contains_key(&c.uuid) {
            continue; // our own write decides this row
        }
        let own = list.brings_own(&c);
        match list.store.by_id(&c.uuid) {
            Some(old) => {
                new_message |= !own && old.new_message_in(&c);
                let uuid = c.uuid.clone();
                list.store.replace(c);
                if own {
                    list.mark_seen(&uuid); // the agent's own message
                }
            }
            None => {
                new_message = true;
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

pub(crate) fn move_selection(model: &mut Model, action: Action, fx: &mut Vec<Effect>) {
    let len = model.list.visible_len();
    let screen = model.list_height().max(1);
    let list = &mut model.list;
    let v = &mut list.view;
    let before = v.selected;
    list.paging.follow_end = false;
    v.selected = match action {
        Action::MoveDown => (v.selected + 1).min(len.saturating_sub(1)),
        Action::MoveUp => v.selected.saturating_sub(1),
        Action::Top => 0,
        Action::Bottom => {
            list.paging.follow_end = !list.paging.exhausted;
            len.saturating_sub(1)
        }
        Action::PageDown => (v.selected + screen).min(len.saturating_sub(1)),
        Action::PageUp => v.selected.saturating_sub(screen),
        _ => v.selected,
    };
    list.clamp(screen);
    if list.view.selected != before {
        selection_changed(model, fx);
    }
    maybe_prefetch(model, fx);
}

/// Selects visible row `index` (a mouse click); past the end does nothing.
pub(crate) fn select(model: &mut Model, index: usize, fx: &mut Vec<Effect>) {
    if index >= model.list.visible_len() {
        return;
    }
    let before = model.list.view.selected;
    model.list.paging.follow_end = false;
    model.list.view.selected = index;
    let screen = model.list_height().max(1);
    model.list.clamp(screen);
    if model.list.view.selected != before {
        selection_changed(model, fx);
    }
    maybe_prefetch(model, fx);
}

pub(crate) fn search_key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    if let Some(motion) = search::key(model, key, fx) {
        move_selection(model, motion, fx);
    }
}

/// A new filter: everything loaded under the old one is dropped, and so is
/// every page of it still on its way (the generation moves on).
pub(crate) fn set_filter(model: &mut Model, filter: ContactFilter, fx: &mut Vec<Effect>) {
    let list = &mut model.list;
    list.filter = filter;
    list.paging.restart();
    list.store.clear();
    list.view = Default::default();
    model.thread = Default::default();
    model.details.full = None;
    if super::index::backs_list(model) {
        // Back to the whole account: read it from the index.
        let generation = model.list.paging.generation;
        model.sync.loading = Some(generation);
        model.sync.load_next = 0;
        fx.push(Effect::Index(IndexCmd::Load { generation, skip: 0 }));
        return;
    }
    fetch_next(model, fx);
}
