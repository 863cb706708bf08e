//! The selected contact's full record, its bot, and the agent's own
//! availability.

use crate::api::{Bot, Contact, CustomStatus};
use crate::tui::shared::ReqId;

/// Without a user uuid there is no way to read or change my availability.
pub const NO_USER_HINT: &str = "set user_uuid in config or --user to manage your availability";

#[derive(Debug, Clone, Default)]
pub struct Details {
    /// The contact fetched with field types (falls back to the list row).
    pub full: Option<Contact>,
    pub loading: Option<ReqId>,
    pub scroll: u16,
    pub bot: BotPanel,
    /// My own availability and custom status.
    pub me: Availability,
}

impl Details {
    /// The contact the details pane shows, when the full record of `open`
    /// (whose thread shows) is loaded.
    pub fn shown(&self, open: Option<&str>) -> Option<&Contact> {
        let uuid = open?;
        self.full.as_ref().filter(|c| c.uuid == uuid)
    }

    /// A newer copy of a contact (a live event, a sync pass, a write): the
    /// pane's record of the same contact takes it, so a colleague's close
    /// shows without `r`; the field types only the full fetch brings stay.
    pub fn learn(&mut self, c: &Contact) {
        if let Some(full) = self.full.as_mut().filter(|f| f.uuid == c.uuid) {
            let meta = full.custom_fields_metadata.take();
            *full = c.clone();
            if full.custom_fields_metadata.is_none() {
                full.custom_fields_metadata = meta;
            }
        }
    }
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
    /// My name, from the team member with my email (a snippet's
    /// `{{agent.name}}`).
    pub name: Option<String>,
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
