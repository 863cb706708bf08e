//! The agent's own writes, kept so they can be taken back: the last
//! [`KEEP`] actions (one contact or many), each with what undoes it on
//! every contact it changed, and the offer of `u` for [`WINDOW_SECS`]
//! after the newest.
//!
//! An undo is itself a run of actions (`Purpose::Undo`);
//! it marks its entry undone and is not an entry of its own (undoing an
//! undo is not offered: do the action again).

use std::collections::{HashMap, VecDeque};

use chrono::{DateTime, Duration, Utc};

use super::run::{Guard, Job};
use crate::api::Contact;
use crate::triage::bulk::{Action, Reverse};
use crate::tui::shared::{Contacts, ReqId};

/// Entries the history keeps.
pub const KEEP: usize = 20;
/// How long `u` undoes the newest action.
pub const WINDOW_SECS: i64 = crate::tui::shared::UNDO_WINDOW_SECS;

/// One contact's part of an entry: one action on it. A run that makes
/// several on a contact (a macro's steps, a tags change that adds and
/// removes) has an item for each, in the order they were made.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub uuid: String,
    pub name: String,
    /// What was done to it.
    pub action: Action,
    /// What takes the action back on this contact.
    pub reverse: Reverse,
    /// The contact before the action (as the service showed it just
    /// before, when it was read).
    pub before: Contact,
    /// The contact as the action left it (the API's answer).
    pub after: Contact,
    /// For a bot action: whether the bot runs after it.
    pub bot_after: Option<bool>,
    /// Its undo went through.
    pub undone: bool,
    /// Its undo found these fields changed by someone since and left them
    /// (in words): it is not offered again.
    pub conflicts: Vec<String>,
}

impl Item {
    /// The undo still to send on this contact.
    fn to_undo(&self) -> Option<&Action> {
        match &self.reverse {
            Reverse::Do(a) if !self.undone && self.conflicts.is_empty() => Some(a),
            _ => None,
        }
    }
}

/// One action of the agent's (or one macro's steps), on one contact or
/// many: undo takes it back as one step.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: u64,
    pub at: DateTime<Utc>,
    /// Its (first) action: each item has its own.
    pub action: Action,
    /// What happened, for the toast and the history (`closed Ada`).
    pub what: String,
    /// The contacts it changed.
    pub items: Vec<Item>,
    /// A run made elsewhere (the CLI, an assistant): its id in the run
    /// history file, where its undo is written too.
    pub run: Option<String>,
    /// What it did that undo cannot take back, in words (`the message
    /// stays sent`): its undo says so.
    pub stays: Option<String>,
}

/// Whether an entry can be taken back now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// Yes, on this many contacts.
    Undoable(usize),
    /// Its undo is running.
    Undoing,
    /// Already taken back.
    Undone,
    /// This contact (by name) changed since in a field the action set
    /// (each contact it would take back has, as far as the list knows).
    Changed(String),
    /// Its undo left every contact as a colleague changed it since.
    Kept,
    /// The API cannot take it back.
    Cannot(&'static str),
    /// It changed nothing.
    Nothing,
}

impl State {
    /// Why `u` refuses, or `None` when it may go ahead.
    pub fn refusal(&self) -> Option<String> {
        Some(match self {
            State::Undoable(_) => return None,
            State::Undoing => "its undo is already running".into(),
            State::Undone => "already undone".into(),
            State::Changed(name) => format!("changed since: {name}"),
            State::Kept => "a colleague changed it since; their edit stands".into(),
            State::Cannot(why) => format!("cannot undo: {why}"),
            State::Nothing => "it changed nothing".into(),
        })
    }

    /// For the history overlay.
    pub fn label(&self) -> String {
        match self {
            State::Undoable(_) => "can undo".into(),
            State::Undoing => "undoing…".into(),
            State::Undone => "undone".into(),
            State::Changed(_) => "changed since".into(),
            State::Kept => "kept theirs".into(),
            State::Cannot(_) => "cannot undo".into(),
            State::Nothing => "nothing to undo".into(),
        }
    }
}

impl Entry {
    /// How many contacts it changed.
    pub fn contacts(&self) -> usize {
        distinct(self.items.iter())
    }

