//! Results of the thread's requests.

use crate::api::{ApiError, Message, MessageSendRequest, Page};
use crate::tui::shared::ReqId;

/// Which thread request a messages page answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThreadFetch {
    /// The newest batch of a newly selected contact.
    Initial,
    /// An older batch (scrolled to the top).
    Older,
    /// The periodic refresh of the newest batch.
    Refresh,
}

#[derive(Debug, Clone)]
pub enum ThreadMsg {
    /// A page of `contact`'s messages, newest first.
    Loaded {
        id: ReqId,
        contact: String,
        fetch: ThreadFetch,
        result: Result<Page<Message>, ApiError>,
    },
    Deleted {
        id: ReqId,
        key: String,
        result: Result<(), ApiError>,
    },
    Status {
        id: ReqId,
        result: Result<MessageSendRequest, ApiError>,
    },
    /// The answer to an internal note (`N`).
    Noted { id: ReqId, result: Result<(), ApiError> },
    /// The answer to a funnel move (`T` in the thread).
    FunnelSet {
        id: ReqId,
        result: Result<Box<crate::api::Contact>, ApiError>,
    },
    /// The system's opener was given `url` (`o`).
    Opened { url: String, outcome: Opened },
    /// An image preview was fetched (or failed): draw again.
    PreviewReady,
}

/// What became of an `o`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opened {
    Launched,
    /// Over SSH the opener would run on the far host: copy it instead.
    CopyOverSsh,
    /// No opener installed here: copy it instead.
    NoOpener,
    Failed(String),
}

impl ThreadMsg {
    /// What failed, for the log.
    pub fn failure(&self) -> Option<(&'static str, &ApiError)> {
        match self {
            ThreadMsg::Loaded { result: Err(e), .. } => Some(("list messages", e)),
            ThreadMsg::Deleted { result: Err(e), .. } => Some(("delete message", e)),
            ThreadMsg::Status { result: Err(e), .. } => Some(("message status", e)),
            ThreadMsg::Noted { result: Err(e), .. } => Some(("write a note", e)),
            ThreadMsg::FunnelSet { result: Err(e), .. } => Some(("move to a funnel", e)),
            _ => None,
        }
    }
}
