//! Marked contacts, by uuid: what an action on many applies to.
//!
//! `Space` toggles one, `*` marks the view, `V` starts a range that
//! follows the selection (vim's visual line mode: moving back shrinks it)
//! until `V` again, `Esc` or an action ends it. Marks are kept by uuid, so
//! they survive a refresh that moves rows; contacts that are no longer
//! loaded lose their mark.

use std::collections::HashSet;

use crate::triage::bulk::Action;

/// A range being marked: from the row of `anchor` to the selection.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Range {
    /// The contact where `V` was pressed.
    pub anchor: String,
    /// The marks from before the range began.
    pub base: HashSet<String>,
    /// The (anchor row, selection, store version) the marks were last
    /// worked out for: nothing to redo while they stay the same.
    pub(crate) seen: Option<(usize, usize, u64)>,
}

#[derive(Debug, Clone, Default)]
pub struct Marks {
    uuids: HashSet<String>,
    /// The `V` range, while it is open.
    pub range: Option<Range>,
    /// The actions of the last run on marks, for `.` (two for a tags
    /// change that adds and removes).
    pub last: Vec<Action>,
    /// What `last` is called in messages (`closing`…).
    pub last_doing: String,
    /// The store version the marks were last checked against.
    pub(crate) checked: u64,
    /// The view whose every row `*` marked: a run on the marks skips a
    /// contact that, read just before its write, is no longer in it.
    /// Marking one more by hand (or a range) drops it.
    pub chosen: Option<crate::triage::ViewFilter>,
}

impl Marks {
    pub fn len(&self) -> usize {
        self.uuids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.uuids.is_empty()
    }

    pub fn contains(&self, uuid: &str) -> bool {
        self.uuids.contains(uuid)
    }

    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.uuids.iter()
    }

    /// Marks `uuid` if it was not, else unmarks it; true when now marked.
    pub fn toggle(&mut self, uuid: &str) -> bool {
        if self.uuids.remove(uuid) {
            false
        } else {
            self.uuids.insert(uuid.to_string());
            self.chosen = None;
            true
        }
    }

    pub fn insert(&mut self, uuid: &str) {
        if !self.uuids.contains(uuid) {
            self.uuids.insert(uuid.to_string());
        }
    }

    pub fn remove(&mut self, uuid: &str) {
        self.uuids.remove(uuid);
    }

    /// Drops every mark and the open range.
    pub fn clear(&mut self) {
        self.uuids.clear();
        self.range = None;
        self.chosen = None;
    }

    /// Keeps the marks `keep` says yes to (the range's base too).
    pub fn retain(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.uuids.retain(|u| keep(u));
        if let Some(r) = self.range.as_mut() {
            r.base.retain(|u| keep(u));
        }
    }

    /// Replaces the marks (a range's base plus its rows).
    pub(crate) fn set(&mut self, uuids: HashSet<String>) {
        self.uuids = uuids;
    }
}
