//! Keeping snoozes in the account's file (`crate::snooze::store`, shared
//! with `frontdesk mcp`): read at start, written one change at a time
//! (only the contacts that changed, so what another process wrote stays),
//! and read again when the clock finds it was written by someone else.

use std::collections::BTreeSet;
use std::path::Path;

pub use crate::snooze::store::file_in;
use crate::snooze::store::{self, Stamp};

use super::msg::SnoozeMsg;
use super::state::Kept;

#[derive(Debug, Clone, PartialEq)]
pub enum SnoozeEffect {
    /// Read the account's snoozes.
    Load { account: String },
    /// Write `contacts`' entries as `kept` (the whole list as this session
    /// sees it) has them; the others stay as the file has them.
    Save {
        account: String,
        kept: Kept,
        contacts: BTreeSet<String>,
    },
    /// Read the file again if it is not the one last read (`seen`).
    Check { account: String, seen: Option<Stamp> },
}

pub async fn perform(effect: SnoozeEffect) -> SnoozeMsg {
    let base = store::state_dir();
    tokio::task::spawn_blocking(move || match base {
        Some(base) => perform_in(&base, effect),
        None => match effect {
            SnoozeEffect::Load { .. } => SnoozeMsg::Loaded(Err("no home directory: snoozes last this session".into())),
            SnoozeEffect::Save { .. } => SnoozeMsg::Saved(Err("no home directory to keep snoozes in".into())),
            SnoozeEffect::Check { .. } => SnoozeMsg::Unchanged,
        },
    })
    .await
    .unwrap_or_else(|e| SnoozeMsg::Saved(Err(format!("keeping snoozes stopped: {e}"))))
}

/// `perform` with the state directory `base` (tests pass their own).
pub fn perform_in(base: &Path, effect: SnoozeEffect) -> SnoozeMsg {
    match effect {
        SnoozeEffect::Load { account } => SnoozeMsg::Loaded(store::load(&file_in(base, &account))),
        SnoozeEffect::Save {
            account,
            kept,
            contacts,
        } => SnoozeMsg::Saved(store::save(&file_in(base, &account), &kept, &contacts)),
        SnoozeEffect::Check { account, seen } => {
            let path = file_in(base, &account);
            let now = store::stamp(&path);
            if now == seen {
                return SnoozeMsg::Unchanged;
            }
            SnoozeMsg::Changed {
                stamp: now,
                kept: store::load(&path),
            }
        }
    }
}
