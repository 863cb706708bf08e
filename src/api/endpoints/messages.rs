//! Messages: a contact's thread, delete, send-request status, send.

use futures::stream::BoxStream;
use reqwest::{Method, StatusCode};

use super::params::checked_id;
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::{ContactId, Message, MessageId, MessageSendRequest, SentMessage};
use crate::api::page::{Page, PageRequest, walk_cursor};
use crate::api::request::SendMessage;

/// What a delete did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deletion {
    /// The message was deleted by this call's answer.
    Deleted,
    /// An attempt whose answer was lost deleted it; a retry found it gone.
    AlreadyGone,
}

impl Client {
    /// GET /contacts/:uuid/messages (newest first).
    pub async fn list_messages(&self, contact_uuid: &ContactId, at: &PageRequest) -> Result<Page<Message>, ApiError> {
        let uuid = checked_id("contact", contact_uuid)?;
        let mut call = Call::get(&["contacts", uuid, "messages"]).about("contact", uuid);
        match at {
            PageRequest::First => {}
            PageRequest::Number(n) => call = call.query("page", n.to_string()),
            PageRequest::After(cursor) => call = call.query("after", cursor.clone()),
        }
        self.fetch(&call).await?.page(&["messages"])
    }

    /// Walks a contact's messages by cursor to the end.
    pub fn walk_messages(&self, contact_uuid: &ContactId) -> BoxStream<'static, Result<Page<Message>, ApiError>> {
        let client = self.clone();
        let uuid = contact_uuid.clone();
        walk_cursor(move |at| {
            let client = client.clone();
            let uuid = uuid.clone();
            async move { client.list_messages(&uuid, &at).await }
        })
    }

    /// DELETE a message: body form first, path form on 404 or 405. A 404
    /// after an attempt that may have been carried out (a 5xx, a lost
    /// answer) means that attempt deleted it: `Deletion::AlreadyGone`.
    pub async fn delete_message(&self, uuid: &MessageId) -> Result<Deletion, ApiError> {
        let uuid = checked_id("message", uuid)?;
        let body_form = Call::new(Method::DELETE, &["messages"])
            .json(&serde_json::json!({ "uuid": uuid }))?
            .about("message", uuid);
        let (raw, earlier) = self.exchange_tracked(&body_form).await?;
        if raw.status.is_success() {
            return Ok(Deletion::Deleted);
        }
        if raw.status == StatusCode::NOT_FOUND && earlier {
            return Ok(Deletion::AlreadyGone);
        }
        if raw.status != StatusCode::NOT_FOUND && raw.status != StatusCode::METHOD_NOT_ALLOWED {
            return Err(self.status_error(&body_form, &raw));
        }
        let path_form = Call::new(Method::DELETE, &["messages", uuid]).about("message", uuid);
        let (raw, earlier) = self.exchange_tracked(&path_form).await?;
        if raw.status.is_success() {
            Ok(Deletion::Deleted)
        } else if raw.status == StatusCode::NOT_FOUND && earlier {
            Ok(Deletion::AlreadyGone)
        } else {
            Err(self.status_error(&path_form, &raw))
        }
    }

    /// GET /messages/status/:uuid.
    pub async fn message_status(&self, uuid: &MessageId) -> Result<MessageSendRequest, ApiError> {
        let uuid = checked_id("message", uuid)?;
        let call = Call::get(&["messages", "status", uuid]).about("message", uuid);
        self.fetch(&call).await?.one(&["message"])
    }

    /// POST /messages/send (never retried). A route-level 404 is
    /// `NotOffered`; a 404 naming the contact, channel or template is
    /// `NotFound`.
    pub async fn send_message(&self, body: &SendMessage) -> Result<SentMessage, ApiError> {
        let mut call = Call::new(Method::POST, &["messages", "send"])
            .json(body)?
            .idempotent(false)
            .offered("sending messages")
            .about(
                "contact",
                body.bsuid.as_deref().filter(|_| body.to.is_empty()).unwrap_or(&body.to),
            );
        if let Some(t) = &body.template_uuid {
            call = call.about("template", t);
        }
        if let Some(c) = &body.channel_uuid {
            call = call.about("channel", c);
        }
        self.fetch(&call).await?.one(&["message"])
    }
}
