//! Results of the thread's message requests.

use crate::api::{ApiError, MessageSendRequest};
use crate::tui::msg::req::ReqId;

#[derive(Debug, Clone)]
pub enum ThreadMsg {
    Deleted {
        id: ReqId,
        key: String,
        result: Result<(), ApiError>,
    },
    Status {
        id: ReqId,
        result: Result<MessageSendRequest, ApiError>,
    },
}

impl ThreadMsg {
    /// What failed, for the log.
    pub fn failure(&self) -> Option<(&'static str, &ApiError)> {
        match self {
            ThreadMsg::Deleted { result: Err(e), .. } => Some(("delete message", e)),
            ThreadMsg::Status { result: Err(e), .. } => Some(("message status", e)),
            _ => None,
        }
    }
}
