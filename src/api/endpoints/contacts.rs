//! Contacts: list (pages and cursors), get, create, update, close, open.

use futures::stream::BoxStream;
use reqwest::Method;

use super::params::{checked_id, comma_joined};
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::{Contact, ContactId};
use crate::api::page::{MAX_CONTACT_PAGE, Page, PageRequest, collect_pages, walk_cursor};
use crate::api::request::{ContactFilter, ContactPatch, NewContact};

const CONTACT: &[&str] = &["contact", "contacts"];

/// GET /contacts with `filter` at `at`; refuses pages above 500 before
/// any request, like the service would.
fn list_call(filter: &ContactFilter, at: &PageRequest) -> Result<Call, ApiError> {
    let mut call = Call::get(&["contacts"]);
    match at {
        PageRequest::First => {}
        PageRequest::Number(n) if *n > MAX_CONTACT_PAGE => {
            return Err(ApiError::Pagination("Pagination limit exceeded".into()));
        }
        PageRequest::Number(n) => call = call.query("page", n.to_string()),
        PageRequest::After(cursor) => call = call.query("after", cursor.clone()),
    }
    call = call
        .query_opt("source", filter.source.clone())
        .query_opt("tags", comma_joined(&filter.tags))
        .query_opt("team_uuid", filter.team_uuid.clone());
    if filter.include_field_types {
        call = call.query("include_field_types", "true");
    }
    Ok(call.about("contact list", ""))
}

impl Client {
    /// GET /contacts.
    pub async fn list_contacts(&self, filter: &ContactFilter, at: &PageRequest) -> Result<Page<Contact>, ApiError> {
        let call = list_call(filter, at)?;
        self.fetch(&call).await?.page(&["contacts"])
    }

    /// Walks GET /contacts by cursor from the first batch until `meta.next`
    /// is null, resending `filter` each time. Ends with
    /// `ApiError::Pagination` if a cursor repeats.
    pub fn walk_contacts(&self, filter: ContactFilter) -> BoxStream<'static, Result<Page<Contact>, ApiError>> {
        let client = self.clone();
        walk_cursor(move |at| {
            let client = client.clone();
            let filter = filter.clone();
            async move { client.list_contacts(&filter, &at).await }
        })
    }

    /// Every contact matching `filter`, each once, even under live
    /// traffic (see [`Client::walk_contacts_complete`]).
    pub async fn all_contacts(&self, filter: ContactFilter) -> Result<Vec<Contact>, ApiError> {
        collect_pages(self.walk_contacts_complete(filter)).await
    }

    /// GET /contacts/:uuid.
    pub async fn get_contact(&self, uuid: &ContactId, include_field_types: bool) -> Result<Contact, ApiError> {
        let uuid = checked_id("contact", uuid)?;
        let mut call = Call::get(&["contacts", uuid]).about("contact", uuid);
        if include_field_types {
            call = call.query("include_field_types", "true");
        }
        self.fetch(&call).await?.one(CONTACT)
    }

    /// POST /contacts (never retried).
    pub async fn create_contact(&self, body: &NewContact) -> Result<Contact, ApiError> {
        let call = Call::new(Method::POST, &["contacts"])
            .json(body)?
            .idempotent(false)
            .about("contact list", "");
        self.fetch(&call).await?.one(CONTACT)
    }

    /// PATCH /contacts/:uuid. Retried: the same patch gives the same
    /// contact.
    pub async fn update_contact(&self, uuid: &ContactId, patch: &ContactPatch) -> Result<Contact, ApiError> {
        let uuid = checked_id("contact", uuid)?;
        let call = Call::new(Method::PATCH, &["contacts", uuid])
            .json(patch)?
            .idempotent(true)
            .about("contact", uuid);
        self.fetch(&call).await?.one(CONTACT)
    }

    /// POST /contacts/:uuid/conversation/close (idempotent, retried).
    pub async fn close_conversation(&self, uuid: &ContactId) -> Result<Contact, ApiError> {
        self.conversation(uuid, "close").await
    }

    /// POST /contacts/:uuid/conversation/open (idempotent, retried).
    pub async fn open_conversation(&self, uuid: &ContactId) -> Result<Contact, ApiError> {
        self.conversation(uuid, "open").await
    }

    async fn conversation(&self, uuid: &str, action: &str) -> Result<Contact, ApiError> {
        let uuid = checked_id("contact", uuid)?;
        let call = Call::new(Method::POST, &["contacts", uuid, "conversation", action])
            .idempotent(true)
            .about("contact", uuid);
        self.fetch(&call).await?.one(CONTACT)
    }
}

#[cfg(test)]
mod tests;
