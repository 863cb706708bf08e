//! The service's resources (api.md part 2 and extensions.md), decoded
//! tolerantly: unknown fields are ignored, open value sets keep unknown
//! values, and missing optional fields take defaults.

mod channel;
mod contact;
mod custom_field;
mod ids;
mod lenient;
mod message_rich;
mod open_enum;
pub mod time;

pub use channel::{Channel, ChannelType};
pub use contact::{Contact, ContactTeam, ConversationState};
pub use custom_field::checked_email;
pub use custom_field::{FieldMeta, FieldType, FieldValue, split_list, validate_custom_fields, validate_field_value};
pub use ids::{ContactId, MessageId, TemplateId};
pub(crate) use lenient::null_as_default;
pub use message_rich::{
    Attachment, AttachmentKind, CardPerson, Choices, Location, Quoted, Rich, file_name_of, is_web_link,
};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::open_enum;

open_enum!(
    /// Status of an entry in a contact's thread.
    MessageStatus { Sent => "sent", Received => "received", Note => "note" }
);

open_enum!(
    /// Status of a contact's bot.
    BotStatus { Started => "started", InProgress => "in_progress", Ended => "ended" }
);

open_enum!(
    /// Delivery status of a message sent through the interface.
    DeliveryStatus {
        Enqueued => "enqueued",
        Sent => "sent",
        Delivered => "delivered",
        Read => "read",
        Failed => "failed",
    }
);

open_enum!(
    /// Review status of a message template.
    TemplateStatus { Approved => "approved", Rejected => "rejected", Pending => "pending" }
);

open_enum!(
    /// Kind of a webhook event (extensions.md's list).
    WebhookEventKind {
        MessageCreated => "message_created",
        MessageStatusUpdated => "message_status_updated",
        ContactCreated => "contact_created",
        ContactUpdated => "contact_updated",
        ContactDeleted => "contact_deleted",
        ConversationOpened => "conversation_opened",
        ConversationClosed => "conversation_closed",
        AgentStatusUpdated => "agent_status_updated",
        AgentSessionUpdated => "agent_session_updated",
        TeamMembershipUpdated => "team_membership_updated",
    }
);

/// An entry of a contact's thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    /// Absent on notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    #[serde(default)]
    pub text: String,
    #[serde(default, with = "time::opt")]
    pub created_at: Option<DateTime<Utc>>,
    #[serde(default = "unknown_message_status")]
    pub status: MessageStatus,
    #[serde(default)]
    pub channel: String,
    #[serde(default)]
    pub from: String,
    #[serde(default)]
    pub to: String,
    /// The agent who sent it, named by a team hub (`frontdesk hub`); never
    /// set by the service. Text from a server: make it inert before showing it.
    #[serde(default, rename = "sentBy", skip_serializing_if = "Option::is_none")]
    pub sent_by: Option<String>,
    /// Attachments, location, contact card, buttons, quoted reply,
    /// forward (`message_rich`); empty when the message is only text.
    /// Boxed: most messages are only text, and a `Message` travels in
    /// every event.
    #[serde(flatten)]
    pub rich: Box<Rich>,
}

fn unknown_message_status() -> MessageStatus {
    MessageStatus::Other(String::new())
}

fn unknown_delivery_status() -> DeliveryStatus {
    DeliveryStatus::Other(String::new())
}

fn unknown_bot_status() -> BotStatus {
    BotStatus::Other(String::new())
}

/// Inner payload of a send-request's status.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusInnerPayload {
    #[serde(default, rename = "type")]
    pub payload_type: String,
    /// The reference's `messagingAppMessageId`; the documentation's
    /// `whatsappMessageId`. Either is accepted.
    #[serde(default, alias = "whatsappMessageId")]
    pub messaging_app_message_id: Option<String>,
}

/// `messageStatusPayload` of a send-request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageStatusPayload {
    #[serde(default)]
    pub id: String,
    #[serde(default, rename = "type")]
    pub status_type: String,
    #[serde(default)]
    pub payload: Option<StatusInnerPayload>,
    #[serde(default)]
    pub destination: Option<String>,
}

/// A message sent through the interface, as its status lookup returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageSendRequest {
    pub uuid: String,
    #[serde(default = "unknown_delivery_status")]
    pub status: DeliveryStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_status_payload: Option<MessageStatusPayload>,
}

/// The answer to POST /messages/send.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SentMessage {
    pub uuid: String,
    #[serde(default = "unknown_delivery_status")]
    pub status: DeliveryStatus,
}

/// A message template.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Template {
    pub uuid: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub template_type: String,
    #[serde(default)]
    pub category: String,
    /// `approved`, `rejected`, or another value the service uses (kept).
    #[serde(default)]
    pub status: TemplateStatus,
    #[serde(default)]
    pub text: String,
    #[serde(default, with = "time::opt")]
    pub created_at: Option<DateTime<Utc>>,
}

