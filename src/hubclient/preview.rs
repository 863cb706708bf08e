//! A conversation's last message as the hub carries it beside a contact
//! (a snapshot line's `hubPreview`, a `last_message` event), and the page
//! it stands for.

use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::api::{Message, MessageStatus};

/// The `hubPreview` of a snapshot line (and of a `last_message` event).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LinePreview {
    #[serde(default, with = "crate::api::model::time::opt")]
    pub(super) activity: Option<DateTime<Utc>>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    text: String,
    #[serde(default, with = "crate::api::model::time::opt")]
    created_at: Option<DateTime<Utc>>,
    #[serde(default, with = "crate::api::model::time::opt")]
    last_customer_at: Option<DateTime<Utc>>,
    #[serde(default, with = "crate::api::model::time::opt")]
    last_reply_at: Option<DateTime<Utc>>,
    /// The agent the hub named as the last reply's sender.
    #[serde(default)]
    last_reply_by: Option<String>,
    /// The customer's first unanswered message, when they wait.
    #[serde(default, with = "crate::api::model::time::opt")]
    waiting_since: Option<DateTime<Utc>>,
}

/// A message of the page a line stands for.
fn message(status: &str, text: String, created_at: Option<DateTime<Utc>>) -> Message {
    Message {
        uuid: None,
        text,
        created_at,
        status: MessageStatus::from(status),
        channel: String::new(),
        from: String::new(),
        to: String::new(),
        sent_by: None,
        rich: Default::default(),
    }
}

impl LinePreview {
    /// The contact's activity the last message is as of.
    pub fn activity(&self) -> Option<DateTime<Utc>> {
        self.activity
    }

    /// The page it stands for: the last message (none for a conversation
    /// without messages), then the waiting facts where the last message is
    /// not them already, as messages without text, newest first. The last
    /// reply carries the agent the hub named, and the customer's first
    /// unanswered message is there, so the page waits as the hub's does.
    pub fn page(self) -> Vec<Message> {
        let status = self.status.clone().unwrap_or_default();
        let mut messages = if self.status.is_none() && self.created_at.is_none() && self.text.is_empty() {
            Vec::new()
        } else {
            vec![message(&status, self.text, self.created_at)]
        };
        let since = self.waiting_since.filter(|s| Some(*s) != self.last_customer_at);
        // All older than the last message (it is the newest).
        for (kind, at) in [
            ("received", self.last_customer_at),
            ("sent", self.last_reply_at),
            ("received", since),
        ] {
            let Some(at) = at else { continue };
            let is_last = status == kind && self.created_at == Some(at);
            if !is_last && self.created_at.is_none_or(|last| at <= last) {
                messages.push(message(kind, String::new(), Some(at)));
            }
        }
        if let Some(by) = self.last_reply_by.filter(|b| !b.trim().is_empty()) {
            let reply = messages
                .iter_mut()
                .find(|m| m.status == MessageStatus::Sent && m.created_at == self.last_reply_at);
            if let Some(m) = reply {
                m.sent_by = Some(by);
            }
        }
        let from = 1.min(messages.len());
        messages[from..].sort_by_key(|m| std::cmp::Reverse(m.created_at));
        messages
    }
}
