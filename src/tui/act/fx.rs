//! The act slice's one request: an action on one contact. Every write on
//! an existing contact is a run of these (the root's `Effect::Apply`, run
//! by `triage::bulk::apply_one` and answered by `Msg::Applied`).

use crate::triage::bulk::Action;
use crate::tui::shared::ReqId;

#[derive(Debug, Clone, PartialEq)]
pub enum ActEffect {
    /// Does `action` to the contact `uuid`.
    Apply { id: ReqId, uuid: String, action: Action },
}
