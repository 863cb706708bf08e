//! What the composer's effects answer: a send, a status poll.

use crate::api::{ApiError, MessageSendRequest, SentMessage};
use crate::tui::shared::ReqId;

#[derive(Debug, Clone)]
pub enum ComposeMsg {
    Sent {
        id: ReqId,
        contact: String,
        result: Result<SentMessage, ApiError>,
    },
    Status {
        id: ReqId,
        uuid: String,
        result: Result<MessageSendRequest, ApiError>,
    },
}

impl ComposeMsg {
    /// What failed, for the log file.
    pub fn failure(&self) -> Option<(&'static str, &ApiError)> {
        match self {
            ComposeMsg::Sent { result: Err(e), .. } => Some(("send message", e)),
            ComposeMsg::Status { result: Err(e), .. } => Some(("message status", e)),
            _ => None,
        }
    }
}