    /// The contact `uuid` as the entry's last action on it left it.
    fn last_after(&self, uuid: &str) -> Option<&Contact> {
        self.items.iter().rev().find(|i| i.uuid == uuid).map(|i| &i.after)
    }

    /// How many of its contacts cannot be taken back, and the first reason.
    pub fn cannot(&self) -> (usize, Option<&'static str>) {
        let mut why = None;
        let mut n = 0;
        let mut seen = std::collections::HashSet::new();
        for item in &self.items {
            if let Reverse::Cannot(w) = item.reverse
                && seen.insert(item.uuid.as_str())
            {
                n += 1;
                why.get_or_insert(w);
            }
        }
        (n, why)
    }

    /// Whether it can be undone now, given the list as it is (and whether
    /// an undo of it is running).
    pub fn state(&self, list: &dyn Contacts, undoing: bool) -> State {
        if undoing {
            return State::Undoing;
        }
        let todo: Vec<&Item> = self.items.iter().filter(|i| i.to_undo().is_some()).collect();
        if todo.is_empty() {
            if self.items.iter().any(|i| i.undone) {
                return State::Undone;
            }
            if self.items.iter().any(|i| !i.conflicts.is_empty()) {
                return State::Kept;
            }
            return match self.cannot() {
                (_, Some(why)) => State::Cannot(why),
                _ => State::Nothing,
            };
        }
        // The list may be behind: the undo itself reads each contact again
        // and leaves a field someone changed since (a conflict). Only when
        // every contact to take back is already seen changed is it refused;
        // a run made elsewhere is not in the list at all, and goes to the
        // service to be judged.
        let changed = |i: &Item| changed_since(&i.action, i, self.last_after(&i.uuid).unwrap_or(&i.after), list);
        if self.run.is_none()
            && todo.iter().all(|i| changed(i))
            && let Some(item) = todo.first()
        {
            return State::Changed(crate::tui::text::sanitize_line(&item.name));
        }
        State::Undoable(distinct(todo.into_iter()))
    }

    /// The jobs that take it back (the contact before each is as the
    /// action left it), the last action first: a run sends a contact's
    /// jobs one at a time in this order, so a macro's steps are taken back
    /// from its last. Each carries a guard: the write re-reads the contact
    /// and takes back only the fields still as the action left them. A
    /// bot's state is not part of the contact: its undo goes as is.
    pub fn jobs(&self) -> Vec<Job> {
        self.items
            .iter()
            .rev()
            .filter_map(|i| {
                let action = i.to_undo()?.clone();
                let guard = (!matches!(i.action, Action::Bot(_))).then(|| {
                    Box::new(Guard::Undo {
                        action: i.action.clone(),
                        before: i.before.clone(),
                        after: i.after.clone(),
                    })
                });
                Some(Job {
                    uuid: i.uuid.clone(),
                    name: i.name.clone(),
                    action,
                    before: i.after.clone(),
                    bot_before: i.bot_after,
                    guard,
                })
            })
            .collect()
    }
}

/// How many contacts `items` are for.
fn distinct<'a>(items: impl Iterator<Item = &'a Item>) -> usize {
    items
        .map(|i| i.uuid.as_str())
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// Has the loaded row of `item` moved, since the entry left it as `after`,
/// in a field the action set? A contact not loaded (or a field the list
/// does not know, like a note a server leaves out of its lists) cannot
/// tell, and does not block the undo: the API is the judge then.
fn changed_since(action: &Action, item: &Item, after: &Contact, list: &dyn Contacts) -> bool {
    let Some(row) = list.contact(&item.uuid) else {
        return false;
    };
    let norm = |s: Option<&str>| s.map(str::trim).filter(|s| !s.is_empty()).map(str::to_lowercase);
    let tagset = |tags: &mut dyn Iterator<Item = &str>| {
        let mut v: Vec<String> = tags.map(str::to_lowercase).collect();
        v.sort();
        v.dedup();
        v
    };
    match action {
        // A row whose state is unknown cannot tell: the API judges.
        Action::Close | Action::Reopen if row.state_unknown || after.state_unknown => false,
        Action::Close | Action::Reopen => row.closed_at.is_some() != after.closed_at.is_some(),
        Action::Assign(_) | Action::Unassign => {
            norm(row.assigned_user.as_deref()) != norm(after.assigned_user.as_deref())
        }
        Action::Tag(_) | Action::Untag(_) | Action::SetTags(_) => {
            tagset(&mut row.tags.iter().map(String::as_str)) != tagset(&mut after.tags.iter().map(String::as_str))
        }
        Action::Team(_) => row.team_uuid().is_some() && row.team_uuid() != after.team_uuid(),
        Action::Note(_) => {
            let now = row;
            now.note.is_some() && now.note.as_deref().unwrap_or("") != after.note.as_deref().unwrap_or("")
        }
        Action::Bot(_) => match (list.bot_running(&item.uuid), item.bot_after) {
            (Some(now), Some(after)) => now != after,
            _ => false,
        },
        Action::Edit { .. } | Action::ConversationNote(_) => false,
    }
}

/// `u`'s offer: the entry it undoes, until when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    pub entry: u64,
    pub until: DateTime<Utc>,
}

