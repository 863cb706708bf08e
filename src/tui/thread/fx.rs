//! The thread's requests: its pages, and a message's delete and delivery
//! status.

use super::effect::ThreadEffect;
use super::msg::ThreadMsg;
use crate::api::{Client, ContactId, MessageId};

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
