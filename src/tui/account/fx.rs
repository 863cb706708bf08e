//! Requests about the account: the catalog's parts (for the whole app),
//! and the overlay's own (a template's or team's record, team members, the
//! webhook log, renames). Lists other than the webhook log are read whole
//! (through the API's walks, with their cap and guard), so the tabs can
//! move freely.

use super::msg::{AccountMsg, RenameTarget, Renamed};
use crate::api::{ApiError, Client, EventQuery, collect_pages};
use crate::tui::shared::ReqId;
use crate::tui::shared::catalog::Part;

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

impl AccountEffect {
    /// The request for a catalog part.
    pub fn fetch_part(part: Part, id: ReqId) -> AccountEffect {
        match part {
            Part::Templates => AccountEffect::FetchTemplates { id },
            Part::Channels => AccountEffect::FetchChannels { id },
            Part::Teams => AccountEffect::FetchTeams { id },
            Part::Plan => AccountEffect::FetchPlan { id },
            Part::Funnels => AccountEffect::FetchFunnels { id },
        }
    }
}

pub async fn perform(client: Client, effect: AccountEffect) -> AccountMsg {
    match effect {
        AccountEffect::FetchTemplates { id } => AccountMsg::Templates {
            id,
            result: collect_pages(client.walk_templates()).await,
        },
        // Only active channels are offered (a new conversation's channel);
        // a server that refuses the `active` filter lists them all.
        AccountEffect::FetchChannels { id } => AccountMsg::Channels {
            id,
            result: match client.active_channels().await {
                Err(ApiError::Validation { .. } | ApiError::Rejected { .. }) => {
                    collect_pages(client.walk_channels(None)).await
                }
                other => other,
            },
        },
        AccountEffect::FetchTeams { id } => AccountMsg::Teams {
            id,
            result: collect_pages(client.walk_teams()).await,
        },
        AccountEffect::FetchTemplate { id, uuid } => {
            let result = client.get_template(&crate::api::TemplateId::from(&uuid)).await;
            AccountMsg::Template { id, uuid, result }
        }
        AccountEffect::FetchTeam { id, uuid } => {
            let result = client.get_team(&uuid).await;
            AccountMsg::Team { id, uuid, result }
        }
        AccountEffect::FetchMembers { id, team } => {
            let result = collect_pages(client.walk_team_members(&team, None)).await;
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
                RenameTarget::Template => client
                    .rename_template(&crate::api::TemplateId::new(uuid.clone()), &title)
                    .await
                    .map(Renamed::Template),
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
