//! The composer's requests: a send, and the status polls of a message
//! sent here.

use std::time::Duration;

use super::msg::ComposeMsg;
use crate::api::{Client, SendMessage};
use crate::tui::shared::ReqId;

/// Polls of a sent message's status, and the wait before each.
pub const MAX_POLLS: u8 = 5;
pub const POLL_EVERY: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, PartialEq)]
pub enum ComposeEffect {
    /// POST /messages/send (the client never retries it).
    Send {
        id: ReqId,
        contact: String,
        body: SendMessage,
    },
    /// GET /messages/status/:uuid after `after`.
    PollStatus { id: ReqId, uuid: String, after: Duration },
}

pub async fn perform(client: Client, effect: ComposeEffect) -> ComposeMsg {
    match effect {
        ComposeEffect::Send { id, contact, body } => {
            let result = client.send_message(&body).await;
            ComposeMsg::Sent { id, contact, result }
        }
        ComposeEffect::PollStatus { id, uuid, after } => {
            tokio::time::sleep(after).await;
            let result = client.message_status(&crate::api::MessageId::new(uuid.clone())).await;
            ComposeMsg::Status { id, uuid, result }
        }
    }
}
