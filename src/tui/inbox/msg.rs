//! What the inbox's effects answer: a search's result, sent back by the
//! blocking task that ran it, a saved view, and its timers.

use crate::tui::shared::ReqId;

/// Which list request a contacts page answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListFetch {
    /// The next batch by cursor (or the first after a filter change).
    Next,
    /// The periodic refresh of the first page.
    Refresh,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchDone {
    pub generation: u64,
    pub query: String,
    pub matches: Vec<u32>,
    /// Contacts the local index found (by uuid, best first): fields,
    /// notes and cached messages the rows' own text does not hold, and
    /// near misses of a typo. Listed before the rows' own matches.
    pub hits: Vec<String>,
    /// How many the index matched in all, when `hits` stopped at the cap.
    pub total: Option<usize>,
    pub layout: u64,
    pub version: u64,
}

/// Results of the inbox's effects (the list's pages arrive as the root's
/// `Msg::ContactsLoaded`, which the end-to-end tests send).
#[derive(Debug, Clone)]
pub enum InboxMsg {
    /// What a `/` search found (run off the UI thread).
    ContactsSearched(SearchDone),
    /// A view was written to the config file (`f`, "Save as").
    ViewSaved { name: String, result: Result<(), String> },
    /// A lone digit waited long enough: it names a view, not a count.
    CountTimeout(ReqId),
    /// The selection has stayed on one contact long enough to load it.
    SelectionSettled(ReqId),
    /// What the service answered for the lookup `id` of `/`.
    LookedUp {
        id: u64,
        result: Result<Box<crate::api::Contact>, crate::api::ApiError>,
    },
}
