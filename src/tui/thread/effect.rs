//! What the thread asks of the effect runner.

use std::time::Duration;

use super::msg::ThreadFetch;
use crate::api::PageRequest;
use crate::tui::shared::ReqId;

#[derive(Debug, Clone, PartialEq)]
pub enum ThreadEffect {
    /// A page of `contact`'s messages.
    Fetch {
        id: ReqId,
        contact: String,
        fetch: ThreadFetch,
        at: PageRequest,
    },
    /// DELETE /messages for the message with `key` in the thread.
    Delete { id: ReqId, uuid: String, key: String },
    /// GET /messages/status/:uuid after `after` (the details poll).
    Status { id: ReqId, uuid: String, after: Duration },
    /// POST /contacts/:uuid/conversation/note (`N`).
    Note { id: ReqId, contact: String, text: String },
    /// PUT /contacts/:uuid/conversation/update_funnel (`T` in the thread).
    Funnel { id: ReqId, contact: String, funnel: String },
    /// The system's opener on a message's link (`o`).
    Open { url: String },
}
