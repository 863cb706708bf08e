//! Moving the selection: the list's motions, a click on a row, the keys
//! of `/`, and a contact created here.

use super::super::state::Inbox;
use super::selection::selection_changed;
use super::{O, lookup, search, views, walk};
use crate::api::Contact;
use crate::tui::keymap::Action;
use crate::tui::shared::Cx;

pub fn move_selection(st: &mut Inbox, cx: &Cx, out: &mut O, action: Action) {
    let len = st.list.visible_len();
    let screen = cx.list_rows().max(1);
    let list = &mut *st.list;
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
    list.note_new_above(&[]);
    if list.view.selected != before {
        selection_changed(st, cx, out);
    }
    walk::maybe_prefetch(st, cx, out);
}

/// Selects visible row `index` (a mouse click); past the end does nothing.
pub fn select(st: &mut Inbox, cx: &Cx, out: &mut O, index: usize) {
    if index >= st.list.visible_len() {
        return;
    }
    let before = st.list.view.selected;
    st.list.paging.follow_end = false;
    st.list.view.selected = index;
    st.list.clamp(cx.list_rows().max(1));
    if st.list.view.selected != before {
        selection_changed(st, cx, out);
    }
    walk::maybe_prefetch(st, cx, out);
}

/// A click at screen row `y` in the list pane: selects the row drawn there.
pub fn click(st: &mut Inbox, cx: &Cx, out: &mut O, y: u16) {
    let Some(r) = cx.areas.list else { return };
    // Border, then the header row, then the contacts.
    let first = r.y + 2;
    if y >= first && y < r.y + r.height.saturating_sub(1) {
        let index = st.list.view.offset + usize::from(y - first);
        select(st, cx, out, index);
    }
}

/// A key while the query is typed: Up and Down move the list; Enter on
/// a customer the service found opens it.
pub fn search_key(st: &mut Inbox, cx: &Cx, out: &mut O, key: crossterm::event::KeyEvent) {
    if cx.keys.mode_action_for(crate::tui::keymap::Mode::Search, &key) == Some(crate::tui::keymap::ModeAction::Done)
        && let Some(contact) = lookup::found_to_open(st)
    {
        return open_found(st, cx, out, contact);
    }
    if let Some(motion) = search::key(st, cx, out, key) {
        move_selection(st, cx, out, motion);
    }
}

/// A contact created here (or found after a failed create): first in the
/// list, selected.
pub fn add_created(st: &mut Inbox, cx: &Cx, out: &mut O, contact: Contact) {
    let uuid = contact.uuid.clone();
    if !st.list.store.replace(contact.clone()) {
        let matched = st.list.matched_contacts();
        st.list.store.insert(0, vec![contact]);
        st.list.rematch(matched);
    }
    search::recompute_search(st, out);
    views::select(st, cx, out, &uuid);
    selection_changed(st, cx, out);
}

/// Enter on the customer `/` found on the service: the search closes, the
/// contact joins the list (first, selected) and the index, and opens.
fn open_found(st: &mut Inbox, cx: &Cx, out: &mut O, contact: Contact) {
    use crate::tui::shared::{Note, Pane};
    search::clear_search(st, cx);
    let uuid = contact.uuid.clone();
    out.note(Note::Learned(Box::new(contact.clone())));
    if st.sync.enabled() {
        out.fx(super::super::fx::InboxEffect::Index(super::super::fx::IndexAsk::Store(
            Box::new(contact.clone()),
        )));
    }
    add_created(st, cx, out, contact);
    *st.settle = None;
    out.note(Note::Show(uuid));
    if !cx.is_wide() {
        out.note(Note::Focus(Pane::Thread));
    }
}
