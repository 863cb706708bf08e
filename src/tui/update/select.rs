//! Loading what the panes show for the selected contact: the thread and
//! the details are other slices, so the root does it (`Note::Show`).

use super::call::call;
use crate::tui::effect::Effect;
use crate::tui::model::Model;

/// Loads the thread, full record and bot of the selected contact now.
pub(crate) fn load_selected(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(uuid) = model.list.selected_uuid() else { return };
    load(model, &uuid, fx);
}

/// Loads the thread, full record and bot of `uuid` now.
pub(crate) fn load(model: &mut Model, uuid: &str, fx: &mut Vec<Effect>) {
    call!(model, fx, thread, Effect::Thread, |st, _cx, out| {
        crate::tui::thread::open(st, out, uuid)
    });
    super::owner::own_timeline(model, uuid);
    super::owner::fetch_timeline(model, uuid, fx);
    call!(model, fx, details, Effect::Details, |st, cx, out| {
        crate::tui::details::open(st, cx, out, uuid)
    });
}

/// Loads the selected contact unless its thread is the one shown.
pub(crate) fn show_selected(model: &mut Model, fx: &mut Vec<Effect>) {
    let uuid = model.list.selected_uuid();
    if uuid.is_some() && model.thread.contact != uuid {
        load_selected(model, fx);
    }
}