/// A sales funnel.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Funnel {
    pub uuid: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub emoji: String,
    #[serde(default)]
    pub position: i64,
    #[serde(default, with = "time::opt")]
    pub created_at: Option<DateTime<Utc>>,
}

/// A team of users.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Team {
    pub uuid: String,
    #[serde(default)]
    pub name: String,
    #[serde(default, with = "time::opt")]
    pub created_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub default: bool,
    /// Member count.
    #[serde(default)]
    pub members: Option<i64>,
}

/// A member of a team (GET /teams/:uuid/members).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamMember {
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub available: Option<bool>,
    #[serde(default, with = "time::opt")]
    pub last_updated_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub user_custom_status: Option<MemberStatus>,
}

/// A team member's custom status: written as an object (`id`, `name`,
/// `emoji`) or as a bare name; written back the same way.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemberStatus {
    pub id: Option<String>,
    pub name: String,
    pub emoji: String,
}

impl MemberStatus {
    /// "emoji name", trimmed.
    pub fn label(&self) -> String {
        format!("{} {}", self.emoji, self.name).trim().to_string()
    }
}

impl<'de> Deserialize<'de> for MemberStatus {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = |v: Option<&serde_json::Value>| v.and_then(serde_json::Value::as_str).map(str::to_string);
        Ok(match serde_json::Value::deserialize(d)? {
            serde_json::Value::Object(o) => MemberStatus {
                id: text(o.get("id")),
                name: text(o.get("name")).unwrap_or_default(),
                emoji: text(o.get("emoji")).unwrap_or_default(),
            },
            serde_json::Value::String(s) => MemberStatus {
                name: s,
                ..Default::default()
            },
            other => MemberStatus {
                name: other.to_string(),
                ..Default::default()
            },
        })
    }
}

impl Serialize for MemberStatus {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        if self.id.is_none() && self.emoji.is_empty() {
            return s.serialize_str(&self.name);
        }
        let mut map = s.serialize_map(None)?;
        if let Some(id) = &self.id {
            map.serialize_entry("id", id)?;
        }
        map.serialize_entry("name", &self.name)?;
        if !self.emoji.is_empty() {
            map.serialize_entry("emoji", &self.emoji)?;
        }
        map.end()
    }
}

/// The bot of a contact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Bot {
    #[serde(default)]
    pub uuid: String,
    #[serde(default)]
    pub name: String,
    /// Missing in some answers (e.g. after `bot_end`): kept as `Other("")`.
    #[serde(default = "unknown_bot_status")]
    pub status: BotStatus,
    #[serde(default, with = "time::opt")]
    pub conversation_started_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub version: Option<i64>,
    #[serde(default)]
    pub latest_bot_version: Option<bool>,
}

impl Bot {
    /// True when the bot is answering the contact.
    pub fn is_running(&self) -> bool {
        matches!(self.status, BotStatus::Started | BotStatus::InProgress)
    }
}

/// A custom status an agent can wear.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomStatus {
    pub id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub emoji: String,
    #[serde(default, with = "time::opt")]
    pub created_at: Option<DateTime<Utc>>,
    #[serde(default, with = "time::opt")]
    pub updated_at: Option<DateTime<Utc>>,
}

/// `user_status.custom_status`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UserCustomStatus {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, with = "time::opt")]
    pub last_updated_at: Option<DateTime<Utc>>,
}

/// `user_status.appearance`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Appearance {
    #[serde(default)]
    pub available: bool,
    #[serde(default, with = "time::opt")]
    pub last_updated_at: Option<DateTime<Utc>>,
}

/// A user's availability and custom status.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UserStatus {
    #[serde(default)]
    pub custom_status: Option<UserCustomStatus>,
    #[serde(default)]
    pub appearance: Option<Appearance>,
}

/// The account's plan (GET /plan, at top level).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    #[serde(default)]
    pub plan: String,
    #[serde(default)]
    pub included_channels: i64,
    #[serde(default)]
    pub licenses: i64,
    #[serde(default)]
    pub active_users: i64,
    #[serde(default, deserialize_with = "null_as_default")]
    pub teams: Vec<Team>,
}

/// The receiver's reply recorded with a webhook event.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WebhookResponse {
    #[serde(default)]
    pub body: serde_json::Value,
    #[serde(default)]
    pub code: Option<i64>,
    #[serde(default)]
    pub headers: serde_json::Value,
}

/// A record of the webhook event log.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEvent {
    /// Event kind (open set), e.g. `message_created`.
    #[serde(default)]
    pub event: WebhookEventKind,
    /// Kind of object delivered, e.g. `message_object`.
    #[serde(default)]
    pub payload: String,
    #[serde(default)]
    pub response: Option<WebhookResponse>,
    #[serde(default)]
    pub success: bool,
    #[serde(default, with = "time::opt")]
    pub created_at: Option<DateTime<Utc>>,
}

#[cfg(test)]
mod tests;
