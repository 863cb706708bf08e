//! Custom statuses (GET one is in api.md; the rest is extensions.md).

use futures::stream::BoxStream;
use reqwest::Method;

use super::params::{checked_id, page_param};
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::CustomStatus;
use crate::api::page::{Page, walk_numbered};
use crate::api::request::CustomStatusBody;

const ONE: &[&str] = &["customStatus", "custom_status"];

impl Client {
    /// GET /custom_statuses (extensions.md).
    pub async fn list_custom_statuses(&self, page: Option<u32>) -> Result<Page<CustomStatus>, ApiError> {
        let call = Call::get(&["custom_statuses"])
            .query_opt("page", page_param(page))
            .offered("a custom status list");
        self.fetch(&call).await?.page(&["customStatuses", "custom_statuses"])
    }

    /// Every page of GET /custom_statuses.
    pub fn walk_custom_statuses(&self) -> BoxStream<'static, Result<Page<CustomStatus>, ApiError>> {
        let client = self.clone();
        walk_numbered(move |n| {
            let client = client.clone();
            async move { client.list_custom_statuses(Some(n)).await }
        })
    }

    /// GET /custom_statuses/:id.
    pub async fn get_custom_status(&self, id: &str) -> Result<CustomStatus, ApiError> {
        let id = checked_id("custom status", id)?;
        let call = Call::get(&["custom_statuses", id]).about("custom status", id);
        self.fetch(&call).await?.one(ONE)
    }

    /// POST /custom_statuses (extensions.md; never retried).
    pub async fn create_custom_status(&self, body: &CustomStatusBody) -> Result<CustomStatus, ApiError> {
        let call = Call::new(Method::POST, &["custom_statuses"])
            .json(body)?
            .idempotent(false)
            .offered("creating custom statuses");
        self.fetch(&call).await?.one(ONE)
    }

    /// PUT /custom_statuses/:id (extensions.md).
    pub async fn update_custom_status(&self, id: &str, body: &CustomStatusBody) -> Result<CustomStatus, ApiError> {
        let id = checked_id("custom status", id)?;
        let call = Call::new(Method::PUT, &["custom_statuses", id])
            .json(body)?
            .about("custom status", id)
            .about("status", id)
            .offered("editing custom statuses");
        self.fetch(&call).await?.one(ONE)
    }

    /// DELETE /custom_statuses/:id (extensions.md).
    pub async fn delete_custom_status(&self, id: &str) -> Result<(), ApiError> {
        let id = checked_id("custom status", id)?;
        let call = Call::new(Method::DELETE, &["custom_statuses", id])
            .about("custom status", id)
            .about("status", id)
            .offered("deleting custom statuses");
        self.run(&call).await.map(|_| ())
    }
}
