//! Requests about single messages of the thread: delete, delivery status.

use std::time::Duration;

use crate::api::{Client, MessageId};
use crate::tui::msg::ReqId;
use crate::tui::msg::thread::ThreadMsg;

#[derive(Debug, Clone, PartialEq)]
pub enum ThreadEffect {
    /// DELETE /messages for the message with `key` in the thread.
    Delete { id: ReqId, uuid: String, key: String },
    /// GET /messages/status/:uuid after `after` (the details poll).
    Status { id: ReqId, uuid: String, after: Duration },
}

pub async fn perform(client: Client, effect: ThreadEffect) -> ThreadMsg {
    match effect {
        ThreadEffect::Delete { id, uuid, key } => ThreadMsg::Deleted {
            id,
            key,
            result: client.delete_message(&MessageId::new(uuid)).await.map(|_| ()),
        },
        ThreadEffect::Status { id, uuid, after } => {
            tokio::time::sleep(after).await;
            ThreadMsg::Status {
                id,
                result: client.message_status(&MessageId::new(uuid)).await,
            }
        }
    }
}
