//! Everything that can happen to the app arrives as a `Msg`: keys, time,
//! and the results of effects. Results carry the id of the request that
//! produced them so stale ones can be recognised and dropped.

pub(crate) mod account;
pub mod index;
pub use crate::tui::shared::req;
pub mod search;

pub use crate::tui::thread::ThreadFetch;
pub use req::ReqId;

use chrono::{DateTime, Utc};
use crossterm::event::KeyEvent;

use crate::api::{ApiError, Contact, Page};

/// Which list request a contacts page answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListFetch {
    /// The next batch by cursor (or the first after a filter change).
    Next,
    /// The periodic refresh of the first page.
    Refresh,
}

/// A write on a contact, for pending markers, toasts and drafts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WriteKind {
    Close,
    Reopen,
    Edit,
    Tags,
    Assign,
    Team,
    Note,
    NewContact,
}

impl WriteKind {
    /// Past tense for the success toast.
    pub fn done(self) -> &'static str {
        match self {
            WriteKind::Close => "conversation closed",
            WriteKind::Reopen => "conversation reopened",
            WriteKind::Edit => "contact saved",
            WriteKind::Tags => "tags saved",
            WriteKind::Assign => "assignment saved",
            WriteKind::Team => "team saved",
            WriteKind::Note => "note saved",
            WriteKind::NewContact => "contact created",
        }
    }
    pub fn verb(self) -> &'static str {
        match self {
            WriteKind::Close => "close",
            WriteKind::Reopen => "reopen",
            WriteKind::Edit => "save the contact",
            WriteKind::Tags => "save the tags",
            WriteKind::Assign => "assign",
            WriteKind::Team => "set the team",
            WriteKind::Note => "save the note",
            WriteKind::NewContact => "create the contact",
        }
    }
}

#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Paste(String),
    /// A click or the wheel (only with `mouse = true`).
    Mouse(crossterm::event::MouseEvent),
    Resize(u16, u16),
    /// The clock: spinners, relative times, toast expiry, debounce.
    Tick(DateTime<Utc>),
    /// Time to refresh the first page and the open thread.
    RefreshDue,
    /// SIGTERM, SIGHUP, or the input stream ended.
    Quit,
    /// A view was written to the config file (`f`, "Save as").
    ViewSaved {
        name: String,
        result: Result<(), String>,
    },
    /// A lone digit waited long enough: it names a view, not a count.
    CountTimeout(ReqId),
    /// The selection has stayed on one contact long enough to load it.
    SelectionSettled(ReqId),
    ContactsLoaded {
        id: ReqId,
        generation: u64,
        fetch: ListFetch,
        result: Result<Page<Contact>, ApiError>,
    },
    /// The contact whose phone number is `identifier`, if among the newest.
    ContactFound {
        id: ReqId,
        identifier: String,
        result: Result<Option<Contact>, ApiError>,
    },
    WriteDone {
        id: ReqId,
        uuid: String,
        kind: WriteKind,
        result: Result<Contact, ApiError>,
    },
    /// One job of an action on many contacts is done.
    Applied {
        id: ReqId,
        uuid: String,
        result: Result<Contact, ApiError>,
    },
    /// What a `/` search found (run off the UI thread).
    ContactsSearched(search::SearchDone),
    /// Results of the reply composer's effects.
    Compose(crate::tui::compose::ComposeMsg),
    /// Results for the account overlay.
    Account(account::AccountMsg),
    /// Results of the details pane's requests.
    Details(crate::tui::details::DetailsMsg),
    /// Results of the thread's requests.
    Thread(crate::tui::thread::ThreadMsg),
    /// The local index's worker.
    Index(index::IndexMsg),
}
