//! The inbox slice: the contact list (its walk, refresh and `/` search),
//! the views above it with their counts, the marks, and the local index
//! as the list sees it.
//!
//! Other slices read the list through `Cx::contacts` (the [`Contacts`]
//! impl of [`ContactList`]) and write to its rows through notes the root
//! routes here.
//!
//! [`Contacts`]: crate::tui::shared::Contacts

mod fx;
pub mod list_walk;
pub mod msg;
mod state;
pub mod update;
pub mod view;

#[cfg(test)]
mod tests;

pub use fx::{InboxEffect, IndexAsk, perform};
pub use msg::InboxMsg;
pub use state::{ContactList, HubLink, Inbox, InboxRef, Marks, SyncStatus, SyncView, Views};
pub use state::{contact_list, marks, sync, views};
pub use update::marks as marking;
pub use update::search::SEARCH_HITS;
pub use view::{render, tabs};

/// The slice's state: the root's parts lent together (the root keeps them
/// as `list`, `views`, `marks` and `sync`).
pub type State<'a> = Inbox<'a>;
