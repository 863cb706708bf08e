//! What sleeps, what woke, and the picker `z` opens.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};

use crate::snooze::store::Stamp;
pub use crate::snooze::store::{Entry, Kept};
use crate::tui::shared::Badge;

/// The team hub the snoozes are kept on (when one is configured), and
/// this agent's name there (its own snoozes are not "by" anyone).
#[derive(Debug, Clone)]
pub struct OnHub {
    pub hub: crate::hubclient::HubClient,
    pub me: Option<String>,
}

impl PartialEq for OnHub {
    fn eq(&self, other: &OnHub) -> bool {
        self.hub.root() == other.hub.root() && self.me == other.me
    }
}

/// On a sleeping conversation's row; hides it from the work views.
pub const SNOOZED: Badge = Badge {
    name: "snoozed",
    label: "asleep",
    hides: true,
};

/// On a conversation that woke up, until its thread is opened.
pub const BACK: Badge = Badge {
    name: "back",
    label: "back",
    hides: false,
};

/// The picker: the contact, the preset chosen, and what was typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Picker {
    pub uuid: String,
    pub name: String,
    /// Index into `crate::snooze::PRESETS`.
    pub choice: usize,
    /// A time typed instead of a preset (`3d`, `fri 14:00`).
    pub text: String,
    /// Why what was typed is not a time (inert text).
    pub error: Option<String>,
}

/// The slice's state.
#[derive(Debug, Clone, Default)]
pub struct Snooze {
    /// Sleeping conversations, by uuid.
    pub asleep: BTreeMap<String, Entry>,
    /// Conversations that woke up and whose thread was not opened since.
    pub back: BTreeSet<String>,
    pub picker: Option<Picker>,
    /// The account whose snoozes these are (where they are kept).
    pub account: String,
    /// Set once the kept snoozes were read: nothing is written before, so
    /// a start cannot overwrite them with an empty list.
    pub loaded: bool,
    /// The kept file as last read (another process may write it: the
    /// clock checks for a new one every [`CHECK_EVERY`]).
    pub stamp: Option<Stamp>,
    /// When the clock last asked whether the file changed.
    pub checked: Option<DateTime<Utc>>,
    /// Writes asked for and not answered yet: a file read meanwhile may
    /// miss them, so it is read again instead of believed.
    pub saving: usize,
    /// The agent's last snooze (the contact, when): `u` takes it back for
    /// `UNDO_WINDOW_SECS`, unless a write of theirs is newer.
    pub last: Option<(String, DateTime<Utc>)>,
    /// The team hub the snoozes are kept on, when one is configured.
    pub hub: Option<OnHub>,
    /// When the snoozes were last asked for, until they were read once
    /// (a hub that could not be reached at start is asked again).
    pub asked: Option<DateTime<Utc>>,
    /// The first read failed and said so: later failures are quiet.
    pub load_failed: bool,
}

/// How often the clock looks whether another process (`frontdesk mcp`,
/// another frontdesk) changed the kept snoozes: one `stat` (with a hub,
/// one `GET /hub/v1/snoozes`).
pub const CHECK_EVERY: chrono::Duration = chrono::Duration::seconds(3);

/// With a hub, how long after a failed first read the clock reads again
/// (until then snoozes last this session only).
pub const RELOAD_EVERY: chrono::Duration = chrono::Duration::seconds(15);

impl Snooze {
    /// Nothing sleeps and nothing is marked back: the clock has nothing
    /// to do here.
    pub fn is_idle(&self) -> bool {
        self.asleep.is_empty() && self.back.is_empty()
    }

    /// Whether it is time to look at the kept file again (once it was
    /// read: before that, nothing is known to compare with).
    pub fn check_due(&self, now: DateTime<Utc>) -> bool {
        self.loaded && self.checked.is_none_or(|at| now - at >= CHECK_EVERY || now < at)
    }

    /// Whether to ask a hub for the snoozes again: its first read failed
    /// [`RELOAD_EVERY`] ago (a file is read once).
    pub fn reload_due(&self, now: DateTime<Utc>) -> bool {
        self.hub.is_some() && !self.loaded && self.asked.is_some_and(|at| now - at >= RELOAD_EVERY || now < at)
    }

    pub fn kept(&self) -> Kept {
        Kept {
            asleep: self.asleep.clone(),
            back: self.back.clone(),
        }
    }
}
