//! The tabs above the contact list: Mine, Unassigned, Waiting, Open, All
//! and the agent's own views, each with its count, and where the selection
//! stood in each. The rows of the current view are positions in the
//! store, recomputed whenever the store, the last messages or the clock
//! change what a view holds (`update/views.rs`).

use std::collections::HashSet;
use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::contact_list::{LastMessage, Row};
use crate::index::Who;
use crate::triage::{Keyed, Subject, View, builtin_views, contains_ci, field_is, same};

/// A view's count: exact, or "at least" while the account is not all known
/// (a walk still running, or last messages not yet fetched).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Count {
    pub n: usize,
    pub at_least: bool,
}

/// Where the selection stood in a view: on this contact, this far down the
/// window.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    pub uuid: Option<String>,
    pub selected: usize,
    pub offset: usize,
}

/// What the rows and counts were computed from; a change in any recomputes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Basis {
    pub store: u64,
    pub previews: u64,
    pub views: u64,
    /// The badges' version (a snooze hides a row).
    pub badges: u64,
    /// The minute, for views with a duration (`waiting > 2h`, `older than`).
    pub minute: i64,
    pub complete: bool,
}

#[derive(Debug, Clone)]
pub struct Views {
    /// Built-in views first, then the config file's, in its order.
    pub all: Vec<View>,
    /// The views as the session began or were last saved: a view whose
    /// filter differs has been edited with `f` for this session.
    pub saved: Vec<View>,
    pub current: usize,
    pub places: Vec<Place>,
    /// Each view's count, as last counted (see `counted`).
    pub counts: Vec<Count>,
    /// Which counts are up to date with `basis`. Only the views the strip
    /// shows, the current one and the built-ins (the title's Waiting) are
    /// counted on a change; the others when they come on screen.
    pub counted: Vec<bool>,
    /// The agent's collaborator email: who "me" is.
    pub me: Option<String>,
    /// Contacts that left the current view through the agent's own action:
    /// their rows stay, greyed, until the selection moves.
    pub keep: HashSet<Arc<str>>,
    /// The contact selected when the first row was kept.
    pub keep_anchor: Option<String>,
    /// The selected contact a colleague's change took out of the view
    /// (kept, greyed, until the selection moves) and what its row says:
    /// "moved to Mine of alex@…".
    pub moved: Option<(Arc<str>, String)>,
    /// The kept rows that no longer belong to the view (drawn greyed).
    pub greyed: HashSet<Arc<str>>,
    /// A lone digit typed (the view it names, and its timer): a view
    /// unless a motion follows.
    pub digit: Option<(usize, crate::tui::shared::ReqId)>,
    /// The config file a view is saved into (`f`, "Save as").
    pub config_path: Option<std::path::PathBuf>,
    /// Bumped when a view's definition changes.
    pub generation: u64,
    /// What `counts` and the list's rows were computed from.
    pub basis: Option<Basis>,
    /// The file's top-level `warn_after` and `breach_after`: for views
    /// without their own.
    pub thresholds: crate::triage::Thresholds,
}

/// The built-in views on All: every contact, as the list was before views
/// (tests start here).
impl Default for Views {
    fn default() -> Views {
        let mut v = Views::new(Vec::new(), None);
        v.current = v.all.iter().position(|v| v.name == "All").unwrap_or(0);
        v
    }
}

impl Views {
    /// The built-in views and then `custom`, for the agent `me`.
    pub fn new(custom: Vec<View>, me: Option<String>) -> Views {
        let me = me.filter(|m| !m.trim().is_empty());
        let all: Vec<View> = builtin_views().into_iter().chain(custom).collect();
        let n = all.len();
        // Mine when there is a "me"; else Open, the work.
        let first = if me.is_some() { "Mine" } else { "Open" };
        Views {
            saved: all.clone(),
            current: all.iter().position(|v| v.name == first).unwrap_or(0),
            all,
            places: vec![Place::default(); n],
            counts: vec![Count::default(); n],
            counted: vec![false; n],
            me,
            keep: HashSet::new(),
            keep_anchor: None,
            moved: None,
            digit: None,
            config_path: None,
            greyed: HashSet::new(),
            generation: 0,
            basis: None,
            thresholds: Default::default(),
        }
    }

    /// Adds `view` after the others; its index.
    pub fn push(&mut self, view: View) -> usize {
        self.all.push(view.clone());
        self.saved.push(view);
        self.places.push(Place::default());
        self.counts.push(Count::default());
        self.counted.push(false);
        self.generation += 1;
        self.all.len() - 1
    }

