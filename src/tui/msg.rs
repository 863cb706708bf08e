//! Everything that can happen to the app arrives as a `Msg`: keys, time,
//! and the results of effects. Results carry the id of the request that
//! produced them so stale ones can be recognised and dropped.

pub use crate::fill::msg as index;
pub use crate::tui::inbox::msg as search;
pub use crate::tui::shared::req;

pub use crate::tui::inbox::msg::ListFetch;
pub use crate::tui::shared::WriteKind;
pub use crate::tui::thread::ThreadFetch;
pub use req::ReqId;

use chrono::{DateTime, Utc};
use crossterm::event::KeyEvent;

use crate::api::{ApiError, Contact, Page};

#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Paste(String),
    /// A click or the wheel (only with `mouse = true`).
    Mouse(crossterm::event::MouseEvent),
    Resize(u16, u16),
    /// The terminal gained (`true`) or lost the focus (focus reporting).
    Focus(bool),
    /// The clock: spinners, relative times, toast expiry, debounce.
    Tick(DateTime<Utc>),
    /// Time to refresh the first page and the open thread.
    RefreshDue,
    /// SIGTERM, SIGHUP, or the input stream ended.
    Quit,
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
    /// A new contact was created (or not).
    Created {
        id: ReqId,
        result: Result<Contact, ApiError>,
    },
    /// One action of a write is done (see `Effect::Apply`).
    Applied {
        id: ReqId,
        uuid: String,
        answer: crate::tui::act::Answer,
    },
    /// The run history file's answers (`Effect::Runs`).
    Runs(crate::tui::act::RunsMsg),
    /// Results of the inbox's effects.
    Inbox(crate::tui::inbox::InboxMsg),
    /// Results of the reply composer's effects.
    Compose(crate::tui::compose::ComposeMsg),
    /// Results for the account overlay.
    Account(crate::tui::account::AccountMsg),
    /// Results of the details pane's requests.
    Details(crate::tui::details::DetailsMsg),
    /// Results of the thread's requests.
    Thread(crate::tui::thread::ThreadMsg),
    /// The local index's worker.
    Index(index::IndexMsg),
    /// Answers for the slices wired through the registry.
    Slice(crate::tui::slices::SliceMsg),
}

impl From<index::IndexMsg> for Msg {
    fn from(m: index::IndexMsg) -> Msg {
        Msg::Index(m)
    }
}

impl From<crate::tui::inbox::list_walk::Loaded> for Msg {
    fn from(l: crate::tui::inbox::list_walk::Loaded) -> Msg {
        Msg::ContactsLoaded {
            id: l.id,
            generation: l.generation,
            fetch: l.fetch,
            result: l.result,
        }
    }
}
