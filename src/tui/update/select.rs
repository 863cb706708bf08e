//! Loading what the pane shows for the selected contact.

use super::call::call;
use super::details;
use crate::tui::effect::Effect;
use crate::tui::model::Model;

/// Loads the thread, full record and bot of the selected contact now.
pub(crate) fn load_selected(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(uuid) = model.list.selected_uuid() else { return };
    call!(model, fx, thread, Effect::Thread, |st, _cx, out| {
        crate::tui::thread::open(st, out, &uuid)
    });
    details::open(model, &uuid, fx);
}
