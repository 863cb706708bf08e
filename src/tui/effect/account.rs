//! Requests about the account: the catalog's parts (for the whole app),
//! and the overlay's own (a template's or team's record, team members, the
//! webhook log, renames). Lists other than the webhook log are read whole
//! (page after page, up to a cap), so the tabs can move freely.

use std::future::Future;

use crate::api::{ApiError, Client, EventQuery, Page};
use crate::tui::model::account::RenameTarget;
use crate::tui::msg::ReqId;
use crate::tui::msg::account::{AccountMsg, Renamed};

/// A list is read to at most this many pages.
const MAX_PAGES: u32 = 50;

#[derive(Debug, Clone, PartialEq)]
pub enum AccountEffect {
    FetchTemplates {
        id: ReqId,
    },
    FetchChannels {
        id: ReqId,
    },
    FetchTeams {
        id: ReqId,
    },
    /// GET /templates/:uuid.
    FetchTemplate {
        id: ReqId,
        uuid: String,
    },
    /// GET /teams/:uuid.
    FetchTeam {
        id: ReqId,
        uuid: String,
    },
    FetchMembers {
        id: ReqId,
        team: String,
    },
    FetchPlan {
        id: ReqId,
    },
    FetchFunnels {
        id: ReqId,
    },
    FetchEvents {
        id: ReqId,
        query: EventQuery,
    },
    Rename {
        id: ReqId,
        target: RenameTarget,
        uuid: String,
        title: String,
    },
}

/// Every page from 1 to `meta.pages` (or the cap).
async fn all_pages<T, F, Fut>(fetch: F) -> Result<Vec<T>, ApiError>
where
    F: Fn(u32) -> Fut,
    Fut: Future<Output = Result<Page<T>, ApiError>>,
{
    let mut all = Vec::new();
    let mut n = 1;
    loop {
        let page = fetch(n).await?;
        let pages = page.meta.pages.unwrap_or(1);
        let empty = page.items.is_empty();
        all.extend(page.items);
        if empty || n >= pages || n >= MAX_PAGES {
            return Ok(all);
        }
        n += 1;
    }
}

pub async fn perform(client: Client, effect: AccountEffect) -> AccountMsg {
    match effect {
        AccountEffect::FetchTemplates { id } => AccountMsg::Templates {
            id,
            result: all_pages(|n| client.list_templates(Some(n))).await,
        },
        AccountEffect::FetchChannels { id } => AccountMsg::Channels {
            id,
            result: all_pages(|n| client.list_channels(Some(n), None)).await,
        },
        AccountEffect::FetchTeams { id } => AccountMsg::Teams {
            id,
            result: all_pages(|n| client.list_teams(Some(n))).await,
        },
        AccountEffect::FetchTemplate { id, uuid } => {
            let result = client.get_template(&uuid).await;
            AccountMsg::Template { id, uuid, result }
        }
        AccountEffect::FetchTeam { id, uuid } => {
            let result = client.get_team(&uuid).await;
            AccountMsg::Team { id, uuid, result }
        }
        AccountEffect::FetchMembers { id, team } => {
            let result = all_pages(|n| client.team_members(&team, Some(n), None)).await;
            AccountMsg::Members { id, team, result }
        }
        AccountEffect::FetchPlan { id } => AccountMsg::Plan {
            id,
            result: client.plan().await,
        },
        AccountEffect::FetchFunnels { id } => AccountMsg::Funnels {
            id,
            result: client.list_funnels().await,
        },
        AccountEffect::FetchEvents { id, query } => {
            let result = client.webhook_events(&query).await;
            AccountMsg::Events { id, query, result }
        }
        AccountEffect::Rename {
            id,
            target,
            uuid,
            title,
        } => {
            let result = match target {
                RenameTarget::Template => client.rename_template(&uuid, &title).await.map(Renamed::Template),
                RenameTarget::Channel => client.rename_channel(&uuid, &title).await.map(Renamed::Channel),
            };
            AccountMsg::Renamed {
                id,
                target,
                uuid,
                title,
                result,
            }
        }
    }
}
