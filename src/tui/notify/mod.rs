//! Notifications: a new customer message for a contact in Mine or in a
//! view marked `notify = true`, or a conversation passing `breach_after`,
//! raises a terminal notification (`crate::notify`: OSC 777, OSC 9 and the
//! bell, wrapped for tmux and screen, written by the app loop) and runs
//! the agent's `notify_command`. Only while the terminal is unfocused or
//! the contact is not on screen; never while the agent is away; once per
//! message. `B` snoozes them (15 m, 1 h, until tomorrow 9:00), turns
//! them off or on again; the choice is kept across restarts and the status
//! bar says it ("🔕 until 14:30"). Messages that arrive within
//! [`BURST_WINDOW`] of a notification are held and announced as one, with
//! a count ("12 new in Waiting"), when the window ends.
//!
//! And reopening on a reply: a closed conversation the customer writes in
//! again is badged `reopen` and counts as open (so it is in Waiting); with
//! `reopen_on_reply = true` it is reopened on the service too, through the
//! one write pipeline (`Note::Reopen`). The badge goes once its thread is
//! opened or the agent writes on it.
//!
//! The root gathers what the decisions read (who wrote, whose it is, what
//! is on screen) into [`Arrival`]s and calls [`arrivals`] after each
//! update; the rules here read nothing else.

mod fx;
mod state;
mod update;
mod view;

#[cfg(test)]
mod tests;

pub use fx::{NotifyEffect, NotifyMsg, perform};
pub use state::{Arrival, BURST_WINDOW, Notify, REOPENED};
pub use update::{arrivals, arrived, breaches, choose, flush, flush_due, focus, forget, key, on_msg, open, status};
pub use view::render;

/// The slice's state.
pub type State = Notify;
