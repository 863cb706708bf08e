//! Outward notes: what a slice tells the root happened or is wanted. The
//! root hands each to the slices that care (or turns it into an effect);
//! a slice never calls into another.

use super::catalog::Part;
use super::pane::Pane;
use super::req::ReqId;
use super::status::ToastKind;
use crate::api::{Contact, Message};

#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// A line in the status bar; `secs` overrides how long it stays.
    Toast {
        kind: ToastKind,
        text: String,
        secs: Option<i64>,
    },
    /// Move the focus to a pane.
    Focus(Pane),
    /// Show `uuid`'s thread and details now (the selection settled on it,
    /// or the list's first rows arrived).
    Show(String),
    /// `uuid`'s thread was shown: its row is no longer new.
    Seen(String),
    /// A write of ours the API accepted, with the contact it returned when
    /// there is one: rows update at once, the index takes a pass.
    Wrote(Option<Box<Contact>>),
    /// A message was sent to `contact` (its row and thread follow): the
    /// text the thread shows, and when the agent sent it.
    Sent {
        contact: String,
        text: String,
        at: chrono::DateTime<chrono::Utc>,
    },
    /// A message to `contact` is on its way: the thread scrolls to its newest.
    Sending {
        contact: String,
    },
    /// Fetch a part of the catalog now (a slice waits for it).
    Fetch(Part),
    /// A contact fetched in full: `known` learns its tags, sources, teams
    /// and field types.
    Learned(Box<Contact>),
    /// A team member's email and name: the assign form offers them.
    Collaborator {
        email: String,
        name: String,
        /// Whether they are available now, when the service said.
        available: Option<bool>,
    },
    /// `uuid`'s bot runs (or not): its row shows it.
    Bot {
        uuid: String,
        running: bool,
    },
    /// A single write `id` goes out: undo remembers the contact as it was.
    WillWrite {
        id: ReqId,
        action: crate::triage::bulk::Action,
        before: Box<Contact>,
        bot_before: Option<bool>,
    },
    /// The bot write `id` succeeded: undo records it and says so (else a
    /// plain toast).
    BotWrote {
        id: ReqId,
        uuid: String,
        running: bool,
    },
    /// The single write `id` failed: nothing to undo.
    WriteFailed(ReqId),
    /// Put a badge on `uuid`'s row (`on`) or take it off.
    Badge {
        uuid: String,
        badge: super::badges::Badge,
        on: bool,
    },
    /// A sync or a refresh brought `uuid` a new message (not one this
    /// session sent): notifications and reopening decide on it.
    Arrived(String),
    /// Reopen `uuid` on the service (a reply in a closed conversation,
    /// `reopen_on_reply`): the root sends it through the write pipeline.
    Reopen(String),
    /// Bytes for the terminal (a notification's escape sequences), written
    /// by the app loop.
    Terminal(String),
    /// Terminal-side: ring the bell, redraw everything, copy text.
    Bell,
    Redraw,
    Copy(String),
    Quit,
    /// The newest page of `contact`'s thread arrived (newest first); `fresh`:
    /// first opened or it brought messages the thread lacked. The index may
    /// store it (the list's preview and `/` over the thread's text).
    ThreadPage {
        contact: String,
        messages: Vec<Message>,
        fresh: bool,
    },
    /// A catalog part was asked for with `id` (the asker sends the
    /// request): an answer to an earlier fetch is then dropped.
    CatalogFetch {
        part: Part,
        id: ReqId,
    },
    /// The server renamed a catalog row (a template or a channel) to `title`.
    CatalogRenamed {
        part: Part,
        uuid: String,
        title: String,
    },
}
