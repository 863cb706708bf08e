//! The local index behind the list: contacts read from it, changes a sync
//! brought in, last messages, freshness; and what the list asks of it.

use super::super::fx::{InboxEffect, IndexAsk};
use super::super::state::contact_list::Upserted;
use super::super::state::{ContactList, Inbox, SyncStatus, SyncView};
use super::{O, search, selection};
use crate::api::Contact;
use crate::index::{Changes, Preview};
use crate::tui::shared::{Cx, Note};

/// Rows past the window whose last messages are fetched ahead, in
/// screens.
const AHEAD_SCREENS: usize = 1;

/// True when the list shows the index (no API filter in force).
pub fn backs_list(list: &ContactList, sync: &SyncView) -> bool {
    sync.enabled() && list.filter.is_empty()
}

/// The last messages the worker read.
pub fn previews(list: &mut ContactList, sync: &mut SyncView, previews: Vec<(String, Preview)>) {
    for (uuid, p) in previews {
        list.store.set_last(&uuid, (&p).into());
        sync.previews.insert(uuid, p);
    }
    sync.previews_version += 1;
}

/// Runs the search on screen again (the index it could not read, or read
/// in part, is whole now).
pub fn search_again(st: &mut Inbox, out: &mut O) {
    search::recompute_search(st, out);
}

/// How fresh the index is now.
pub fn status(list: &mut ContactList, sync: &mut SyncView, status: SyncStatus) {
    sync.status = Some(status);
    whole_when_complete(list, sync);
}

/// The list is the whole account once a walk has completed and every
/// contact of the index is read: no page of the API walk is needed.
fn whole_when_complete(list: &mut ContactList, sync: &SyncView) {
    if sync.complete() && sync.loading.is_none() && list.filter.is_empty() {
        let p = &mut list.paging;
        p.exhausted = true;
        p.next_cursor = None;
        p.follow_end = false;
    }
}

/// A batch of contacts read from the index (`done`: the last one).
pub fn loaded(st: &mut Inbox, cx: &Cx, out: &mut O, generation: u64, contacts: Vec<Contact>, done: bool) {
    if st.sync.loading != Some(generation) || generation != st.list.paging.generation {
        return; // a filter came in between
    }
    let selected = st.list.selected_uuid();
    st.sync.load_next += contacts.len();
    if !done {
        out.fx(InboxEffect::Index(IndexAsk::Load {
            generation,
            skip: st.sync.load_next,
        }));
    }
    for c in contacts {
        out.note(Note::Learned(Box::new(c.clone())));
        let uuid = c.uuid.clone();
        st.list.store.push(c);
        with_last(st.list, st.sync, &uuid);
    }
    if done {
        st.sync.loading = None;
        st.list.store.shrink_to_fit();
        out.fx(InboxEffect::ReleaseMemory);
        whole_when_complete(st.list, st.sync);
    }
    search::recompute_search(st, out);
    if let Some(uuid) = &selected
        && let Some(row) = st.list.row_of(uuid)
    {
        st.list.view.selected = row;
    }
    st.list.clamp(cx.list_rows());
    if selected.is_none() && selection::open(cx, out).is_none() {
        selection::show_now(st, out);
    }
}

/// A row (new, or new again) gets its last message when the index has it.
pub fn with_last(list: &mut ContactList, sync: &SyncView, uuid: &str) {
    if let Some(p) = sync.previews.get(uuid) {
        list.store.set_last(uuid, p.into());
    }
}

