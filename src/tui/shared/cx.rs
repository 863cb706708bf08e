//! What a slice's update reads and what it hands back.
//!
//! A slice's update is `fn(&mut State, &Cx, &mut Out<Fx>, ...)`: it changes
//! only its own state, reads everything else through `Cx` (read-only, built
//! by the root for each call), and returns its own effects and the notes the
//! root routes to the slices that care.

use chrono::{DateTime, Utc};

use super::catalog::Catalog;
use super::known::Known;
use super::layout::Areas;
use super::note::Note;
use super::pane::Pane;
use super::req::ReqId;
use super::session::Session;
use super::status::ToastKind;
use crate::api::Contact;
use crate::tui::keymap::resolve::Keymap;

/// The contacts the inbox holds, as other slices may read them.
pub trait Contacts {
    /// The contact whose uuid is `uuid`, if loaded.
    fn contact(&self, uuid: &str) -> Option<Contact>;
    /// Its label (name, else number), if loaded.
    fn label(&self, uuid: &str) -> Option<String>;
    /// When it last had a message or changed, if known.
    fn last_activity(&self, uuid: &str) -> Option<DateTime<Utc>>;
    /// Whether the customer wrote its last message: `None` until the last
    /// message (with the local index) is known.
    fn customer_wrote_last(&self, _uuid: &str) -> Option<bool> {
        None
    }
    /// Whether its bot runs, if known.
    fn bot_running(&self, _uuid: &str) -> Option<bool> {
        None
    }
}

/// No contacts: for tests and for a slice that reads none.
pub struct NoContacts;

impl Contacts for NoContacts {
    fn contact(&self, _: &str) -> Option<Contact> {
        None
    }
    fn label(&self, _: &str) -> Option<String> {
        None
    }
    fn last_activity(&self, _: &str) -> Option<DateTime<Utc>> {
        None
    }
}

/// The read-only context of one update call.
#[derive(Clone, Copy)]
pub struct Cx<'a> {
    pub now: DateTime<Utc>,
    /// The session's keys: what a slice maps keys through.
    pub keys: &'a Keymap,
    pub session: &'a Session,
    pub focus: Pane,
    /// Where each pane is now (page sizes, wrapping).
    pub areas: Areas,
    pub width: u16,
    pub height: u16,
    /// A toast shows: the status line takes two rows.
    pub toasting: bool,
    /// The selected contact's uuid.
    pub selected: Option<&'a str>,
    pub contacts: &'a dyn Contacts,
    pub catalog: &'a Catalog,
    pub known: &'a Known,
    /// Whose thread and details show (set when the selection settles).
    pub open: Option<&'a str>,
    /// The details pane's full record of `open` (with field types), once
    /// loaded: what forms edit.
    pub shown: Option<&'a Contact>,
    /// Whether the local index backs the inbox (syncs, stores threads).
    pub indexed: bool,
    /// When the newest write `u` would take back (or say it cannot) was
    /// made, while `u` offers it: a slice with an undo of its own (snooze)
    /// answers `u` only for something newer.
    pub undo_at: Option<DateTime<Utc>>,
    /// Who else views or answers which customer (through a hub).
    pub colleagues: &'a super::colleagues::Colleagues,
}

/// How long `u` takes back the newest action.
pub const UNDO_WINDOW_SECS: i64 = 10;

impl Cx<'_> {
    pub fn is_wide(&self) -> bool {
        self.width >= super::layout::WIDE
    }

    /// Contact rows that fit in the list pane.
    pub fn list_rows(&self) -> usize {
        self.areas.list_rows(self.width, self.height)
    }
}

/// What one update call hands back: effects of the slice's own kind `F`,
/// notes for the root, and fresh request ids.
pub struct Out<'a, F> {
    ids: &'a mut ReqId,
    pub fx: Vec<F>,
    pub notes: Vec<Note>,
}

impl<'a, F> Out<'a, F> {
    pub fn new(ids: &'a mut ReqId) -> Self {
        Out {
            ids,
            fx: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// A fresh request id, unique for the life of the app.
    pub fn id(&mut self) -> ReqId {
        *self.ids += 1;
        *self.ids
    }

    pub fn fx(&mut self, effect: F) {
        self.fx.push(effect);
    }

    pub fn note(&mut self, note: Note) {
        self.notes.push(note);
    }

    /// A toast in the status bar.
    pub fn toast(&mut self, kind: ToastKind, text: impl Into<String>) {
        self.notes.push(Note::Toast {
            kind,
            text: text.into(),
            secs: None,
        });
    }

    /// The same call for a part with effects of another kind (a helper of
    /// the slice): its ids come from the same counter.
    pub fn part<G>(&mut self) -> Out<'_, G> {
        Out::new(self.ids)
    }

    /// Takes a part's effects (mapped) and notes back.
    pub fn absorb<G>(&mut self, part: (Vec<G>, Vec<Note>), map: impl FnMut(G) -> F) {
        self.fx.extend(part.0.into_iter().map(map));
        self.notes.extend(part.1);
    }

    /// The effects and notes, for the root.
    pub fn finish(self) -> (Vec<F>, Vec<Note>) {
        (self.fx, self.notes)
    }
}
