//! Channels.

use futures::stream::BoxStream;
use reqwest::Method;

use super::params::{checked_id, page_param};
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::Channel;
use crate::api::page::{Page, walk_numbered};

impl Client {
    /// GET /channels (extensions.md; a route-level 404 is `NotOffered`).
    pub async fn list_channels(
        &self,
        page: Option<u32>,
        channel_type: Option<&str>,
    ) -> Result<Page<Channel>, ApiError> {
        let call = Call::get(&["channels"])
            .query_opt("page", page_param(page))
            .query_opt("type", channel_type)
            .offered("a channel list");
        self.fetch(&call).await?.page(&["channels"])
    }

    /// Every page of GET /channels.
    pub fn walk_channels(&self, channel_type: Option<String>) -> BoxStream<'static, Result<Page<Channel>, ApiError>> {
        let client = self.clone();
        walk_numbered(move |n| {
            let client = client.clone();
            let channel_type = channel_type.clone();
            async move { client.list_channels(Some(n), channel_type.as_deref()).await }
        })
    }

    /// PATCH /channels/:uuid.
    pub async fn rename_channel(&self, uuid: &str, title: &str) -> Result<Channel, ApiError> {
        let uuid = checked_id("channel", uuid)?;
        let call = Call::new(Method::PATCH, &["channels", uuid])
            .json(&serde_json::json!({ "title": title }))?
            .about("channel", uuid);
        self.fetch(&call).await?.one(&["channel", "channels"])
    }
}
