//! What the slice's effects answer.

use super::state::Kept;
use crate::snooze::store::Stamp;

#[derive(Debug, Clone, PartialEq)]
pub enum SnoozeMsg {
    /// The snoozes kept for the account (none on a first run), or why they
    /// could not be read.
    Loaded(Result<Kept, String>),
    /// The snoozes were written (or why not).
    Saved(Result<(), String>),
    /// The file was written since it was last read (by this session or
    /// another process): what it holds now.
    Changed {
        stamp: Option<Stamp>,
        kept: Result<Kept, String>,
    },
    /// The file is as it was last read.
    Unchanged,
}
