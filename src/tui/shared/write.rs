//! The kind of a write on one contact: pending markers, toasts, drafts.

/// A write on a contact, for pending markers, toasts and drafts.
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
