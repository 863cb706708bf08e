//! The facts about one contact that a view looks at.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::api::{Contact, FieldValue};
use crate::index::{Preview, Wait, Waiting, Who};

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
    /// The conversation is closed (on the service).
    pub closed: bool,
    /// When it was closed, when known.
    pub closed_at: Option<DateTime<Utc>>,
    /// Whether it is open or closed is not known (the list answer does
    /// not say): `closed` means nothing then.
    pub state_unknown: bool,
    /// The latest known activity of the conversation.
    pub last_activity: Option<DateTime<Utc>>,
    /// Who wrote the last message (`None`: unknown, or no message).
    pub last_who: Option<Who>,
    /// When the last message was written.
    pub last_at: Option<DateTime<Utc>>,
    /// What the conversation's page says about waiting.
    pub wait: Wait,
}

/// What a view asks of a contact. [`Facts`] owns its answers; the TUI
/// answers from its compact rows without copying them.
pub trait Subject {
    fn closed(&self) -> bool;
    /// Whether the conversation's open or closed state is unknown: a
    /// view on the state then leaves it out, and counts as `≥`.
    fn state_unknown(&self) -> bool {
        false
    }
    /// Email of the assigned collaborator (never empty).
    fn assignee(&self) -> Option<&str>;
    fn source(&self) -> &str;
    /// Uuid of the contact's team.
    fn team(&self) -> Option<&str>;
    /// Whether the contact has `tag` (any case).
    fn has_tag(&self, tag: &str) -> bool;
    /// Whether custom field `name` is `value` (any case; a checkbox field
    /// when one of its options is the value).
    fn field_is(&self, name: &str, value: &str) -> bool;
    /// Whether `needle` is in the name, phone number, tags or note (any
    /// case).
    fn has_text(&self, needle: &str) -> bool;
    fn last_activity(&self) -> Option<DateTime<Utc>>;
    /// Who wrote the last message, when known and up to date.
    fn last_who(&self) -> Option<Who>;
    /// When the last message was written.
    fn last_at(&self) -> Option<DateTime<Utc>>;
    /// Whether it carries the badge `name` (the TUI's rows: snoozed…).
    fn has_badge(&self, _name: &str) -> bool {
        false
    }
    /// The badge that takes it out of views that do not ask for it.
    fn hidden_by(&self) -> Option<&str> {
        None
    }

    /// What the conversation's page says about waiting, when known and up
    /// to date (see [`crate::index::waiting`]).
    fn wait(&self) -> Wait {
        Wait::FromLast
    }

    /// Whether and since when the customer waits for a person's answer:
    /// the one rule of [`crate::index::waiting`].
    fn waiting_now(&self) -> Option<Waiting> {
        crate::index::waiting(self.wait(), self.last_who(), self.last_at())
    }

    /// An answer by a person is owed.
    fn is_waiting(&self) -> bool {
        self.waiting_now().is_some()
    }

    /// Since when the customer has been waiting for a person's answer:
    /// their first message after the last person's reply.
    fn waiting_since(&self) -> Option<DateTime<Utc>> {
        self.waiting_now().map(|w| w.since.or(self.last_activity()))?
    }
}

/// A closed conversation the customer wrote in after it was closed: every
/// face counts it as open (and so waiting) until a person answers or it
/// is closed again, the service's state notwithstanding. Nobody has
/// answered that customer. Known only from the last message: who wrote it
/// and when (a message from before the close reopens nothing).
pub fn reopened_by_customer(
    closed_at: Option<DateTime<Utc>>,
    last_who: Option<Who>,
    last_at: Option<DateTime<Utc>>,
) -> bool {
    matches!((closed_at, last_who, last_at), (Some(closed), Some(Who::Customer), Some(at)) if at > closed)
}

impl Subject for Facts {
    fn closed(&self) -> bool {
        self.closed && !reopened_by_customer(self.closed_at, self.last_who, self.last_at)
    }
    fn state_unknown(&self) -> bool {
        self.state_unknown
    }
    fn assignee(&self) -> Option<&str> {
        self.assignee.as_deref()
    }
    fn source(&self) -> &str {
        &self.source
    }
    fn team(&self) -> Option<&str> {
        self.team.as_deref()
    }
    fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| same(t, tag))
    }
    fn field_is(&self, name: &str, value: &str) -> bool {
        field_is(&self.custom_fields, name, value)
    }
    fn has_text(&self, needle: &str) -> bool {
        contains_ci(&self.name, needle)
            || contains_ci(&self.phone, needle)
            || self.tags.iter().any(|tag| contains_ci(tag, needle))
            || self.note.as_deref().is_some_and(|n| contains_ci(n, needle))
    }
    fn last_activity(&self) -> Option<DateTime<Utc>> {
        self.last_activity
    }
    fn last_who(&self) -> Option<Who> {
        self.last_who
    }
    fn last_at(&self) -> Option<DateTime<Utc>> {
        self.last_at
    }
    fn wait(&self) -> Wait {
        self.wait
    }
}

/// `needle` in `hay`, ignoring case, without allocating for ASCII needles.
pub fn contains_ci(hay: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return true;
    }
    if needle.is_ascii() {
        let n = needle.as_bytes();
        return hay.as_bytes().windows(n.len()).any(|w| w.eq_ignore_ascii_case(n));
    }
    hay.to_lowercase().contains(&needle.to_lowercase())
}

/// The same word, ignoring case and surrounding spaces.
pub fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim()) || (!a.is_ascii() && a.trim().to_lowercase() == b.trim().to_lowercase())
}

/// Whether custom field `name` of `fields` is `value` (see [`Subject::field_is`]).
pub fn field_is(fields: &BTreeMap<String, FieldValue>, name: &str, value: &str) -> bool {
    fields.iter().filter(|(k, _)| same(k, name)).any(|(_, v)| match v {
        FieldValue::Text(s) => same(s, value),
        FieldValue::List(items) => items.iter().any(|i| same(i, value)) || same(&v.display(), value),
    })
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
            closed_at: contact.closed_at,
            state_unknown: contact.state_unknown,
            last_activity: activity,
            last_who: preview.and_then(|p| p.who),
            last_at: preview.and_then(|p| p.at),
            wait: preview.map(|p| p.wait).unwrap_or_default(),
        }
    }
}
