//! What decides whether a conversation waits, beyond its last message:
//! when the customer last wrote and when the team last replied, read from
//! each conversation's cached latest page (a hub's snapshot carries them,
//! so a new agent's Waiting and Breaching are exact at once). The rule
//! that reads them is `preview`'s; this only gathers the facts.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::db::Index;
use super::error::IndexError;
use super::stamps::parse_stamp;

/// When the customer last wrote (`received`) and when the team last
/// replied (`sent`) in a conversation's cached page, and the agent a hub
/// named as that reply's sender (none: not named, so a reply within
/// seconds of the customer reads as automatic).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WaitingFacts {
    pub last_customer_at: Option<DateTime<Utc>>,
    pub last_reply_at: Option<DateTime<Utc>>,
    pub last_reply_by: Option<String>,
}

impl WaitingFacts {
    /// The facts of one page of messages (any order): the newest received
    /// and the newest sent message, as [`Index::waiting_facts`] reads them.
    pub fn of(messages: &[crate::api::Message]) -> WaitingFacts {
        use crate::api::MessageStatus;
        let newest = |status: MessageStatus| {
            messages
                .iter()
                .filter(|m| m.status == status)
                .filter_map(|m| m.created_at)
                .max()
        };
        let last_reply_at = newest(MessageStatus::Sent);
        let last_reply_by = messages
            .iter()
            .filter(|m| m.status == MessageStatus::Sent && m.created_at == last_reply_at)
            .find_map(|m| m.sent_by.clone().filter(|s| !s.trim().is_empty()));
        WaitingFacts {
            last_customer_at: newest(MessageStatus::Received),
            last_reply_at,
            last_reply_by,
        }
    }
}

impl Index {
    /// The waiting facts of every conversation with a cached page (by
    /// contact uuid), read by SQLite from the pages' JSON.
    pub fn waiting_facts(&self) -> Result<HashMap<String, WaitingFacts>, IndexError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT m.contact_uuid,
                (SELECT max(json_extract(e.value, '$.createdAt')) FROM json_each(m.json) e
                  WHERE json_extract(e.value, '$.status') = 'received'),
                (SELECT max(json_extract(e.value, '$.createdAt')) FROM json_each(m.json) e
                  WHERE json_extract(e.value, '$.status') = 'sent'),
                (SELECT json_extract(e.value, '$.sentBy') FROM json_each(m.json) e
                  WHERE json_extract(e.value, '$.status') = 'sent'
                  ORDER BY json_extract(e.value, '$.createdAt') DESC,
                           json_extract(e.value, '$.sentBy') IS NULL LIMIT 1)
             FROM messages m",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        })?;
        let mut out = HashMap::new();
        for row in rows {
            let (uuid, customer, reply, by) = row?;
            out.insert(
                uuid,
                WaitingFacts {
                    last_customer_at: parse_stamp(customer),
                    last_reply_at: parse_stamp(reply),
                    last_reply_by: by.filter(|s| !s.trim().is_empty()),
                },
            );
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Message, MessageStatus};

    fn message(status: &str, at: &str) -> Message {
        Message {
            uuid: None,
            text: "x".into(),
            created_at: DateTime::parse_from_rfc3339(at).ok().map(|t| t.with_timezone(&Utc)),
            status: MessageStatus::from(status),
            channel: String::new(),
            from: String::new(),
            to: String::new(),
            sent_by: None,
            rich: Default::default(),
        }
    }

    #[test]
    fn the_last_customer_message_and_the_last_reply_of_each_page() {
        let mut ix = Index::in_memory().unwrap();
        let c: crate::api::Contact = serde_json::from_str(r#"{"uuid":"u1","name":"Ana"}"#).unwrap();
        ix.upsert_contacts(&[c], Utc::now()).unwrap();
        let named = Message {
            sent_by: Some("alex".into()),
            ..message("sent", "2026-11-20T11:00:00Z")
        };
        let page = [
            message("note", "2026-11-20T12:00:00Z"),
            named,
            message("sent", "2026-11-20T10:30:00Z"),
            message("received", "2026-11-20T10:00:00Z"),
            message("received", "2026-11-20T09:00:00Z"),
        ];
        ix.store_messages("u1", None, &page).unwrap();
        assert_eq!(WaitingFacts::of(&page).last_reply_by.as_deref(), Some("alex"));
        let facts = ix.waiting_facts().unwrap();
        let at = |s: &str| DateTime::parse_from_rfc3339(s).ok().map(|t| t.with_timezone(&Utc));
        assert_eq!(
            facts["u1"],
            WaitingFacts {
                last_customer_at: at("2026-11-20T10:00:00Z"),
                last_reply_at: at("2026-11-20T11:00:00Z"),
                last_reply_by: Some("alex".into()),
            }
        );
    }
}
