//! Loading what the pane shows for the selected contact.

use super::{details, thread};
use crate::tui::effect::Effect;
use crate::tui::model::Model;

/// Loads the thread, full record and bot of the selected contact now.
pub(crate) fn load_selected(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(uuid) = model.list.selected_uuid() else { return };
    thread::open(model, &uuid, fx);
    details::open(model, &uuid, fx);
}
