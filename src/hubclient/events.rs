//! The hub's events, typed from the wire (`event:` kind, `data:` JSON).
//! Decoding is tolerant like the rest of the client: unknown kinds come
//! through as [`HubEvent::Unknown`], missing optional fields as `None`.
//! Text in them came from outside: the caller makes it inert before it
//! reaches a terminal.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::preview::LinePreview;
use crate::api::model::time;
use crate::api::{Contact, DeliveryStatus, Message};

/// What a colleague is doing with a contact.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PresenceState {
    Viewing,
    Composing,
    Idle,
    #[serde(other)]
    Other,
}

/// One event of `GET /hub/v1/events`.
#[derive(Debug, Clone, PartialEq)]
pub enum HubEvent {
    /// Created or updated: upsert it.
    ContactChanged {
        contact: Box<Contact>,
    },
    ContactDeleted {
        uuid: String,
    },
    MessageCreated {
        contact: String,
        message: Message,
        agent: Option<String>,
    },
    MessageStatus {
        contact: String,
        message: String,
        status: DeliveryStatus,
    },
    ConversationOpened(ConversationChange),
    ConversationClosed(ConversationChange),
    Presence(Presence),
    /// The service's agent status event, passed through as it came.
    AgentStatus {
        agent: String,
        status: serde_json::Value,
    },
    /// A colleague (or this agent) snoozed a conversation or woke it: a
    /// wake has no `until` and `until_reply` false.
    SnoozeChanged(SnoozeChange),
    /// What the hub knows of the service: unreachable (`down`),
    /// rate-limiting the hub (`limited`) or back (`up`), since when.
    ServiceStatus(ServiceStatus),
    /// Events were missed: fetch a fresh snapshot.
    Resync {
        reason: String,
    },
    /// A conversation's last message the hub read itself (not a new
    /// message: nobody is alerted), as a snapshot line's `hubPreview`.
    LastMessage {
        contact: String,
        preview: LinePreview,
    },
    /// A kind this client does not know; ignored.
    Unknown {
        kind: String,
    },
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ConversationChange {
    pub contact: String,
    #[serde(default)]
    pub agent: Option<String>,
    #[serde(default, with = "time::opt")]
    pub at: Option<DateTime<Utc>>,
}

/// `snooze_changed`: a snooze as the hub keeps it (`crate::hub` module
/// `snoozes`), or its end.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SnoozeChange {
    pub contact: String,
    #[serde(default, with = "time::opt")]
    pub until: Option<DateTime<Utc>>,
    #[serde(default)]
    pub until_reply: bool,
    #[serde(default)]
    pub agent: Option<String>,
    #[serde(default, with = "time::opt")]
    pub since: Option<DateTime<Utc>>,
}

impl SnoozeChange {
    /// True when the conversation was woken (no snooze left).
    pub fn is_wake(&self) -> bool {
        self.until.is_none() && !self.until_reply
    }
}

