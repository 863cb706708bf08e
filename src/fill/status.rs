//! How fresh the index is and how the hub's stream stands, as the worker
//! reports them and the status bar shows them.

use chrono::{DateTime, Utc};

/// How fresh the index is, as the status bar shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncStatus {
    /// When a sync pass last succeeded (or the walk last finished).
    pub synced_at: Option<DateTime<Utc>>,
    /// A complete walk of the account has finished at least once: the list
    /// holds every contact.
    pub complete: bool,
    /// A full walk under way: contacts seen, and about how many there are.
    pub walking: Option<(u64, Option<u64>)>,
    /// Search rows being written for contacts loaded without them (a new
    /// agent's snapshot): written, of how many. Search misses the rest.
    pub indexing: Option<(u64, u64)>,
    /// The last pass failed for want of the server (no network, timeouts,
    /// 5xx): the list shows the index as of `synced_at`.
    pub offline: bool,
    /// Background work is paused by the server's rate limit until then.
    pub retry_at: Option<DateTime<Utc>>,
    /// The index is in memory only (`--no-cache`, or the file was busy).
    pub in_memory: bool,
    /// Through a team hub: how its event stream stands (`None`: no hub).
    pub hub: Option<HubLink>,
}

/// The hub's event stream, as the status bar shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HubLink {
    /// Loading the snapshot or opening the stream.
    Connecting,
    /// Events arrive as they happen: nothing is polled.
    Live,
    /// The stream dropped: the hub is polled until it is back, and the
    /// stream reconnects at `retry_at`.
    Down { error: String, retry_at: DateTime<Utc> },
    /// The hub refused the token: nothing will change by trying again.
    Refused(String),
}
