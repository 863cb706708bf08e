//! The Contact object: the reference's fields, the ones the public
//! documentation adds (`channel`, `bsuid`, `blockedAt`, `note`), and the
//! activity frontdesk learns itself (the service sends none).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize};

use super::channel::Channel;
use super::custom_field::{FieldMeta, FieldValue};
use super::lenient::null_as_default;
use super::time;

/// The team a contact is assigned to (the reference shows `{}` for none).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContactTeam {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A contact and its conversation.
///
/// Decoded through [`Contact`]'s own `Deserialize`, which notes whether
/// the JSON carried `closedAt` at all: the documented list answer does
/// not, and a state not carried is unknown, not open.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct Contact {
    pub uuid: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub name: String,
    /// Empty when the service has none (`null`: a contact known only by
    /// its `bsuid`).
    #[serde(default, deserialize_with = "null_as_default")]
    pub phone_number: String,
    #[serde(default)]
    pub avatar_url: Option<String>,
    #[serde(default, with = "time::opt")]
    pub created_at: Option<DateTime<Utc>>,
    /// Integration type (open set; the primary one is `messaging_app`).
    #[serde(default, deserialize_with = "null_as_default")]
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_href: Option<String>,
    /// Email of the assigned collaborator.
    #[serde(default)]
    pub assigned_user: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub tags: Vec<String>,
    /// Custom field name to value; a checkbox value decodes to a list.
    #[serde(default, deserialize_with = "null_as_default")]
    pub custom_fields: BTreeMap<String, FieldValue>,
    /// Present only when requested with `include_field_types=true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_fields_metadata: Option<BTreeMap<String, FieldMeta>>,
    /// Set when the conversation is closed (meaningless while
    /// `state_unknown`).
    #[serde(default = "absent_closed_at", with = "time::opt", skip_serializing_if = "is_absent")]
    pub closed_at: Option<DateTime<Utc>>,
    /// The documentation types it a Funnel: a uuid string, or an object
    /// with one, is kept; anything else reads as none.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient_id")]
    pub funnel_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<ContactTeam>,
    /// The channel the conversation runs on (the documentation's
    /// Channel); sends go out from it. Anything but an object reads as none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_channel"
    )]
    pub channel: Option<Channel>,
    /// WhatsApp Business Suite User ID: the recipient of a send when the
    /// contact has no phone number.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient_id")]
    pub bsuid: Option<String>,
    /// When the contact was blocked.
    #[serde(default, with = "time::opt", skip_serializing_if = "Option::is_none")]
    pub blocked_at: Option<DateTime<Utc>>,
    /// The contact's note (`null` when none is set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The newest activity frontdesk knows of in the conversation: not a
    /// field of the service (which sends none, and no `lastMessageAt`),
    /// but what the index learned from message pages, webhooks, its own
    /// sends and the list's order. Written under frontdesk's own key
    /// (`activityAt`) in the index and on a hub's wire; never sent to or
    /// expected from the service.
    #[serde(
        rename = "activityAt",
        default,
        with = "time::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub activity_at: Option<DateTime<Utc>>,
    /// True when the answer this contact was read from carried no
    /// `closedAt` key (the documented list answer): whether the
    /// conversation is open is then unknown, and `closed_at` means
    /// nothing. Not a field of its own on the wire: such a contact is
    /// written without `closedAt`, so it reads back unknown.
    #[serde(skip)]
    pub state_unknown: bool,
}

/// Whether a conversation is open, closed, or not known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConversationState {
    Open,
    Closed,
    /// No answer read so far carried the contact's `closedAt`.
    Unknown,
}

/// Stands for an absent `closedAt` while a contact is decoded or encoded
/// (no answer carries this date: year -262144); never kept in a contact.
const ABSENT: DateTime<Utc> = DateTime::<Utc>::MIN_UTC;

fn absent_closed_at() -> Option<DateTime<Utc>> {
    Some(ABSENT)
}

fn is_absent(t: &Option<DateTime<Utc>>) -> bool {
    *t == Some(ABSENT)
}

impl<'de> Deserialize<'de> for Contact {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // The derived decoding (`remote = "Self"`), then: no `closedAt`
        // key at all is an unknown state, not an open conversation.
        let mut c = Contact::deserialize(d)?;
        if is_absent(&c.closed_at) {
            c.closed_at = None;
            c.state_unknown = true;
        }
        Ok(c)
    }
}

impl Serialize for Contact {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !self.state_unknown {
            return Contact::serialize(self, s);
        }
        // Written without `closedAt`, so that it reads back unknown.
        let unknown = Contact {
            closed_at: Some(ABSENT),
            ..self.clone()
        };
        Contact::serialize(&unknown, s)
    }
}

impl Contact {
    /// True while the conversation is open (for a known state: see
    /// [`Contact::state`]).
    pub fn is_open(&self) -> bool {
        self.closed_at.is_none()
    }

    /// Open, closed, or unknown (the answer it was read from did not say).
    pub fn state(&self) -> ConversationState {
        match (self.state_unknown, self.closed_at) {
            (true, _) => ConversationState::Unknown,
            (false, None) => ConversationState::Open,
            (false, Some(_)) => ConversationState::Closed,
        }
    }

    /// Sets the conversation's state as learned (a close or open answer, a
    /// conversation event): known from now on.
    pub fn set_closed_at(&mut self, at: Option<DateTime<Utc>>) {
        self.closed_at = at;
        self.state_unknown = false;
    }

    /// The latest known activity: what frontdesk learned, else `createdAt`.
    pub fn last_activity(&self) -> Option<DateTime<Utc>> {
        match (self.activity_at, self.created_at) {
            (Some(a), Some(c)) => Some(a.max(c)),
            (a, c) => a.or(c),
        }
    }

    /// Notes activity at `at` when newer than what is known; true when it was.
    pub fn saw_activity(&mut self, at: DateTime<Utc>) -> bool {
        if self.activity_at.is_some_and(|t| t >= at) {
            return false;
        }
        self.activity_at = Some(at);
        true
    }

    /// Uuid of the contact's team, if it has one.
    pub fn team_uuid(&self) -> Option<&str> {
        self.team
            .as_ref()
            .and_then(|t| t.uuid.as_deref())
            .filter(|u| !u.is_empty())
    }

    /// The contact's channel uuid, if the service named one.
    pub fn channel_uuid(&self) -> Option<&str> {
        self.channel.as_ref().map(|c| c.uuid.as_str()).filter(|u| !u.is_empty())
    }
}

/// A string id (or a number, or an object carrying `uuid`); anything else
/// reads as none rather than failing the contact.
fn lenient_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Option::<serde_json::Value>::deserialize(d)? {
        Some(serde_json::Value::String(s)) if !s.trim().is_empty() => Some(s),
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        Some(serde_json::Value::Object(o)) => o.get("uuid").and_then(|u| u.as_str()).map(str::to_string),
        _ => None,
    })
}

/// A Channel object; anything else (a bare type string) reads as none.
fn lenient_channel<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Channel>, D::Error> {
    Ok(match Option::<serde_json::Value>::deserialize(d)? {
        Some(v @ serde_json::Value::Object(_)) => serde_json::from_value(v).ok(),
        _ => None,
    })
}
