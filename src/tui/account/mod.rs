//! The account slice: the overlay (`A`) over the inbox with templates,
//! channels, teams, the plan and the webhook log, one tab each; renames and
//! the webhook log's filters and pages.
//!
//! The lists live in the shared catalog (`cx.catalog`, kept by the root);
//! the overlay keeps what is its own: selections, opened records, the
//! webhook log and the forms over it. It asks for catalog parts itself and
//! tells the root with `Note::CatalogFetch`; a rename goes back as
//! `Note::CatalogRenamed`.

mod fx;
mod msg;
mod state;
mod update;
mod view;

#[cfg(test)]
mod tests;

pub use fx::{AccountEffect, perform};
pub use msg::{AccountMsg, RenameTarget, Renamed};
pub use state::{
    Account, AccountAreas, AccountForm, AccountTab, EVENT_KINDS, EventFilter, MAX_PAGE_SIZE, Members, Rename,
    TemplateDetail, Webhooks, account_areas,
};
pub use update::{catalog_settled, key, loaded, open, paste, visible_rows};
pub use view::render;

/// The slice's state: the overlay, when open.
pub type State = state::Open;
