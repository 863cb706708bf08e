//! What the act slice keeps: one contact's writes and forms in flight, the
//! drafts of failed forms, the run on many (or an undo) in flight, the
//! history undo takes back, and a create's lookup after a failure.

use std::collections::HashMap;

use crate::triage::bulk::Action;
use crate::tui::form::Form;
use crate::tui::shared::ReqId;

use super::history::History;
use super::run::{ManyForm, Run};

#[derive(Debug, Default)]
pub struct Act {
    /// Forms whose save failed, by (contact uuid, kind): reopened as drafts.
    pub drafts: HashMap<(String, FormKind), Form>,
    /// Forms whose save is in flight, by request id.
    pub saving: HashMap<ReqId, (String, FormKind, Form)>,
    /// One contact's writes in flight (runs of one action), by request id.
    pub writes: HashMap<ReqId, Action>,
    /// The action on many contacts (or its undo) in flight.
    pub bulk: Option<Run>,
    /// The agent's last actions, for `u` and the history (`U`).
    pub undo: History,
    /// The identifier of a new contact whose create failed in a way that
    /// may still have created it (Ctrl-F in the form looks for it).
    pub recheck: Option<String>,
    /// That lookup, in flight.
    pub finding: Option<ReqId>,
    /// The writes of `assign_on_reply` in flight: one that finds a
    /// colleague's change is not asked about, only said.
    pub replies: std::collections::HashSet<ReqId>,
}

/// What a form is for (the root's overlay holds it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FormKind {
    Write(WriteKind),
    Filter,
    /// A form whose answer applies to every marked contact.
    Many(ManyForm),
    /// The current view's filter (`f`).
    View,
}

pub use crate::tui::shared::WriteKind;