    /// Adds `view` at `at` (after the built-ins, say); the current view
    /// stays the one it was.
    pub fn insert(&mut self, at: usize, view: View) {
        let at = at.min(self.all.len());
        self.all.insert(at, view.clone());
        self.saved.insert(at, view);
        self.places.insert(at, Place::default());
        self.counts.insert(at, Count::default());
        self.counted.insert(at, false);
        if self.current >= at {
            self.current += 1;
        }
        self.generation += 1;
    }

    /// The wait thresholds of the current view (its own, else the file's).
    pub fn thresholds(&self) -> crate::triage::Thresholds {
        self.current().thresholds.or(self.thresholds)
    }

    pub fn current(&self) -> &View {
        &self.all[self.current.min(self.all.len().saturating_sub(1))]
    }

    /// True when view `i` can hold nothing whatever the account holds
    /// (Mine without an email).
    pub fn is_unusable(&self, i: usize) -> bool {
        // `me` is never blank here (see `new`).
        self.all
            .get(i)
            .is_some_and(|v| v.filter.needs_me() && self.me.is_none())
    }

    /// True when view `i`'s filter was changed with `f` and not saved.
    pub fn is_edited(&self, i: usize) -> bool {
        match (self.all.get(i), self.saved.get(i)) {
            (Some(a), Some(s)) => a.filter != s.filter,
            _ => false,
        }
    }

    /// True when the current view shows every contact in the store's order
    /// (its rows need no list of their own).
    pub fn shows_everything(&self) -> bool {
        let v = self.current();
        v.filter == Default::default() && v.sort == crate::triage::Sort::Activity && self.keep.is_empty()
    }
}

/// A list row and its last message, as a view sees them: borrowed, never
/// copied. Team is kept on the row; the note and custom fields are decoded
/// only for a view that asks for them.
pub struct RowFacts<'a> {
    pub row: &'a Row,
    /// The row's badges (none unless given with [`RowFacts::badged`]).
    pub badges: &'a [crate::tui::shared::Badge],
}

impl<'a> RowFacts<'a> {
    pub fn new(row: &'a Row) -> RowFacts<'a> {
        RowFacts { row, badges: &[] }
    }

    /// The row with its badges from `badges`.
    pub fn badged(row: &'a Row, badges: &'a crate::tui::shared::Badges) -> RowFacts<'a> {
        RowFacts {
            row,
            badges: badges.of(&row.uuid),
        }
    }

    /// The row's last message, when it is up to date with the row.
    fn preview(&self) -> Option<&'a LastMessage> {
        let activity = self.row.last_activity();
        self.row
            .last
            .as_ref()
            .filter(|p| p.activity.is_none() || p.activity == activity)
    }
}

impl Subject for RowFacts<'_> {
    fn closed(&self) -> bool {
        // The customer wrote in it after the close: open, on every face
        // alike (`triage::reopened_by_customer`); the `reopen` badge only
        // marks the row.
        !self.row.is_open() && !crate::triage::reopened_by_customer(self.row.closed_at, self.last_who(), self.last_at())
    }
    fn state_unknown(&self) -> bool {
        self.row.state_unknown
    }
    fn assignee(&self) -> Option<&str> {
        self.row.assigned_user.as_deref().filter(|a| !a.trim().is_empty())
    }
    fn source(&self) -> &str {
        &self.row.source
    }
    fn team(&self) -> Option<&str> {
        self.row.team.as_deref()
    }
    fn has_tag(&self, tag: &str) -> bool {
        self.row.tags.iter().any(|t| same(t, tag))
    }
    fn field_is(&self, name: &str, value: &str) -> bool {
        field_is(&self.row.custom_fields(), name, value)
    }
    fn has_text(&self, needle: &str) -> bool {
        let r = self.row;
        contains_ci(&r.name, needle)
            || contains_ci(&r.phone_number, needle)
            || r.tags.iter().any(|t| contains_ci(t, needle))
            || r.note().is_some_and(|n| contains_ci(&n, needle))
    }
    fn last_activity(&self) -> Option<DateTime<Utc>> {
        self.row.last_activity()
    }
    fn last_who(&self) -> Option<Who> {
        self.preview().and_then(|p| p.who)
    }
    fn last_at(&self) -> Option<DateTime<Utc>> {
        self.preview().and_then(|p| p.at)
    }
    fn wait(&self) -> crate::index::Wait {
        self.preview().map(|p| p.wait).unwrap_or_default()
    }
    fn has_badge(&self, name: &str) -> bool {
        self.badges.iter().any(|b| b.name == name)
    }
    fn hidden_by(&self) -> Option<&str> {
        self.badges.iter().find(|b| b.hides).map(|b| b.name)
    }
}

impl Keyed for RowFacts<'_> {
    fn key(&self) -> &str {
        &self.row.uuid
    }
}
