//! What the composer's effects answer: a send, a status poll, the drafts
//! kept on disk.

use crate::api::{ApiError, MessageSendRequest, SentMessage};
use crate::drafts::Draft;
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
    /// Typing paused (the timer `id`): the draft is written if no key
    /// came since.
    DraftPause(ReqId),
    /// The drafts kept for the account (at start), or why not.
    DraftsListed(Result<Vec<Draft>, String>),
    /// The drafts directory changed since it was last listed (a draft of
    /// ours, or one another process wrote): the drafts in it now.
    DraftsChanged {
        stamp: Option<crate::stamp::Stamp>,
        drafts: Result<Vec<Draft>, String>,
    },
    /// The drafts directory is as it was last listed.
    DraftsUnchanged,
    /// `contact`'s kept draft, if any (the composer opened on it).
    DraftLoaded {
        contact: String,
        result: Result<Option<Draft>, String>,
    },
    /// A draft was written or deleted (or why not).
    DraftKept(Result<(), String>),
    /// The editor on `contact`'s draft returned: the text it saved, or
    /// why there is none (the draft stays as it was).
    Edited {
        contact: String,
        result: Result<String, String>,
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
