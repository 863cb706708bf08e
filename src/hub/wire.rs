//! The hub's wire protocol (fixed; the client side in `src/hubclient`
//! decodes the same JSON with its own types). See `docs/hub.md`.

use axum::Json;
use axum::http::StatusCode;
use serde_json::{Value, json};

pub use crate::webhook::subscribe::SUBSCRIPTIONS;

/// The largest body the hub reads (a webhook delivery, a write): 1 MiB.
pub const MAX_BODY: usize = 1024 * 1024;

/// The 401 every agent route answers without a valid token.
pub const UNKNOWN_TOKEN: &str = "unknown or removed agent token";

/// Event kinds on `GET /hub/v1/events`.
pub mod kind {
    pub const CONTACT_CHANGED: &str = "contact_changed";
    pub const CONTACT_DELETED: &str = "contact_deleted";
    pub const MESSAGE_CREATED: &str = "message_created";
    pub const MESSAGE_STATUS: &str = "message_status";
    pub const CONVERSATION_OPENED: &str = "conversation_opened";
    pub const CONVERSATION_CLOSED: &str = "conversation_closed";
    pub const PRESENCE: &str = "presence";
    pub const AGENT_STATUS: &str = "agent_status";
    pub const RESYNC: &str = "resync";
    /// A conversation's last message the hub read itself (its trickle),
    /// as a snapshot line's `hubPreview`: no new message, so no alert.
    pub const LAST_MESSAGE: &str = "last_message";
    /// A snooze set or woken (`hub::snoozes`).
    pub const SNOOZE_CHANGED: &str = "snooze_changed";
}

/// `{"error": message}` with `status`.
pub fn error(status: StatusCode, message: &str) -> (StatusCode, Json<Value>) {
    (status, Json(json!({ "error": message })))
}
