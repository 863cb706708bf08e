//! Request bodies and query filters.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

/// Filters of GET /contacts. They are resent with every cursor request (the
/// cursor does not hold them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContactFilter {
    pub source: Option<String>,
    /// Matched case-insensitively by the server; sent comma-separated.
    pub tags: Vec<String>,
    pub team_uuid: Option<String>,
    /// Ask for `customFieldsMetadata` on every contact.
    pub include_field_types: bool,
}

impl ContactFilter {
    /// True when no filter narrows the list.
    pub fn is_empty(&self) -> bool {
        self.source.is_none() && self.tags.is_empty() && self.team_uuid.is_none()
    }
}

/// Bot action for POST /contacts/:uuid/bot and `bot_status` in writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum BotAction {
    #[serde(rename = "bot_start")]
    Start,
    #[serde(rename = "bot_end")]
    End,
}

/// Body of POST /contacts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct NewContact {
    pub identifier: String,
    pub source: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Values already checked with `validate_field_value`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_fields: Option<BTreeMap<String, serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_user: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_uuid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel_uuid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot_status: Option<BotAction>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Body of PATCH /contacts/:uuid. `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ContactPatch {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_fields: Option<BTreeMap<String, serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_user: Option<String>,
    /// `Some(true)` removes the assigned collaborator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unassign_user: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_uuid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot_status: Option<BotAction>,
    /// Three states: `None` leaves the note, `Some("")` clears it,
    /// `Some(text)` sets it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl ContactPatch {
    /// True when the patch would change nothing.
    pub fn is_empty(&self) -> bool {
        *self == ContactPatch::default()
    }
}

/// What a status update does to the custom status: three different requests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CustomStatusChange {
    /// Key absent: leave it.
    #[default]
    Keep,
    /// `null`: unassign it.
    Clear,
    /// Set this custom status id.
    Set(String),
}

/// Body of PUT /users/:uuid/status.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserStatusUpdate {
    /// `Some(true)` available, `Some(false)` away, `None` leave it.
    pub available: Option<bool>,
    pub custom_status: CustomStatusChange,
}

impl Serialize for UserStatusUpdate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        if let Some(a) = self.available {
            map.serialize_entry("available", &a)?;
        }
        match &self.custom_status {
            CustomStatusChange::Keep => {}
            CustomStatusChange::Clear => map.serialize_entry("custom_status_uuid", &serde_json::Value::Null)?,
            CustomStatusChange::Set(id) => map.serialize_entry("custom_status_uuid", id)?,
        }
        map.end()
    }
}

/// Text content of a sent message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MessageContent {
    /// The text, or a media message's caption.
    pub text: String,
    /// A media message's file (an http(s) URL the service fetches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// Body of POST /messages/send.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SendMessage {
    /// The contact's identifier (phone number for the messaging app);
    /// left out when empty (then `bsuid` names the recipient).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub to: String,
    /// WhatsApp Business Suite User ID: the recipient when `to` is empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bsuid: Option<String>,
    /// Channel type, e.g. `messaging_app`.
    pub from: String,
    /// `text` (also used for template sends, which add `template_uuid`).
    #[serde(rename = "type")]
    pub message_type: String,
    pub content: MessageContent,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel_uuid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template_uuid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optin_contact: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template_values: Option<Vec<String>>,
}

impl SendMessage {
    /// A free-text message (refused by the service when the contact's last
    /// received message is older than 24 hours).
    pub fn text(to: impl Into<String>, from: impl Into<String>, text: impl Into<String>) -> Self {
        SendMessage {
            to: to.into(),
            from: from.into(),
            message_type: "text".into(),
            content: MessageContent {
                text: text.into(),
                url: None,
            },
            ..Default::default()
        }
    }

    /// A template message with its placeholder values: one value goes in
    /// `content.text` (the documentation's one-variable template), several
    /// in `template_values`.
    pub fn template(
        to: impl Into<String>,
        from: impl Into<String>,
        template_uuid: impl Into<String>,
        values: Vec<String>,
    ) -> Self {
        SendMessage {
            to: to.into(),
            from: from.into(),
            message_type: "text".into(),
            template_uuid: Some(template_uuid.into()),
            optin_contact: Some(true),
            content: MessageContent {
                text: match values.as_slice() {
                    [one] => one.clone(),
                    _ => String::new(),
                },
                url: None,
            },
            template_values: (values.len() > 1).then_some(values),
            ..Default::default()
        }
    }
}

impl SendMessage {
    /// A media message (`image`, `document`, `audio`, `video`) of the file
    /// at `url`, with `caption` as its text when not empty.
    pub fn media(
        to: impl Into<String>,
        from: impl Into<String>,
        kind: &str,
        url: impl Into<String>,
        caption: impl Into<String>,
    ) -> Self {
        SendMessage {
            to: to.into(),
            from: from.into(),
            message_type: kind.to_string(),
            content: MessageContent {
                text: caption.into(),
                url: Some(url.into()),
            },
            ..Default::default()
        }
    }
}

/// Filters of GET /webhooks/events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventQuery {
    /// `failed` or `success`.
    pub status: Option<String>,
    /// Event kinds, sent comma-separated.
    pub subscriptions: Vec<String>,
    pub page: Option<u32>,
    /// Items per page.
    pub items: Option<u32>,
}

/// Body of POST /custom_statuses and PUT /custom_statuses/:id.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CustomStatusBody {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emoji: Option<String>,
}
