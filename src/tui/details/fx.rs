//! The details pane's requests: the full contact, its bot (read, start,
//! stop), my status, the custom statuses and a team's members.

use super::msg::DetailsMsg;
use crate::api::{BotAction, Client, ContactId, UserStatusUpdate};
use crate::tui::shared::ReqId;

#[derive(Debug, Clone, PartialEq)]
pub enum DetailsEffect {
    FetchContact {
        id: ReqId,
        uuid: String,
    },
    FetchBot {
        id: ReqId,
        uuid: String,
    },
    SetBot {
        id: ReqId,
        uuid: String,
        action: BotAction,
    },
    SetUserStatus {
        id: ReqId,
        user: String,
        update: UserStatusUpdate,
    },
    FetchCustomStatuses,
    FetchTeamMembers {
        team: String,
    },
}

impl DetailsEffect {
    /// Its name in the log.
    pub fn name(&self) -> &'static str {
        match self {
            DetailsEffect::FetchContact { .. } => "fetch_contact",
            DetailsEffect::FetchBot { .. } => "fetch_bot",
            DetailsEffect::SetBot { .. } => "set_bot",
            DetailsEffect::SetUserStatus { .. } => "set_user_status",
            DetailsEffect::FetchCustomStatuses | DetailsEffect::FetchTeamMembers { .. } => "other",
        }
    }
}

pub async fn perform(client: Client, effect: DetailsEffect) -> DetailsMsg {
    match effect {
        DetailsEffect::FetchContact { id, uuid } => {
            let result = client.get_contact(&ContactId::new(uuid.clone()), true).await;
            DetailsMsg::ContactLoaded { id, uuid, result }
        }
        DetailsEffect::FetchBot { id, uuid } => {
            let result = client.get_bot(&ContactId::new(uuid.clone())).await;
            DetailsMsg::BotLoaded { id, uuid, result }
        }
        DetailsEffect::SetBot { id, uuid, action } => {
            let result = client.set_bot(&ContactId::new(uuid.clone()), action).await;
            DetailsMsg::BotSet { id, uuid, result }
        }
        DetailsEffect::SetUserStatus { id, user, update } => {
            let result = client.set_user_status(&user, &update).await;
            DetailsMsg::UserStatusSet { id, result }
        }
        DetailsEffect::FetchCustomStatuses => {
            DetailsMsg::CustomStatusesLoaded(crate::api::collect_pages(client.walk_custom_statuses()).await)
        }
        DetailsEffect::FetchTeamMembers { team } => {
            let result = client.team_members(&team, None, None).await.map(|p| p.items);
            DetailsMsg::TeamMembersLoaded { result }
        }
    }
}
