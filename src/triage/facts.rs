//! The facts about one contact that a view looks at.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::api::{Contact, FieldValue};
use crate::index::{Preview, Who};

/// What a view needs to know of a contact: its fields, its state, and who
/// wrote its conversation's last message and when.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts {
    pub uuid: String,
    pub name: String,
    pub phone: String,
    pub source: String,
    /// Email of the assigned collaborator.
    pub assignee: Option<String>,
    /// Uuid of the contact's team.
    pub team: Option<String>,
    pub tags: Vec<String>,
    pub custom_fields: BTreeMap<String, FieldValue>,
    pub note: Option<String>,
    /// The conversation is closed.
    pub closed: bool,
    /// The latest known activity of the conversation.
    pub last_activity: Option<DateTime<Utc>>,
    /// Who wrote the last message (`None`: unknown, or no message).
    pub last_who: Option<Who>,
    /// When the last message was written.
    pub last_at: Option<DateTime<Utc>>,
}

impl Facts {
    /// The facts of `contact`, with its last message from `preview` when
    /// known. A preview fetched before the contact's latest activity is
    /// out of date (a newer message came since): who wrote last is then
    /// unknown.
    pub fn new(contact: &Contact, preview: Option<&Preview>) -> Facts {
        let activity = contact.last_activity();
        let preview = preview.filter(|p| p.activity.is_none() || p.activity == activity);
        Facts {
            uuid: contact.uuid.clone(),
            name: contact.name.clone(),
            phone: contact.phone_number.clone(),
            source: contact.source.clone(),
            assignee: contact.assigned_user.clone().filter(|a| !a.trim().is_empty()),
            team: contact.team_uuid().map(str::to_string),
            tags: contact.tags.clone(),
            custom_fields: contact.custom_fields.clone(),
            note: contact.note.clone(),
            closed: contact.closed_at.is_some(),
            last_activity: activity,
            last_who: preview.and_then(|p| p.who),
            last_at: preview.and_then(|p| p.at),
        }
    }

    /// Since when the customer has been waiting for an answer: the time of
    /// their last message, when they wrote last.
    pub fn waiting_since(&self) -> Option<DateTime<Utc>> {
        if self.is_waiting() {
            self.last_at.or(self.last_activity)
        } else {
            None
        }
    }

    /// The customer wrote last: an answer is owed.
    pub fn is_waiting(&self) -> bool {
        self.last_who == Some(Who::Customer)
    }
}
