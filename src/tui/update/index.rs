//! The local index behind the list: contacts read from it, changes a sync
//! brought in, last messages, freshness; and what the list asks of it.

use super::notes::selection_changed;
use super::search;
use super::select::load_selected;
use crate::index::Changes;
use crate::tui::effect::Effect;
use crate::tui::index_worker::IndexCmd;
use crate::tui::model::{Model, ToastKind};
use crate::tui::msg::index::IndexMsg;

/// Rows past the window whose last messages are fetched ahead, in
/// screens.
const AHEAD_SCREENS: usize = 1;

pub(crate) fn on_msg(model: &mut Model, msg: IndexMsg, fx: &mut Vec<Effect>) {
    match msg {
        IndexMsg::Loaded {
            generation,
            contacts,
            done,
        } => loaded(model, generation, contacts, done, fx),
        IndexMsg::Changed(changes) => changed(model, changes, fx),
        IndexMsg::Previews(previews) => {
            for (uuid, p) in previews {
                model.list.store.set_last(&uuid, (&p).into());
                model.sync.previews.insert(uuid, p);
            }
            model.sync.previews_version += 1;
        }
        IndexMsg::Status(status) => {
            model.sync.status = Some(status);
            whole_when_complete(model);
        }
        IndexMsg::Problem(text) => {
            let now = model.now;
            model.status.push(ToastKind::Error, text, now);
        }
        IndexMsg::Notice(text) => {
            let now = model.now;
            model.status.push(ToastKind::Info, text, now);
        }
        IndexMsg::SearchBusy(busy) => model.sync.index_busy = busy,
    }
}

/// The list is the whole account once a walk has completed and every
/// contact of the index is read: no page of the API walk is needed.
fn whole_when_complete(model: &mut Model) {
    if model.sync.complete() && model.sync.loading.is_none() && model.list.filter.is_empty() {
        let p = &mut model.list.paging;
        p.exhausted = true;
        p.next_cursor = None;
        p.follow_end = false;
    }
}

/// True when the list shows the index (no API filter in force).
pub(crate) fn backs_list(model: &Model) -> bool {
    model.sync.enabled() && model.list.filter.is_empty()
}

fn loaded(model: &mut Model, generation: u64, contacts: Vec<crate::api::Contact>, done: bool, fx: &mut Vec<Effect>) {
    if model.sync.loading != Some(generation) || generation != model.list.paging.generation {
        return; // a filter came in between
    }
    let selected = model.list.selected_uuid();
    model.sync.load_next += contacts.len();
    if !done {
        fx.push(Effect::Index(IndexCmd::Load {
            generation,
            skip: model.sync.load_next,
        }));
    }
    for c in contacts {
        model.known.learn(&c);
        let uuid = c.uuid.clone();
        model.list.store.push(c);
        with_last(model, &uuid);
    }
    if done {
        model.sync.loading = None;
        model.list.store.shrink_to_fit();
        fx.push(Effect::ReleaseMemory);
        whole_when_complete(model);
    }
    search::recompute_search(model, fx);
    if let Some(uuid) = &selected
        && let Some(row) = model.list.row_of(uuid)
    {
        model.list.view.selected = row;
    }
    let h = model.list_height();
    model.list.clamp(h);
    if selected.is_none() && model.thread.contact.is_none() {
        load_selected(model, fx);
    }
}

/// A row (new, or new again) gets its last message when the index has it.
pub(crate) fn with_last(model: &mut Model, uuid: &str) {
    if let Some(p) = model.sync.previews.get(uuid) {
        model.list.store.set_last(uuid, p.into());
    }
}

/// A sync pass (or a stored write) changed these contacts: each goes where
/// its activity puts it, removed ones go, and the selection stays on its
/// contact. A contact with a write of ours in flight keeps our version.
fn changed(model: &mut Model, changes: Changes, fx: &mut Vec<Effect>) {
    if !model.list.filter.is_empty() {
        return; // the list shows the API's filtered walk
    }
    let selected = model.list.selected_uuid();
    let offset_uuid = model
        .list
        .view
        .shows_store()
        .then_some(model.list.view.offset)
        .filter(|&o| o > 0)
        .and_then(|o| model.list.store.get(o).map(|r| r.uuid.to_string()));
    let mut rang = false;
    let mut open_moved = false;
    let matched = model.list.matched_contacts();
    for c in changes.upserted {
        if model.list.pending.contains_key(&c.uuid) {
            continue;
        }
        model.known.learn(&c);
        let own = model.list.brings_own(&c);
        if !own
            && model
                .list
                .store
                .by_id(&c.uuid)
                .is_some_and(|old| old.new_message_in(&c))
        {
            rang = true;
            open_moved |= model.thread.contact.as_deref() == Some(c.uuid.as_str());
        }
        let uuid = c.uuid.clone();
        model.list.store.upsert_sorted(c);
        if own {
            model.list.mark_seen(&uuid); // the agent's own message
        }
        with_last(model, &uuid);
    }
    for uuid in &changes.removed {
        model.list.store.remove(uuid);
        model.sync.previews.remove(uuid);
        model.sync.previews_version += 1;
    }
    let list = &mut model.list;
    list.rematch(matched);
    if let Some(uuid) = &offset_uuid
        && let Some(row) = list.row_of(uuid)
    {
        list.view.offset = row;
    }
    if let Some(uuid) = &selected {
        if let Some(row) = list.row_of(uuid) {
            list.view.selected = row;
        }
        // The contact on screen is being read: its messages are seen.
        list.mark_seen(uuid);
    }
    if rang && model.session.bell {
        fx.push(Effect::Bell);
    }
    if open_moved {
        super::call::call!(model, fx, thread, Effect::Thread, |st, _cx, out| {
            crate::tui::thread::fetch_refresh(st, out)
        });
    }
    search::recompute_search(model, fx);
    let h = model.list_height();
    model.list.clamp(h);
    if model.list.selected_uuid() != selected {
        if selected.is_none() && model.thread.contact.is_none() {
            load_selected(model, fx);
        } else {
            selection_changed(model, fx);
        }
    }
}

/// True when the open conversation's new messages are seen by the sync
/// passes (its contact is listed with a `lastMessageAt`), so its thread
/// need not be polled.
pub(crate) fn open_thread_followed(model: &Model) -> bool {
    model
        .thread
        .contact
        .as_deref()
        .and_then(|u| model.list.get(u))
        .is_some_and(|r| r.last_message_at.is_some())
}

/// Asks the worker for the last messages of the rows on screen and the
/// next screen that have none, or one fetched before the contact moved.
pub(crate) fn want_previews(model: &mut Model, fx: &mut Vec<Effect>) {
    if !model.sync.enabled() {
        return;
    }
    let height = model.list_height().max(1);
    let from = model.list.view.offset;
    let to = (from + height * (1 + AHEAD_SCREENS)).min(model.list.visible_len());
    let mut wanted = Vec::new();
    for r in from..to {
        let Some(row) = model.list.row(r) else { break };
        let activity = row.last_activity();
        let uuid: &str = &row.uuid;
        if model.sync.previews.get(uuid).is_some_and(|p| p.activity == activity) {
            continue;
        }
        if model.sync.asked.get(uuid) == Some(&activity) {
            continue;
        }
        wanted.push((uuid.to_string(), activity));
    }
    if wanted.is_empty() {
        return;
    }
    for (u, a) in &wanted {
        model.sync.asked.insert(u.clone(), *a);
    }
    fx.push(Effect::Index(IndexCmd::Previews(wanted)));
}
