//! The documented account endpoints beyond the reference: one channel,
//! the active channels, renaming a team, clearing a user's custom status.

use futures::StreamExt;
use reqwest::Method;
use serde_json::json;

use super::params::{checked_id, page_param};
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::{Channel, Team};
use crate::api::page::{Page, walk_numbered};

impl Client {
    /// GET /channels/:uuid.
    pub async fn get_channel(&self, uuid: &str) -> Result<Channel, ApiError> {
        let uuid = checked_id("channel", uuid)?;
        let call = Call::get(&["channels", uuid]).about("channel", uuid);
        self.fetch(&call).await?.one(&["channel", "channels"])
    }

    /// GET /channels?active=true, one page.
    pub async fn list_active_channels(&self, page: Option<u32>) -> Result<Page<Channel>, ApiError> {
        let call = Call::get(&["channels"])
            .query_opt("page", page_param(page))
            .query("active", "true")
            .offered("a channel list");
        self.fetch(&call).await?.page(&["channels"])
    }

    /// Every active channel (the ones a message can go out from).
    pub async fn active_channels(&self) -> Result<Vec<Channel>, ApiError> {
        let client = self.clone();
        let mut pages = walk_numbered(move |n| {
            let client = client.clone();
            async move { client.list_active_channels(Some(n)).await }
        });
        let mut out = Vec::new();
        while let Some(page) = pages.next().await {
            out.extend(page?.items);
        }
        Ok(out)
    }

    /// PATCH /teams/:uuid `{name}`.
    pub async fn rename_team(&self, uuid: &str, name: &str) -> Result<Team, ApiError> {
        let uuid = checked_id("team", uuid)?;
        let call = Call::new(Method::PATCH, &["teams", uuid])
            .json(&json!({ "name": name }))?
            .idempotent(true)
            .about("team", uuid)
            .offered("renaming teams");
        self.fetch(&call).await?.one(&["team"])
    }

    /// DELETE /users/:uuid/status: the user wears no custom status any
    /// more. The answer is empty.
    pub async fn clear_user_status(&self, user_uuid: &str) -> Result<(), ApiError> {
        let uuid = checked_id("user", user_uuid)?;
        let call = Call::new(Method::DELETE, &["users", uuid, "status"])
            .about("user", uuid)
            .offered("clearing a custom status");
        self.run(&call).await.map(|_| ())
    }
}
