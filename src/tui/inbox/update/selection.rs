//! What a moved selection sets off: a debounce, after which the root
//! loads the contact's thread and details (`Note::Show` loads them at
//! once).

use std::time::Duration;

use super::super::fx::InboxEffect;
use super::super::state::{ContactList, Inbox};
use super::O;
use crate::tui::shared::{Cx, Note, ReqId};

/// How long the selection rests on a contact before it loads.
const SETTLE: Duration = Duration::from_millis(150);

/// Called whenever the selected row may have changed: waits for the
/// selection to settle before the root loads thread, details and bot.
pub fn selection_changed(st: &mut Inbox, cx: &Cx, out: &mut O) {
    let uuid = st.list.selected_uuid();
    if uuid.is_none() || uuid.as_deref() == open(cx, out) {
        return;
    }
    let id = out.id();
    *st.settle = Some(id);
    out.fx(InboxEffect::Debounce { id, after: SETTLE });
}

/// Whose thread shows: the one this call asked to show, else the one
/// open when it began.
pub fn open<'a>(cx: &Cx<'a>, out: &'a O) -> Option<&'a str> {
    let asked = out.notes.iter().rev().find_map(|n| match n {
        Note::Show(uuid) => Some(uuid.as_str()),
        _ => None,
    });
    asked.or(cx.open)
}

/// The selection settled (`SelectionSettled(id)`): the contact to load,
/// when `id` is the one waited on.
pub fn settled(settle: &mut Option<ReqId>, list: &ContactList, id: ReqId) -> Option<String> {
    if *settle != Some(id) {
        return None;
    }
    *settle = None;
    list.selected_uuid()
}

/// The selected contact's thread and details load now.
pub fn show_now(st: &mut Inbox, out: &mut O) {
    if let Some(uuid) = st.list.selected_uuid() {
        out.note(Note::Show(uuid));
    }
}
