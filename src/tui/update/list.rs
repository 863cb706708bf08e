//! The contact list: paging, prefetch, refresh merge, movement, search.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{load_selected, selection_changed};
use crate::api::{ApiError, Contact, ContactFilter, Page, PageRequest};
use crate::tui::effect::Effect;
use crate::tui::form::fuzzy_filter;
use crate::tui::keymap::Action;
use crate::tui::model::{ContactList, Model, Search, ToastKind};
use crate::tui::msg::{ListFetch, ReqId};

/// Asks for the next batch (the first when nothing is loaded).
pub(crate) fn fetch_next(model: &mut Model, fx: &mut Vec<Effect>) {
    let list = &model.list;
    if list.loading.is_some() || list.exhausted {
        return;
    }
    let at = match (&list.next_cursor, list.contacts.is_empty()) {
        (Some(c), _) => PageRequest::After(c.clone()),
        (None, true) => PageRequest::First,
        (None, false) => return,
    };
    let id = model.next_id();
    model.list.loading = Some(id);
    fx.push(Effect::FetchContacts {
        id,
        generation: model.list.generation,
        fetch: ListFetch::Next,
        filter: model.list.filter.clone(),
        at,
    });
}

pub(crate) fn fetch_refresh(model: &mut Model, fx: &mut Vec<Effect>) {
    if model.list.contacts.is_empty() {
        // Nothing to merge into: a plain first load (or a retry after an error).
        model.list.exhausted = false;
        fetch_next(model, fx);
        return;
    }
    let id = model.next_id();
    model.list.refreshing = Some(id);
    fx.push(Effect::FetchContacts {
        id,
        generation: model.list.generation,
        fetch: ListFetch::Refresh,
        filter: model.list.filter.clone(),
        at: PageRequest::First,
    });
}

