//! What undo remembers before a write goes out, and forgets when it
//! fails, called from the writers of update: the act slice keeps the
//! history (`act/record.rs`); here the root lends it its state. Plain
//! calls, below everything that calls a slice (`call!`); what is recorded
//! once a write is answered is in `recorded.rs`.

use crate::api::Contact;
use crate::triage::bulk::Action;
use crate::tui::act;
use crate::tui::model::Model;
use crate::tui::msg::ReqId;

/// A single write `id` is going out: remember the contact as it was.
pub(crate) fn will_write(model: &mut Model, id: ReqId, action: Action, before: Contact, bot_before: Option<bool>) {
    act::will_write(&mut model.act, id, action, before, bot_before);
}

/// The single write `id` failed: nothing to undo.
pub(crate) fn write_failed(model: &mut Model, id: ReqId) {
    act::write_failed(&mut model.act, id);
}
