//! What was announced, what waits to be, and the session's switches.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{DateTime, Utc};

pub use crate::tui::shared::badges::REOPENED;

/// One contact with a new message, as the root saw it after an update.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arrival {
    pub uuid: String,
    /// The contact's name (else number).
    pub name: String,
    /// The last message's text, when known.
    pub text: Option<String>,
    /// When the newest message was written (what "once per message" keys on).
    pub at: Option<DateTime<Utc>>,
    /// The view that watches it (`Mine`, or a view with `notify = true`):
    /// what a grouped notification names.
    pub view: Option<String>,
    /// Whether the customer wrote it: `None` while the last message is
    /// not known yet (the index fetches it).
    pub customer: Option<bool>,
    /// The conversation is closed (on the service).
    pub closed: bool,
    /// When it was closed, when known.
    pub closed_at: Option<DateTime<Utc>>,
    /// When the last message was written, when known (`at` is the
    /// contact's activity, which the list's order can move without a
    /// message).
    pub written: Option<DateTime<Utc>>,
    /// Assigned to me, or in a view with `notify = true`.
    pub watched: bool,
    /// Its row is in the list's window, or its thread shows.
    pub on_screen: bool,
}

/// The slice's state.
#[derive(Debug, Clone)]
pub struct Notify {
    /// Snoozed for a while, or off (`B` picks; kept across restarts).
    pub quiet: crate::notify::quiet::Quiet,
    /// The picker `B` opens: the choice under the cursor.
    pub picker: Option<usize>,
    /// Where `quiet` is kept (`None`: not kept, as in tests).
    pub kept: Option<std::path::PathBuf>,
    /// The burst window open now: what arrived in it waits for its end.
    pub burst: Option<Burst>,
    /// The terminal has the focus (focus reporting; assumed until told).
    pub focused: bool,
    /// The agent's `notify_command` (program and arguments); empty: none.
    pub command: Vec<String>,
    /// Reopen on the service a closed conversation the customer writes in.
    pub reopen_on_reply: bool,
    /// The multiplexer the bytes are wrapped for.
    pub mux: crate::notify::Mux,
    /// Contacts with a new message not decided yet (who wrote it is not
    /// known yet), and since when they wait for that.
    pub pending: BTreeMap<String, DateTime<Utc>>,
    /// The last message announced (or passed over) per contact.
    pub announced: HashMap<String, DateTime<Utc>>,
    /// Conversations past `breach_after` at the last look; `None` before
    /// the first (which announces nothing: they were past it already).
    pub breached: Option<BTreeSet<String>>,
    /// The minute of the last breach look.
    pub looked: Option<i64>,
    /// Badged `reopen`, with the id of our own reopening write if any.
    pub reopened: BTreeMap<String, Option<crate::tui::shared::ReqId>>,
}

impl Default for Notify {
    fn default() -> Self {
        Notify {
            quiet: crate::notify::quiet::Quiet::On,
            picker: None,
            kept: None,
            burst: None,
            focused: true,
            command: Vec::new(),
            reopen_on_reply: false,
            mux: crate::notify::Mux::None,
            pending: BTreeMap::new(),
            announced: HashMap::new(),
            breached: None,
            looked: None,
            reopened: BTreeMap::new(),
        }
    }
}

/// How long a new message waits to learn who wrote it before it is let go.
/// A message learned this much after it was written (a first fill of
/// last messages, a catch-up after the link was down) is not announced:
/// it is not news, and a fill would otherwise ring for every old one.
pub const STALE: chrono::TimeDelta = chrono::TimeDelta::minutes(10);
pub const GIVE_UP: chrono::Duration = chrono::Duration::minutes(10);

/// How long a burst is gathered: the first message after a quiet spell is
/// announced at once, those after it within the window as one
/// notification with a count when the window ends.
pub const BURST_WINDOW: chrono::Duration = chrono::Duration::minutes(5);

/// A burst window: since when, and the messages held for its end (the
/// contact's name, the view that watches it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Burst {
    pub since: DateTime<Utc>,
    pub held: Vec<(String, Option<String>)>,
}