/// `service_status`: the service as the hub sees it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ServiceStatus {
    pub state: ServiceState,
    #[serde(default, with = "time::opt")]
    pub since: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServiceState {
    Up,
    Down,
    Limited,
    #[serde(other)]
    Other,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Presence {
    pub agent: String,
    pub contact: String,
    pub state: PresenceState,
    #[serde(default, with = "time::opt")]
    pub expires_at: Option<DateTime<Utc>>,
}

#[derive(Deserialize)]
struct ContactChanged {
    contact: Contact,
}

#[derive(Deserialize)]
struct ContactDeleted {
    uuid: String,
}

#[derive(Deserialize)]
struct MessageCreated {
    contact: String,
    message: Message,
    #[serde(default)]
    agent: Option<String>,
}

#[derive(Deserialize)]
struct MessageStatus {
    contact: String,
    message: String,
    status: DeliveryStatus,
}

#[derive(Deserialize)]
struct AgentStatus {
    agent: String,
    #[serde(default)]
    status: serde_json::Value,
}

#[derive(Deserialize)]
struct Resync {
    #[serde(default)]
    reason: String,
}

#[derive(Deserialize)]
struct LastMessage {
    contact: String,
    #[serde(rename = "hubPreview")]
    preview: LinePreview,
}

/// Why an event's data could not be read (the kind is known).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the hub's {kind} event could not be read: {reason}")]
pub struct BadEvent {
    pub kind: String,
    pub reason: String,
}

impl HubEvent {
    /// The kind as on the wire.
    pub fn kind(&self) -> &str {
        match self {
            HubEvent::ContactChanged { .. } => "contact_changed",
            HubEvent::ContactDeleted { .. } => "contact_deleted",
            HubEvent::MessageCreated { .. } => "message_created",
            HubEvent::MessageStatus { .. } => "message_status",
            HubEvent::ConversationOpened(_) => "conversation_opened",
            HubEvent::ConversationClosed(_) => "conversation_closed",
            HubEvent::Presence(_) => "presence",
            HubEvent::AgentStatus { .. } => "agent_status",
            HubEvent::SnoozeChanged(_) => "snooze_changed",
            HubEvent::ServiceStatus(_) => "service_status",
            HubEvent::Resync { .. } => "resync",
            HubEvent::LastMessage { .. } => "last_message",
            HubEvent::Unknown { kind } => kind,
        }
    }

    /// The contact it is about, if any.
    pub fn contact(&self) -> Option<&str> {
        match self {
            HubEvent::ContactChanged { contact } => Some(&contact.uuid),
            HubEvent::ContactDeleted { uuid } => Some(uuid),
            HubEvent::MessageCreated { contact, .. }
            | HubEvent::MessageStatus { contact, .. }
            | HubEvent::LastMessage { contact, .. } => Some(contact),
            HubEvent::ConversationOpened(c) | HubEvent::ConversationClosed(c) => Some(&c.contact),
            HubEvent::Presence(p) => Some(&p.contact),
            HubEvent::SnoozeChanged(s) => Some(&s.contact),
            HubEvent::AgentStatus { .. }
            | HubEvent::ServiceStatus(_)
            | HubEvent::Resync { .. }
            | HubEvent::Unknown { .. } => None,
        }
    }

    /// The agent who acted, if the hub named one.
    pub fn agent(&self) -> Option<&str> {
        match self {
            HubEvent::MessageCreated { agent, .. } => agent.as_deref(),
            HubEvent::ConversationOpened(c) | HubEvent::ConversationClosed(c) => c.agent.as_deref(),
            HubEvent::Presence(p) => Some(&p.agent),
            HubEvent::AgentStatus { agent, .. } => Some(agent),
            HubEvent::SnoozeChanged(s) => s.agent.as_deref(),
            _ => None,
        }
    }

    /// Decodes one event from its kind and data.
    pub fn decode(kind: &str, data: &str) -> Result<HubEvent, BadEvent> {
        fn read<T: DeserializeOwned>(kind: &str, data: &str) -> Result<T, BadEvent> {
            serde_json::from_str(data).map_err(|e| BadEvent {
                kind: crate::text::sanitize_line(kind),
                reason: e.to_string(),
            })
        }
        Ok(match kind {
            "contact_changed" => {
                let c: ContactChanged = read(kind, data)?;
                HubEvent::ContactChanged {
                    contact: Box::new(c.contact),
                }
            }
            "contact_deleted" => HubEvent::ContactDeleted {
                uuid: read::<ContactDeleted>(kind, data)?.uuid,
            },
            "message_created" => {
                let mut m: MessageCreated = read(kind, data)?;
                // A hub from before it said `sent` for an agent's send gave
                // the send's delivery status ("enqueued"): it is our side's
                // message all the same.
                if m.agent.is_some()
                    && let crate::api::MessageStatus::Other(s) = &m.message.status
                    && ["enqueued", "delivered", "read", "failed"].contains(&s.as_str())
                {
                    m.message.status = crate::api::MessageStatus::Sent;
                }
                HubEvent::MessageCreated {
                    contact: m.contact,
                    message: m.message,
                    agent: m.agent,
                }
            }
            "message_status" => {
                let m: MessageStatus = read(kind, data)?;
                HubEvent::MessageStatus {
                    contact: m.contact,
                    message: m.message,
                    status: m.status,
                }
            }
            "conversation_opened" => HubEvent::ConversationOpened(read(kind, data)?),
            "conversation_closed" => HubEvent::ConversationClosed(read(kind, data)?),
            "presence" => HubEvent::Presence(read(kind, data)?),
            "agent_status" => {
                let a: AgentStatus = read(kind, data)?;
                HubEvent::AgentStatus {
                    agent: a.agent,
                    status: a.status,
                }
            }
            "snooze_changed" => HubEvent::SnoozeChanged(read(kind, data)?),
            "service_status" => HubEvent::ServiceStatus(read(kind, data)?),
            "resync" => HubEvent::Resync {
                reason: read::<Resync>(kind, data)?.reason,
            },
            "last_message" => {
                let m: LastMessage = read(kind, data)?;
                HubEvent::LastMessage {
                    contact: m.contact,
                    preview: m.preview,
                }
            }
            other => HubEvent::Unknown {
                kind: other.to_string(),
            },
        })
    }
}
