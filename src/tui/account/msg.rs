//! Results of requests about the account (the catalog and the account
//! overlay), each with the id of its request.

use crate::api::{ApiError, Channel, EventQuery, Funnel, Page, Plan, Team, TeamMember, Template, WebhookEvent};
use crate::tui::shared::ReqId;

/// What a rename answered with: the new title.
#[derive(Debug, Clone, PartialEq)]
pub enum Renamed {
    Template(Template),
    Channel(Channel),
}

#[derive(Debug, Clone)]
pub enum AccountMsg {
    Templates {
        id: ReqId,
        result: Result<Vec<Template>, ApiError>,
    },
    Channels {
        id: ReqId,
        result: Result<Vec<Channel>, ApiError>,
    },
    Teams {
        id: ReqId,
        result: Result<Vec<Team>, ApiError>,
    },
    Template {
        id: ReqId,
        uuid: String,
        result: Result<Template, ApiError>,
    },
    Team {
        id: ReqId,
        uuid: String,
        result: Result<Team, ApiError>,
    },
    Members {
        id: ReqId,
        team: String,
        result: Result<Vec<TeamMember>, ApiError>,
    },
    Plan {
        id: ReqId,
        result: Result<Plan, ApiError>,
    },
    Funnels {
        id: ReqId,
        result: Result<Vec<Funnel>, ApiError>,
    },
    Events {
        id: ReqId,
        query: EventQuery,
        result: Result<Page<WebhookEvent>, ApiError>,
    },
    Renamed {
        id: ReqId,
        target: RenameTarget,
        uuid: String,
        title: String,
        result: Result<Renamed, ApiError>,
    },
}

impl AccountMsg {
    /// What failed, for the log file.
    pub fn failure(&self) -> Option<(&'static str, &ApiError)> {
        match self {
            AccountMsg::Templates { result: Err(e), .. } => Some(("list templates", e)),
            AccountMsg::Channels { result: Err(e), .. } => Some(("list channels", e)),
            AccountMsg::Teams { result: Err(e), .. } => Some(("list teams", e)),
            AccountMsg::Template { result: Err(e), .. } => Some(("get template", e)),
            AccountMsg::Team { result: Err(e), .. } => Some(("get team", e)),
            AccountMsg::Members { result: Err(e), .. } => Some(("team members", e)),
            AccountMsg::Plan { result: Err(e), .. } => Some(("plan", e)),
            AccountMsg::Funnels { result: Err(e), .. } => Some(("list funnels", e)),
            AccountMsg::Events { result: Err(e), .. } => Some(("webhook events", e)),
            AccountMsg::Renamed {
                target: RenameTarget::Template,
                result: Err(e),
                ..
            } => Some(("rename template", e)),
            AccountMsg::Renamed { result: Err(e), .. } => Some(("rename channel", e)),
            _ => None,
        }
    }
}

/// What `e` renames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RenameTarget {
    Template,
    Channel,
}
