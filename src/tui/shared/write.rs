//! The kind of a write on one contact: pending markers, toasts, drafts.

use crate::triage::bulk::Action;

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
            A::Note(_) | A::ConversationNote(_) => WriteKind::Note,
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
