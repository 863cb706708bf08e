//! Addressing a send as the documentation asks: POST /messages/send needs
//! `channel_uuid` (the channel the message goes out from), `from` (that
//! channel's type) and `to` (a phone number) or else `bsuid`.

use futures::StreamExt;

use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::{Channel, Contact, ContactId, SentMessage};
use crate::api::request::SendMessage;

/// Why a contact cannot be written to: said before anything is sent.
pub const NO_RECIPIENT: &str = "the contact has neither a phone number nor a bsuid to send to";

impl Client {
    /// Reads the contact (GET /contacts/:uuid), then [`Client::send_to`].
    pub async fn send_to_contact(&self, uuid: &ContactId, body: SendMessage) -> Result<SentMessage, ApiError> {
        let contact = self.get_contact(uuid, false).await?;
        self.send_to(&contact, body).await
    }

    /// Sends `body` to `contact`: from the channel `body` names, else the
    /// contact's channel, else the account's main channel (GET /channels);
    /// `from` that channel's type; `to` the contact's phone number, or
    /// else its `bsuid`. A contact with neither is refused here, before
    /// anything is sent. A refusal by the service keeps its own message.
    pub async fn send_to(&self, contact: &Contact, mut body: SendMessage) -> Result<SentMessage, ApiError> {
        let phone = contact.phone_number.trim();
        let bsuid = contact.bsuid.as_deref().map(str::trim).filter(|b| !b.is_empty());
        match (phone.is_empty(), bsuid) {
            (false, _) => {
                body.to = phone.to_string();
                body.bsuid = None;
            }
            (true, Some(b)) => {
                body.to = String::new();
                body.bsuid = Some(b.to_string());
            }
            (true, None) => return Err(ApiError::Config(NO_RECIPIENT.into())),
        }
        let channel = match body.channel_uuid.as_deref().filter(|c| !c.trim().is_empty()) {
            Some(asked) if contact.channel_uuid() == Some(asked) => contact.channel.clone(),
            Some(asked) => self.find_channel(|c| c.uuid == asked).await?,
            None if contact.channel_uuid().is_some() => contact.channel.clone(),
            None => self.find_channel(|c| c.main).await?,
        };
        if let Some(ch) = &channel {
            body.channel_uuid = Some(ch.uuid.clone());
        }
        let kind = channel
            .as_ref()
            .map(|c| c.channel_type.as_str().trim())
            .unwrap_or_default();
        body.from = if !kind.is_empty() {
            kind.to_string()
        } else if !body.from.trim().is_empty() {
            body.from.trim().to_string()
        } else if !contact.source.trim().is_empty() {
            contact.source.trim().to_string()
        } else {
            "whatsapp".to_string()
        };
        self.send_message(&body).await
    }

    /// The first channel of GET /channels that `wanted` accepts (the main
    /// one, or one named by uuid); `None` when the server lists none such
    /// or does not list channels (the send then goes without, and the
    /// service says what it thinks of that).
    async fn find_channel(&self, wanted: impl Fn(&Channel) -> bool) -> Result<Option<Channel>, ApiError> {
        let mut pages = self.walk_channels(None);
        while let Some(page) = pages.next().await {
            match page {
                Ok(page) => {
                    if let Some(c) = page.items.into_iter().find(|c| wanted(c)) {
                        return Ok(Some(c));
                    }
                }
                Err(ApiError::NotOffered { .. } | ApiError::NotFound { .. }) => return Ok(None),
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }
}
