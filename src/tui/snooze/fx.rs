//! Keeping snoozes in the account's file (`crate::snooze::store`, shared
//! with `frontdesk mcp`): read at start, written one change at a time
//! (only the contacts that changed, so what another process wrote stays),
//! and read again when the clock finds it was written by someone else.
//!
//! With a team hub ([`SnoozeEffect::Hub`]) what sleeps is kept on the hub
//! instead, for the whole team: read with `GET /hub/v1/snoozes`, a change
//! is a `PUT` or `DELETE` of that contact's snooze, and the clock's check
//! reads the list again (a change is told by its digest). What is marked
//! `back` is this agent's own and stays in the file.

use std::collections::BTreeSet;
use std::path::Path;

use crate::hubclient::TeamSnooze;
use crate::snooze::Until;

pub use crate::snooze::store::file_in;
use crate::snooze::store::{self, Stamp};

use super::msg::SnoozeMsg;
use super::state::{Kept, OnHub};

#[derive(Debug, Clone, PartialEq)]
pub enum SnoozeEffect {
    /// The same on the team hub: what sleeps is the team's (`GET`, `PUT`,
    /// `DELETE /hub/v1/snoozes`); what is marked back stays this machine's.
    Hub(OnHub, Box<SnoozeEffect>),
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
    if let SnoozeEffect::Hub(on, effect) = effect {
        return perform_on_hub(&on, base.as_deref(), *effect).await;
    }
    tokio::task::spawn_blocking(move || match base {
        Some(base) => perform_in(&base, effect),
        None => match effect {
            SnoozeEffect::Load { .. } => SnoozeMsg::Loaded(Err("no home directory: snoozes last this session".into())),
            SnoozeEffect::Save { .. } => SnoozeMsg::Saved(Err("no home directory to keep snoozes in".into())),
            SnoozeEffect::Check { .. } | SnoozeEffect::Hub(..) => SnoozeMsg::Unchanged,
        },
    })
    .await
    .unwrap_or_else(|e| SnoozeMsg::Saved(Err(format!("keeping snoozes stopped: {e}"))))
}

/// `perform` with the state directory `base` (tests pass their own).
pub fn perform_in(base: &Path, effect: SnoozeEffect) -> SnoozeMsg {
    match effect {
        // Only `perform` reaches a hub.
        SnoozeEffect::Hub(_, effect) => perform_in(base, *effect),
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

/// The team's snoozes as entries, and this machine's `back` marks.
fn from_hub(on: &OnHub, team: Vec<TeamSnooze>, back: BTreeSet<String>) -> Kept {
    let now = chrono::Utc::now();
    let asleep = team
        .into_iter()
        .filter_map(|s| {
            let until = match (s.until, s.until_reply) {
                (Some(at), _) => Until::At(at),
                (None, true) => Until::Reply,
                (None, false) => return None,
            };
            let by = Some(s.agent).filter(|a| !a.is_empty() && on.me.as_deref() != Some(a.as_str()));
            let entry = store::Entry {
                until,
                since: s.since.unwrap_or(now),
                name: s.name.unwrap_or_else(|| s.contact.clone()),
                by,
            };
            Some((s.contact, entry))
        })
        .collect();
    Kept { asleep, back }
}

/// The `back` marks of this machine's file (none without a home directory).
fn local_back(base: Option<&Path>, account: &str) -> Result<BTreeSet<String>, String> {
    match base {
        Some(base) => store::load(&file_in(base, account)).map(|k| k.back),
        None => Ok(BTreeSet::new()),
    }
}

async fn load_from_hub(on: &OnHub, base: Option<&Path>, account: &str) -> Result<Kept, String> {
    let team = on
        .hub
        .snoozes()
        .await
        .map_err(|e| format!("the team's snoozes could not be read from the hub: {e}"))?;
    let base = base.map(Path::to_path_buf);
    let account = account.to_string();
    let back = tokio::task::spawn_blocking(move || local_back(base.as_deref(), &account))
        .await
        .unwrap_or_else(|e| Err(e.to_string()))
        .unwrap_or_default();
    Ok(from_hub(on, team, back))
}

/// What [`perform`] does for a [`SnoozeEffect::Hub`].
pub async fn perform_on_hub(on: &OnHub, base: Option<&Path>, effect: SnoozeEffect) -> SnoozeMsg {
    match effect {
        SnoozeEffect::Hub(_, inner) => Box::pin(perform_on_hub(on, base, *inner)).await,
        SnoozeEffect::Load { account } => SnoozeMsg::Loaded(load_from_hub(on, base, &account).await),
        SnoozeEffect::Check { account, seen } => match load_from_hub(on, base, &account).await {
            Ok(kept) => {
                let now = Some(crate::stamp::Stamp::of_bytes(
                    serde_json::to_vec(&kept).unwrap_or_default().as_slice(),
                ));
                if now == seen {
                    SnoozeMsg::Unchanged
                } else {
                    SnoozeMsg::Changed {
                        stamp: now,
                        kept: Ok(kept),
                    }
                }
            }
            Err(e) => SnoozeMsg::Changed {
                stamp: None,
                kept: Err(e),
            },
        },
        SnoozeEffect::Save {
            account,
            kept,
            contacts,
        } => {
            let mut failed = None;
            for uuid in &contacts {
                let done = match kept.asleep.get(uuid).map(|e| e.until) {
                    Some(Until::At(at)) => on.hub.snooze(uuid, Some(at)).await,
                    Some(Until::Reply) => on.hub.snooze(uuid, None).await,
                    None => on.hub.wake(uuid).await,
                };
                if let Err(e) = done {
                    failed.get_or_insert(format!("the hub did not keep the snooze: {e}"));
                }
            }
            let base = base.map(Path::to_path_buf);
            let marks = tokio::task::spawn_blocking(move || match base {
                Some(base) => store::update(&file_in(&base, &account), |file| {
                    for uuid in &contacts {
                        if kept.back.contains(uuid) {
                            file.back.insert(uuid.clone());
                        } else {
                            file.back.remove(uuid);
                        }
                    }
                }),
                None => Ok(()),
            })
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
            SnoozeMsg::Saved(match (failed, marks) {
                (Some(e), _) => Err(e),
                (None, r) => r,
            })
        }
    }
}
