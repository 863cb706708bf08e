//! The details slice: the contact's details pane (its full record with
//! field types), its bot panel, and my own availability and custom status.
//!
//! It reads whose thread shows, the contacts and their bots through `Cx`,
//! and tells the root what it learned about the account (`Note::Learned`,
//! `Note::Collaborator`), a bot's state for the inbox rows (`Note::Bot`)
//! and the bot writes undo records (`WillWrite`, `BotWrote`,
//! `WriteFailed`). Other parts read the shown contact through `Cx::shown`.

mod fx;
mod msg;
mod state;
mod update;
mod view;

#[cfg(test)]
mod tests;

pub use fx::{DetailsEffect, perform};
pub use msg::DetailsMsg;
pub use state::{Availability, BotPanel, Details, NO_USER_HINT};
pub use update::{
    copy_link, custom_status_picker, on_msg, open, scroll, set_custom_status, toggle_availability, toggle_bot,
};
pub use view::{render, render_availability, render_bot};

/// The slice's state.
pub type State = Details;