/// A single write in flight that becomes an entry when it succeeds.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    pub action: Action,
    /// The contact before the write.
    pub before: Contact,
    pub bot_before: Option<bool>,
}

/// The history overlay's cursor.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursor {
    pub selected: usize,
}

#[derive(Debug, Clone, Default)]
pub struct History {
    /// Newest first, at most [`KEEP`].
    pub entries: VecDeque<Entry>,
    pub offer: Option<Offer>,
    /// Single writes in flight, by request id.
    pub pending: HashMap<ReqId, Pending>,
    /// The entry whose undo is running.
    pub undoing: Option<u64>,
    /// Something the agent did since the newest entry that cannot be
    /// taken back (a message sent): the next `u` says so instead of
    /// undoing what came before it.
    pub barrier: Option<Barrier>,
    next: u64,
}

/// What happened that `u` cannot take back, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Barrier {
    /// In words: `sending`.
    pub what: String,
    pub at: DateTime<Utc>,
}

impl History {
    /// Adds an entry (newest) and offers `u` for it; its id.
    pub fn push(&mut self, at: DateTime<Utc>, action: Action, what: String, items: Vec<Item>) -> u64 {
        let id = self.next_id();
        self.entries.push_front(Entry {
            id,
            at,
            action,
            what,
            items,
            run: None,
            stays: None,
        });
        self.entries.truncate(KEEP);
        self.barrier = None;
        self.offer = Some(Offer {
            entry: id,
            until: at + Duration::seconds(WINDOW_SECS),
        });
        id
    }

    /// A new entry's id.
    pub fn next_id(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    pub fn get(&self, id: u64) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    pub fn get_mut(&mut self, id: u64) -> Option<&mut Entry> {
        self.entries.iter_mut().find(|e| e.id == id)
    }

    /// The agent did `what`, which cannot be taken back: the next `u`
    /// says so (and what a second `u` would undo).
    pub fn cannot_undo(&mut self, what: &str, at: DateTime<Utc>) {
        self.barrier = Some(Barrier {
            what: what.to_string(),
            at,
        });
    }

    /// What `u` cannot take back at `now`, said once: it is forgotten
    /// when asked for, and after [`WINDOW_SECS`].
    pub fn take_barrier(&mut self, now: DateTime<Utc>) -> Option<String> {
        let b = self.barrier.take()?;
        (b.at + Duration::seconds(WINDOW_SECS) > now).then_some(b.what)
    }

    /// When what `u` acts on at `now` happened: the entry it offers, or
    /// something that cannot be undone since (a send).
    pub fn newest_at(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let offered = self.offered(now).and_then(|id| self.get(id)).map(|e| e.at);
        let barrier = self.barrier.as_ref().map(|b| b.at);
        offered.max(barrier)
    }

    /// The entry `u` undoes at `now`, if its window is open.
    pub fn offered(&self, now: DateTime<Utc>) -> Option<u64> {
        self.offer.filter(|o| o.until > now).map(|o| o.entry)
    }

    /// The state of entry `id`.
    pub fn state(&self, id: u64, list: &dyn Contacts) -> Option<State> {
        self.get(id).map(|e| e.state(list, self.undoing == Some(id)))
    }
}
