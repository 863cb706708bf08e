//! Results of the details pane's requests: the full contact, its bot, my
//! status, the custom statuses and a team's members.

use crate::api::{ApiError, Bot, Contact, CustomStatus, TeamMember, UserStatus};
use crate::tui::shared::ReqId;

// A result is moved once, from the runner into update: boxing the full
// contact would only add noise to every constructor.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum DetailsMsg {
    ContactLoaded {
        id: ReqId,
        uuid: String,
        result: Result<Contact, ApiError>,
    },
    BotLoaded {
        id: ReqId,
        uuid: String,
        result: Result<Bot, ApiError>,
    },
    BotSet {
        id: ReqId,
        uuid: String,
        result: Result<Bot, ApiError>,
    },
    UserStatusSet {
        id: ReqId,
        result: Result<UserStatus, ApiError>,
    },
    CustomStatusesLoaded(Result<Vec<CustomStatus>, ApiError>),
    /// A team's members, for collaborators and my own status.
    TeamMembersLoaded {
        result: Result<Vec<TeamMember>, ApiError>,
    },
}

impl DetailsMsg {
    /// What failed, for the log file.
    pub fn failure(&self) -> Option<(&'static str, &ApiError)> {
        match self {
            DetailsMsg::ContactLoaded { result: Err(e), .. } => Some(("get contact", e)),
            DetailsMsg::BotLoaded { result: Err(e), .. } | DetailsMsg::BotSet { result: Err(e), .. } => {
                Some(("bot", e))
            }
            DetailsMsg::UserStatusSet { result: Err(e), .. } => Some(("set user status", e)),
            DetailsMsg::CustomStatusesLoaded(Err(e)) => Some(("list custom statuses", e)),
            DetailsMsg::TeamMembersLoaded { result: Err(e), .. } => Some(("team members", e)),
            _ => None,
        }
    }
}
