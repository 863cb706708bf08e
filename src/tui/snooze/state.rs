//! What sleeps, what woke, and the picker `z` opens.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::snooze::Until;
use crate::tui::shared::Badge;

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

/// One sleeping conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub until: Until,
    /// When it was snoozed: a message after this wakes it.
    pub since: DateTime<Utc>,
    /// Its name when it was snoozed (for the toast when it wakes).
    pub name: String,
}

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
}

/// What is kept on disk.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    pub asleep: BTreeMap<String, Entry>,
    #[serde(default)]
    pub back: BTreeSet<String>,
}

impl Snooze {
    /// Nothing sleeps and nothing is marked back: the clock has nothing
    /// to do here.
    pub fn is_idle(&self) -> bool {
        self.asleep.is_empty() && self.back.is_empty()
    }

    pub fn kept(&self) -> Kept {
        Kept {
            asleep: self.asleep.clone(),
            back: self.back.clone(),
        }
    }
}
