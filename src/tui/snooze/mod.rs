//! Snooze (`z`): a conversation sleeps until a time (presets, or typed:
//! `10m`, `3d`, `fri 14:00`) or until the customer writes. A snoozed
//! conversation leaves every view but All and Snoozed (its badge hides
//! it), and comes back marked `back` when its time comes or a message
//! arrives; the mark goes once its thread is opened. `z` on a snoozed
//! conversation wakes it at once.
//!
//! Kept on this machine, per account (0600), so a restart keeps it; with
//! a team hub configured, kept on the hub for the whole team (see `fx`).
//! The times are `crate::snooze`'s, which the tests and the CLI share.

mod fx;
mod msg;
mod state;
mod update;
mod view;

#[cfg(test)]
mod tests;

pub use fx::{SnoozeEffect, perform, perform_on_hub};
pub use msg::SnoozeMsg;
pub use state::OnHub;
pub use state::{BACK, Entry, Picker, SNOOZED, Snooze};
pub use update::{claims_undo, key, on_msg, open, paste, snooze_until, startup, tick, undo};
pub use view::render;

/// The slice's state.
pub type State = Snooze;

/// The view of what sleeps.
pub fn view() -> crate::triage::View {
    crate::triage::View::new(
        "Snoozed",
        crate::triage::ViewFilter {
            badge: Some(SNOOZED.name.into()),
            ..Default::default()
        },
    )
}