/// A sync pass (or a stored write) changed these contacts: each goes where
/// its activity puts it, removed ones go, and the selection stays on its
/// contact. A contact with a write of ours in flight keeps our version.
/// True when the open conversation got a new message (its thread is
/// fetched again).
pub fn changed(st: &mut Inbox, cx: &Cx, out: &mut O, changes: Changes) -> bool {
    if !st.list.filter.is_empty() {
        return false; // the list shows the API's filtered walk
    }
    let selected = st.list.selected_uuid();
    let offset_uuid = st
        .list
        .view
        .shows_store()
        .then_some(st.list.view.offset)
        .filter(|&o| o > 0)
        .and_then(|o| st.list.store.get(o).map(|r| r.uuid.to_string()));
    let mut rang = false;
    let mut open_moved = false;
    let mut arrived = Vec::new();
    let mut changed_here: Vec<String> = Vec::new();
    let matched = st.list.matched_contacts();
    for c in changes.upserted {
        if st.list.pending.contains_key(&c.uuid) {
            continue;
        }
        out.note(Note::Learned(Box::new(c.clone())));
        assigned_to_me(st, out, &c);
        let own = st.list.brings_own(&c);
        if !own && st.list.store.by_id(&c.uuid).is_some_and(|old| old.new_message_in(&c)) {
            rang = true;
            out.note(Note::Arrived(c.uuid.clone()));
            open_moved |= cx.open == Some(c.uuid.as_str());
        }
        let uuid = c.uuid.clone();
        changed_here.push(uuid.clone());
        if !matches!(st.list.store.upsert_sorted(c), Upserted::InPlace(_)) {
            arrived.push(uuid.clone());
        }
        if own {
            st.list.mark_seen(&uuid); // the agent's own message
        }
        with_last(st.list, st.sync, &uuid);
    }
    // Someone else's change took the contact being read out of the view:
    // it stays under the cursor, marked, until the agent moves.
    if selected.as_ref().is_some_and(|s| changed_here.contains(s)) {
        super::views::keep_moved(st, cx);
    }
    for uuid in &changes.removed {
        st.list.store.remove(uuid);
        st.sync.previews.remove(uuid);
        st.sync.previews_version += 1;
    }
    let list = &mut *st.list;
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
    if rang && cx.session.bell {
        out.note(Note::Bell);
    }
    search::recompute_search(st, out);
    st.list.clamp(cx.list_rows());
    st.list.note_new_above(&arrived);
    if st.list.selected_uuid() != selected {
        if selected.is_none() && selection::open(cx, out).is_none() {
            selection::show_now(st, out);
        } else {
            selection::selection_changed(st, cx, out);
        }
    }
    open_moved
}

/// A colleague or a rule gave this agent `c` (it was someone else's or
/// nobody's as the list had it): "assigned to you" in the status bar.
fn assigned_to_me(st: &Inbox, out: &mut O, c: &Contact) {
    let Some(me) = st.views.me.as_deref() else { return };
    let is_me = |a: Option<&str>| a.is_some_and(|a| a.trim().eq_ignore_ascii_case(me));
    let Some(old) = st.list.store.by_id(&c.uuid) else {
        return;
    };
    if is_me(c.assigned_user.as_deref()) && !is_me(old.assigned_user.as_deref()) {
        out.note(Note::Toast {
            kind: crate::tui::shared::ToastKind::Info,
            text: format!("assigned to you: {}", crate::text::sanitize_line(&c.name)),
            secs: None,
        });
    }
}

/// True when the open conversation's new messages are seen by the sync
/// passes (its contact is listed with a `lastMessageAt`), so its thread
/// need not be polled.
pub fn open_thread_followed(list: &ContactList, open: Option<&str>) -> bool {
    open.and_then(|u| list.get(u)).is_some_and(|r| r.activity_at.is_some())
}

/// Asks the worker for the last messages of the rows on screen and the
/// next screen that have none, or one fetched before the contact moved.
pub fn want_previews(st: &mut Inbox, cx: &Cx, out: &mut O) {
    if !st.sync.enabled() {
        return;
    }
    let height = cx.list_rows().max(1);
    let from = st.list.view.offset;
    let to = (from + height * (1 + AHEAD_SCREENS)).min(st.list.visible_len());
    let mut wanted = Vec::new();
    for r in from..to {
        let Some(row) = st.list.row(r) else { break };
        let activity = row.last_activity();
        let uuid: &str = &row.uuid;
        if st.sync.previews.get(uuid).is_some_and(|p| p.activity == activity) {
            continue;
        }
        if st.sync.asked.get(uuid) == Some(&activity) {
            continue;
        }
        wanted.push((uuid.to_string(), activity));
    }
    if wanted.is_empty() {
        return;
    }
    for (u, a) in &wanted {
        st.sync.asked.insert(u.clone(), *a);
    }
    out.fx(InboxEffect::Index(IndexAsk::Previews(wanted)));
}
