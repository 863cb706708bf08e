//! Who wrote a conversation's last message.

use crate::api::MessageStatus;

/// Who wrote a conversation's last message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// The customer (a received message).
    Customer,
    /// An agent or a bot (a sent message).
    Agent,
    /// An internal note.
    Note,
}

impl Who {
    pub(super) fn of(status: &MessageStatus) -> Option<Who> {
        match status {
            MessageStatus::Received => Some(Who::Customer),
            MessageStatus::Sent => Some(Who::Agent),
            MessageStatus::Note => Some(Who::Note),
            MessageStatus::Other(_) => None,
        }
    }

    pub(super) fn from_stored(s: &str) -> Option<Who> {
        Who::of(&MessageStatus::from(s))
    }
}
