//! What the index worker reports: contacts read from the index, changes a
//! sync brought in, previews fetched, and how fresh the index is.

pub use super::status::{HubLink, SyncStatus};
use crate::api::Contact;
use crate::index::{Changes, Preview};

#[derive(Debug, Clone)]
pub enum IndexMsg {
    /// Contacts read from the index in activity order, for list
    /// `generation` (a later batch follows unless `done`).
    Loaded {
        generation: u64,
        contacts: Vec<Contact>,
        done: bool,
    },
    /// What a sync pass or a stored write changed.
    Changed(Changes),
    /// Last messages fetched (or read from the index).
    Previews(Vec<(String, Preview)>),
    Status(SyncStatus),
    /// Something went wrong in the background worth one line (never the
    /// passing failures `offline` covers).
    Problem(String),
    /// Something the agent should know worth one line (the index started
    /// over for another account's data).
    Notice(String),
    /// What the team's hub said that is not the index's business: who
    /// this agent is, colleagues' presence and sends.
    Hub(HubNote),
    /// Whether the last `/` search found the index busy (a sync writing)
    /// and served the loaded rows alone.
    SearchBusy(bool),
}

/// News from the hub's event stream for the screen.
#[derive(Debug, Clone)]
pub enum HubNote {
    /// The agent this token belongs to (`whoami`).
    Me(String),
    /// An event other than the index's own (presence, a send, agent
    /// status, what a later hub adds).
    Event(Box<crate::hubclient::HubEvent>),
}

/// What the worker's messages are sent as: the TUI wraps them in its own
/// `Msg`, `frontdesk mcp` reads them as they are.
pub trait Outbox: From<IndexMsg> + Send + 'static {}

impl<T: From<IndexMsg> + Send + 'static> Outbox for T {}
