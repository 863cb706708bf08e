//! The selected contact's full record, its bot, and the agent's own
//! availability.

use crate::api::{Bot, Contact, CustomStatus};
use crate::tui::msg::ReqId;

#[derive(Debug, Clone, Default)]
pub struct Details {
    /// The contact fetched with field types (falls back to the list row).
    pub full: Option<Contact>,
    pub loading: Option<ReqId>,
    pub scroll: u16,
    pub bot: BotPanel,
}

#[derive(Debug, Clone, Default)]
pub struct BotPanel {
    pub contact: Option<String>,
    pub bot: Option<Bot>,
    pub error: Option<String>,
    pub loading: Option<ReqId>,
    /// A start/stop in flight.
    pub pending: Option<ReqId>,
}

/// The agent's own status. There is no GET for it: it is known after the
/// first change made here.
#[derive(Debug, Clone, Default)]
pub struct Availability {
    pub user: Option<String>,
    /// My email, when known (demo): my status is read from team members.
    pub email: Option<String>,
    pub available: Option<bool>,
    pub custom_status: Option<(String, String)>,
    pub pending: Option<ReqId>,
    /// The request in flight changes the custom status (for its toast).
    pub changing_custom: bool,
    /// The value before an optimistic change, restored on failure.
    pub before: Option<Option<bool>>,
    /// `None` until loaded; `Err` with the reason when the server lacks them.
    pub statuses: Option<Result<Vec<CustomStatus>, String>>,
}

pub use crate::tui::shared::known::Known;
