//! The inbox's state: the contact list, the views, the marks and the
//! local index as the list sees it.
//!
//! The root keeps the four parts as its own fields (`list`, `views`,
//! `marks`, `sync`: what the end-to-end tests read) and lends them
//! together as an [`Inbox`] when it calls the slice.

pub mod contact_list;
pub mod marks;
pub mod sync;
pub mod views;

pub use contact_list::ContactList;
pub use marks::Marks;
pub use sync::{HubLink, SyncStatus, SyncView};
pub use views::Views;

use crate::tui::shared::ReqId;

/// The inbox's parts, lent by the root for one call.
pub struct Inbox<'a> {
    pub list: &'a mut ContactList,
    pub views: &'a mut Views,
    pub marks: &'a mut Marks,
    pub sync: &'a mut SyncView,
    /// The debounce id the selection waits on.
    pub settle: &'a mut Option<ReqId>,
    /// The badges slices put on rows, which views filter on (read only).
    pub badges: &'a crate::tui::shared::Badges,
}

/// The inbox's parts, read by its view.
#[derive(Clone, Copy)]
pub struct InboxRef<'a> {
    pub list: &'a ContactList,
    pub views: &'a Views,
    pub marks: &'a Marks,
    pub sync: &'a SyncView,
    pub badges: &'a crate::tui::shared::Badges,
}
