//! Loading what the pane shows for the selected contact.

use super::call::call;
use crate::tui::effect::Effect;
use crate::tui::model::Model;

/// Loads the thread, full record and bot of the selected contact now.
pub(crate) fn load_selected(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(uuid) = model.list.selected_uuid() else { return };
    call!(model, fx, thread, Effect::Thread, |st, _cx, out| {
        crate::tui::thread::open(st, out, &uuid)
    });
    call!(model, fx, details, Effect::Details, |st, cx, out| {
        crate::tui::details::open(st, cx, out, &uuid)
    });
}

/// Loads the selected contact unless its thread is the one shown.
pub(crate) fn show_selected(model: &mut Model, fx: &mut Vec<Effect>) {
    let uuid = model.list.selected_uuid();
    if uuid.is_some() && model.thread.contact != uuid {
        load_selected(model, fx);
    }
}
