//! The worker's interface: what the UI asks of it (`IndexCmd`), what the
//! UI holds of it (`IndexLink`) and what it needs to start (`Worker`).

use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::mpsc::UnboundedSender;

use crate::api::{Client, Contact, Message};
use crate::index::sync::Foreground;
use crate::index::{SharedIndex, Wanted};

/// What a colleague does with a contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doing {
    Viewing,
    Composing,
}

/// What the UI asks of the worker.
#[derive(Debug, Clone, PartialEq)]
pub enum IndexCmd {
    /// Read the index's contacts from position `skip` on, for list
    /// `generation` (the first ones were read before the first frame).
    Load { generation: u64, skip: usize },
    /// An incremental pass now.
    Incremental,
    /// A contact as the API returned it after a write: stored at once.
    Store(Box<Contact>),
    /// The newest page of a thread the UI fetched, at the contact's
    /// activity then.
    StoreThread {
        uuid: String,
        activity: Option<DateTime<Utc>>,
        messages: Vec<Message>,
    },
    /// Last messages wanted for the rows on screen and the next ones.
    Previews(Vec<Wanted>),
    /// Through a hub: what this agent does with `contact` (`None`: idle),
    /// for colleagues to see.
    Presence { contact: String, doing: Option<Doing> },
}

/// The UI's side: where commands go, the index itself (for searches, which
/// read it on the blocking pool), and the count of the agent's requests in
/// flight that background work yields to.
#[derive(Debug, Clone)]
pub struct IndexLink {
    pub cmds: UnboundedSender<IndexCmd>,
    pub index: SharedIndex,
    pub foreground: Foreground,
}

/// What the worker needs.
pub struct Worker {
    pub client: Client,
    pub index: SharedIndex,
    pub sync_rate: f64,
    pub full_every: Duration,
    pub in_memory: bool,
    /// The team's hub: its snapshot and event stream replace the walks,
    /// the trickle of last messages and the polling.
    pub hub: Option<crate::hubclient::HubClient>,
}
