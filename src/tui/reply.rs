//! Replying from the thread: the messages and effects of the composer, and
//! how the runner performs them. The state lives in `model::compose`, the
//! logic in `update::compose`, the drawing in `view::compose`.

use std::time::Duration;

use crate::api::{Client, SendMessage};

pub use super::msg::compose::ComposeMsg;
use super::msg::{Msg, ReqId};

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

pub async fn perform(client: Client, effect: ComposeEffect) -> Msg {
    Msg::Compose(match effect {
        ComposeEffect::Send { id, contact, body } => {
            let result = client.send_message(&body).await;
            ComposeMsg::Sent { id, contact, result }
        }
        ComposeEffect::PollStatus { id, uuid, after } => {
            tokio::time::sleep(after).await;
            let result = client.message_status(&crate::api::MessageId::new(uuid.clone())).await;
            ComposeMsg::Status { id, uuid, result }
        }
    })
}
