//! The selected contact's messages.

use crate::api::Message;
use crate::tui::msg::ReqId;

#[derive(Debug, Clone, Default)]
pub struct Thread {
    /// Whose thread this is (set as soon as the selection settles).
    pub contact: Option<String>,
    /// Oldest first: the view draws them top to bottom.
    pub messages: Vec<Message>,
    /// Cursor of the next older batch.
    pub older: Option<String>,
    pub loaded: bool,
    pub loading: Option<ReqId>,
    pub loading_older: Option<ReqId>,
    pub refreshing: Option<ReqId>,
    /// Lines scrolled up from the bottom (0: pinned to the newest).
    pub scroll: usize,
    /// Messages at or after this index arrived while the thread was open.
    pub new_from: Option<usize>,
    pub error: Option<String>,
}

impl Thread {
    /// A stable identity for merging refreshed batches (notes have no uuid).
    pub fn key(m: &Message) -> String {
        match &m.uuid {
            Some(u) => u.clone(),
            None => format!("{:?}|{}|{}", m.created_at, m.status, m.text),
        }
    }
}
