//! Teams and their members.

use futures::stream::BoxStream;

use super::params::{checked_id, page_param};
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::{Team, TeamMember};
use crate::api::page::{Page, walk_numbered};

impl Client {
    /// GET /teams (extensions.md; a route-level 404 is `NotOffered`).
    pub async fn list_teams(&self, page: Option<u32>) -> Result<Page<Team>, ApiError> {
        let call = Call::get(&["teams"])
            .query_opt("page", page_param(page))
            .offered("a team list");
        self.fetch(&call).await?.page(&["teams"])
    }

    /// Every page of GET /teams.
    pub fn walk_teams(&self) -> BoxStream<'static, Result<Page<Team>, ApiError>> {
        let client = self.clone();
        walk_numbered(move |n| {
            let client = client.clone();
            async move { client.list_teams(Some(n)).await }
        })
    }

    /// GET /teams/:uuid.
    pub async fn get_team(&self, uuid: &str) -> Result<Team, ApiError> {
        let uuid = checked_id("team", uuid)?;
        let call = Call::get(&["teams", uuid]).about("team", uuid);
        self.fetch(&call).await?.one(&["team"])
    }

    /// GET /teams/:uuid/members (extensions.md); `status` is `available` or
    /// `away`. A 404 naming the team is `NotFound`; a route-level one is
    /// `NotOffered`.
    pub async fn team_members(
        &self,
        team_uuid: &str,
        page: Option<u32>,
        status: Option<&str>,
    ) -> Result<Page<TeamMember>, ApiError> {
        let uuid = checked_id("team", team_uuid)?;
        let call = Call::get(&["teams", uuid, "members"])
            .query_opt("page", page_param(page))
            .query_opt("status", status)
            .about("team", uuid)
            .offered("team member lists");
        self.fetch(&call).await?.page(&["users", "members"])
    }

    /// Every page of GET /teams/:uuid/members.
    pub fn walk_team_members(
        &self,
        team_uuid: &str,
        status: Option<String>,
    ) -> BoxStream<'static, Result<Page<TeamMember>, ApiError>> {
        let client = self.clone();
        let uuid = team_uuid.to_string();
        walk_numbered(move |n| {
            let client = client.clone();
            let uuid = uuid.clone();
            let status = status.clone();
            async move { client.team_members(&uuid, Some(n), status.as_deref()).await }
        })
    }
}
