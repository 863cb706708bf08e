//! What the slice's effects answer.

use super::state::Kept;

#[derive(Debug, Clone, PartialEq)]
pub enum SnoozeMsg {
    /// The snoozes kept for the account (none on a first run), or why they
    /// could not be read.
    Loaded(Result<Kept, String>),
    /// The snoozes were written (or why not).
    Saved(Result<(), String>),
}
