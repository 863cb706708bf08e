//! Notifications: a new customer message for a contact in Mine or in a
//! view marked `notify = true`, or a conversation passing `breach_after`,
//! raises a terminal notification (`crate::notify`: OSC 777, OSC 9 and the
//! bell, wrapped for tmux and screen, written by the app loop) and runs
//! the agent's `notify_command`. Only while the terminal is unfocused or
//! the contact is not on screen; never while the agent is away; once per
//! message. `B` turns them off (and on) for the session.
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

#[cfg(test)]
mod tests;

pub use fx::{NotifyEffect, NotifyMsg, perform};
pub use state::{Arrival, Notify, REOPENED};
pub use update::{arrivals, arrived, breaches, focus, forget, on_msg, toggle};

/// The slice's state.
pub type State = Notify;
