//! The documented contact endpoints beyond the reference: internal notes,
//! a conversation's funnel, lookups by phone number and by bsuid, and
//! deleting a contact.

use reqwest::Method;
use serde_json::json;

use super::params::checked_id;
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::{Contact, ContactId};

const CONTACT: &[&str] = &["contact", "contacts"];

impl Client {
    /// POST /contacts/:uuid/conversation/note: an internal note on the
    /// contact's conversation (`@` tags a colleague). Never retried: a
    /// second try would write it twice.
    pub async fn add_note(&self, uuid: &ContactId, text: &str) -> Result<(), ApiError> {
        let uuid = checked_id("contact", uuid)?;
        let call = Call::new(Method::POST, &["contacts", uuid, "conversation", "note"])
            .json(&json!({ "text": text }))?
            .idempotent(false)
            .about("contact", uuid)
            .offered("internal notes");
        self.run(&call).await.map(|_| ())
    }

    /// PUT /contacts/:uuid/conversation/update_funnel: moves the
    /// conversation to `funnel_uuid`. The documentation shows no body; the
    /// funnel goes as `funnel_uuid`. Its answer's `contact` is a list of one.
    pub async fn set_funnel(&self, uuid: &ContactId, funnel_uuid: &str) -> Result<Contact, ApiError> {
        let uuid = checked_id("contact", uuid)?;
        let funnel = checked_id("funnel", funnel_uuid)?;
        let call = Call::new(Method::PUT, &["contacts", uuid, "conversation", "update_funnel"])
            .json(&json!({ "funnel_uuid": funnel }))?
            .idempotent(true)
            .about("contact", uuid)
            .offered("moving a conversation's funnel");
        self.fetch(&call).await?.one(CONTACT)
    }

    /// GET /contacts/phone/:number, on `channel_uuid`'s channel when given.
    /// A number nobody has is `NotFound`.
    pub async fn contact_by_phone(&self, number: &str, channel_uuid: Option<&str>) -> Result<Contact, ApiError> {
        let number = checked_id("phone number", number)?;
        let call = Call::get(&["contacts", "phone", number])
            .query_opt("channel_uuid", channel_uuid)
            .about("contact with phone number", number)
            .offered("looking contacts up by phone number");
        self.fetch(&call).await?.one(CONTACT)
    }

    /// GET /contacts/bsuid/:bsuid. A bsuid nobody has is `NotFound`.
    pub async fn contact_by_bsuid(&self, bsuid: &str) -> Result<Contact, ApiError> {
        let bsuid = checked_id("bsuid", bsuid)?;
        let call = Call::get(&["contacts", "bsuid", bsuid])
            .about("contact with bsuid", bsuid)
            .offered("looking contacts up by bsuid");
        self.fetch(&call).await?.one(CONTACT)
    }

    /// DELETE /contacts/:uuid. Cannot be undone. Retried: a second delete
    /// of a deleted contact is a `NotFound`, which the caller may read as
    /// done.
    pub async fn delete_contact(&self, uuid: &ContactId) -> Result<(), ApiError> {
        let uuid = checked_id("contact", uuid)?;
        let call = Call::new(Method::DELETE, &["contacts", uuid])
            .about("contact", uuid)
            .offered("deleting contacts");
        self.run(&call).await.map(|_| ())
    }
}
