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

/// What a contact's form or key writes, for pending markers, toasts and
/// drafts (the write itself is a `triage::bulk::Action`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WriteKind {
    Close,
    Reopen,
    Edit,
    Tags,
    Assign,
    Team,
    Note,
    NewContact,
}

impl WriteKind {
    /// The action a form's patch performs: the one the patch is, else an edit
    /// of its fields.
    pub fn action(self, patch: crate::api::ContactPatch) -> Action {
        match self {
            WriteKind::Tags if patch.tags.is_some() => Action::SetTags(patch.tags.unwrap_or_default()),
            WriteKind::Assign if patch.unassign_user == Some(true) => Action::Unassign,
            WriteKind::Assign if patch.assigned_user.is_some() => {
                Action::Assign(patch.assigned_user.unwrap_or_default())
            }
            WriteKind::Team if patch.team_uuid.is_some() => Action::Team(patch.team_uuid.unwrap_or_default()),
            WriteKind::Note if patch.note.is_some() => Action::Note(patch.note.unwrap_or_default()),
            _ => Action::Edit {
                name: patch.name,
                fields: patch.custom_fields.unwrap_or_default(),
            },
        }
    }

    /// The kind of a one-contact write doing `action`.
    pub fn of(action: &crate::triage::bulk::Action) -> WriteKind {
        use crate::triage::bulk::Action as A;
        match action {
            A::Close => WriteKind::Close,
            A::Reopen => WriteKind::Reopen,
            A::Assign(_) | A::Unassign => WriteKind::Assign,
            A::Team(_) => WriteKind::Team,
            A::Note(_) => WriteKind::Note,
            A::Tag(_) | A::Untag(_) | A::SetTags(_) => WriteKind::Tags,
            A::Bot(_) | A::Edit { .. } => WriteKind::Edit,
        }
    }

    /// Past tense for the success toast.
    pub fn done(self) -> &'static str {
        match self {
            WriteKind::Close => "conversation closed",
            WriteKind::Reopen => "conversation reopened",
            WriteKind::Edit => "contact saved",
            WriteKind::Tags => "tags saved",
            WriteKind::Assign => "assignment saved",
            WriteKind::Team => "team saved",
            WriteKind::Note => "note saved",
            WriteKind::NewContact => "contact created",
        }
    }
    pub fn verb(self) -> &'static str {
        match self {
            WriteKind::Close => "close",
            WriteKind::Reopen => "reopen",
            WriteKind::Edit => "save the contact",
            WriteKind::Tags => "save the tags",
            WriteKind::Assign => "assign",
            WriteKind::Team => "set the team",
            WriteKind::Note => "save the note",
            WriteKind::NewContact => "create the contact",
        }
    }
}