/// Prefetches when the selection is within a screen of the end.
pub(crate) fn maybe_prefetch(model: &mut Model, fx: &mut Vec<Effect>) {
    if model.list.contacts.is_empty() {
        return; // the first page is asked for explicitly
    }
    let len = model.list.visible_len();
    let screen = model.list_height().max(1);
    if model.list.selected + screen >= len {
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
    if generation != model.list.generation {
        return; // an old filter's page
    }
    let slot = match fetch {
        ListFetch::Next => &mut model.list.loading,
        ListFetch::Refresh => &mut model.list.refreshing,
    };
    if *slot != Some(id) {
        return; // superseded
    }
    *slot = None;
    let page = match result {
        Ok(p) => p,
        Err(e) => {
            let now = model.now;
            model.list.error = Some(e.to_string());
            model.list.follow_end = false;
            model
                .status
                .push(ToastKind::Error, format!("could not load contacts: {e}"), now);
            return;
        }
    };
    model.list.error = None;
    for c in &page.items {
        model.known.learn(c);
    }
    let had_selection = model.list.selected_uuid();
    match fetch {
        ListFetch::Next => apply_page(&mut model.list, page),
        ListFetch::Refresh => {
            let rang = merge_refresh(model, page);
            if rang && model.session.bell {
                fx.push(Effect::Bell);
            }
        }
    }
    recompute_search(&mut model.list);
    if let Some(uuid) = &had_selection
        && let Some(row) = model.list.row_of(uuid)
    {
        model.list.selected = row;
    }
    if model.list.follow_end {
        model.list.selected = model.list.visible_len().saturating_sub(1);
        if model.list.exhausted {
            model.list.follow_end = false;
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
    maybe_prefetch(model, fx);
}

/// Appends a batch by cursor. Contacts already loaded (a refresh put them at
/// the top) are updated in place, never duplicated.
pub fn apply_page(list: &mut ContactList, page: Page<Contact>) {
    list.next_cursor = page.meta.next.clone();
    list.exhausted = page.meta.next.is_none();
    for c in page.items {
        if let Some(at) = c.last_message_at {
            list.last_seen.entry(c.uuid.clone()).or_insert(at);
        }
        match list.position(&c.uuid) {
            Some(i) => list.contacts[i] = c,
            None => {
                list.uuids.insert(c.uuid.clone());
                list.contacts.push(c);
            }
        }
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
        match list.position(&c.uuid) {
            Some(i) => {
                let old = &list.contacts[i];
                if c.last_message_at > old.last_message_at && old.last_message_at.is_some() {
                    new_message = true;
                }
                list.contacts[i] = c;
            }
            None => {
                new_message = true;
                list.uuids.insert(c.uuid.clone());
                fresh.push(c);
            }
        }
    }
    if !fresh.is_empty() {
        let n = fresh.len();
        list.contacts.splice(0..0, fresh);
        // Keep the window on the same rows.
        if list.search.as_ref().is_none_or(|s| s.query.is_empty()) {
            list.offset += n;
        }
    }
    // The contact on screen is being read: its messages are seen.
    if let Some(uuid) = &selected
        && let Some(c) = list.get(uuid)
        && let Some(at) = c.last_message_at
    {
        list.last_seen.insert(uuid.clone(), at);
    }
    new_message
}

pub(crate) fn move_selection(model: &mut Model, action: Action, fx: &mut Vec<Effect>) {
    let len = model.list.visible_len();
    let screen = model.list_height().max(1);
    let list = &mut model.list;
    let before = list.selected;
    list.follow_end = false;
    list.selected = match action {
        Action::MoveDown => (list.selected + 1).min(len.saturating_sub(1)),
        Action::MoveUp => list.selected.saturating_sub(1),
        Action::Top => 0,
        Action::Bottom => {
            list.follow_end = !list.exhausted;
            len.saturating_sub(1)
        }
        Action::PageDown => (list.selected + screen).min(len.saturating_sub(1)),
        Action::PageUp => list.selected.saturating_sub(screen),
        _ => list.selected,
    };
    list.clamp(screen);
    if list.selected != before {
        selection_changed(model, fx);
    }
    maybe_prefetch(model, fx);
}

/// Selects visible row `index` (a mouse click); past the end does nothing.
pub(crate) fn select(model: &mut Model, index: usize, fx: &mut Vec<Effect>) {
    if index >= model.list.visible_len() {
        return;
    }
    let before = model.list.selected;
    model.list.follow_end = false;
    model.list.selected = index;
    let screen = model.list_height().max(1);
    model.list.clamp(screen);
    if model.list.selected != before {
        selection_changed(model, fx);
    }
    maybe_prefetch(model, fx);
}

pub(crate) fn start_search(model: &mut Model) {
    let search = model.list.search.get_or_insert_with(Search::default);
    search.editing = true;
}

pub(crate) fn search_key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    let selected = model.list.selected_uuid();
    let Some(search) = model.list.search.as_mut() else {
        return;
    };
    match key.code {
        KeyCode::Esc => return clear_search(model, fx),
        KeyCode::Enter => {
            search.editing = false;
            if search.query.is_empty() {
                model.list.search = None;
            }
            return;
        }
        KeyCode::Backspace => {
            search.query.pop();
        }
        KeyCode::Down => return move_selection(model, Action::MoveDown, fx),
        KeyCode::Up => return move_selection(model, Action::MoveUp, fx),
        KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => search.query.push(c),
        _ => return,
    }
    recompute_search(&mut model.list);
    model.list.selected = 0;
    model.list.offset = 0;
    if model.list.selected_uuid() != selected {
        selection_changed(model, fx);
    }
}

/// Recomputes matches after the query or the loaded contacts changed.
pub(crate) fn recompute_search(list: &mut ContactList) {
    let Some(search) = list.search.as_ref() else { return };
    if search.query.is_empty() {
        return;
    }
    let hay: Vec<String> = list.contacts.iter().map(ContactList::haystack).collect();
    let matches = fuzzy_filter(&search.query, hay.iter().map(String::as_str));
    if let Some(s) = list.search.as_mut() {
        s.matches = matches;
    }
}

pub(crate) fn clear_search(model: &mut Model, fx: &mut Vec<Effect>) {
    let selected = model.list.selected_uuid();
    model.list.search = None;
    if let Some(uuid) = selected
        && let Some(row) = model.list.row_of(&uuid)
    {
        model.list.selected = row;
    }
    let h = model.list_height();
    model.list.clamp(h);
    let _ = fx;
}

/// A new filter: everything loaded under the old one is dropped, and so is
/// every page of it still on its way (the generation moves on).
pub(crate) fn set_filter(model: &mut Model, filter: ContactFilter, fx: &mut Vec<Effect>) {
    let list = &mut model.list;
    list.filter = filter;
    list.generation += 1;
    list.set_contacts(Vec::new());
    list.next_cursor = None;
    list.exhausted = false;
    list.loading = None;
    list.refreshing = None;
    list.selected = 0;
    list.offset = 0;
    list.follow_end = false;
    list.search = None;
    model.thread = Default::default();
    model.details.full = None;
    fetch_next(model, fx);
}
