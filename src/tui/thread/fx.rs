//! The thread's requests: its pages, and a message's delete and delivery
//! status.

use std::time::Duration;

use super::msg::{ThreadFetch, ThreadMsg};
use crate::api::{Client, ContactId, MessageId, PageRequest};
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

pub async fn perform(client: Client, effect: ThreadEffect) -> ThreadMsg {
    match effect {
        ThreadEffect::Fetch { id, contact, fetch, at } => {
            let result = client.list_messages(&ContactId::new(contact.clone()), &at).await;
            ThreadMsg::Loaded {
                id,
                contact,
                fetch,
                result,
            }
        }
        ThreadEffect::Delete { id, uuid, key } => ThreadMsg::Deleted {
            id,
            key,
            result: client.delete_message(&MessageId::new(uuid)).await.map(|_| ()),
        },
        ThreadEffect::Note { id, contact, text } => ThreadMsg::Noted {
            id,
            result: client.add_note(&ContactId::new(contact), &text).await,
        },
        ThreadEffect::Funnel { id, contact, funnel } => ThreadMsg::FunnelSet {
            id,
            result: client.set_funnel(&ContactId::new(contact), &funnel).await.map(Box::new),
        },
        ThreadEffect::Open { url } => {
            let outcome = super::open::launch(&url).await;
            ThreadMsg::opened(url, outcome)
        }
        ThreadEffect::Status { id, uuid, after } => {
            tokio::time::sleep(after).await;
            ThreadMsg::Status {
                id,
                result: client.message_status(&MessageId::new(uuid)).await,
            }
        }
    }
}
