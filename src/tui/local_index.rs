//! Opening the account's local index for the TUI and showing what it holds
//! before the first frame: the newest contacts and their last messages,
//! read in a few milliseconds, so the list is there at once and the
//! network catches up behind it.

use super::effect::Effect;
use super::model::Model;
use super::msg::Msg;
use super::msg::index::{IndexMsg, SyncStatus};
use super::update::update;
use crate::api::Contact;
use crate::config::Settings;
use crate::index::{self, Index, IndexAccess, Order, Preview, SharedIndex};

/// Contacts read before the first frame: a tall terminal's screenful and
/// the next, the rest follows from the worker.
pub const FIRST_ROWS: usize = 200;

/// The demo account's index is named after this rather than the demo
/// server's address, which changes with every run: the same seed gives the
/// same account, so a second run starts from what the first one stored.
const DEMO_IDENTITY: &str = "demo:seeded-account";

pub struct Local {
    /// `None`: not even an index in memory could be made (the list is the
    /// API walk alone).
    pub index: Option<SharedIndex>,
    /// The one line to show when the file could not be used as it was.
    pub warning: Option<String>,
    pub in_memory: bool,
}

/// The account's index: its file, or memory with `cache = false` /
/// `--no-cache`, or when the file cannot be opened at all (said in
/// `warning`, never fatal).
pub fn open(settings: &Settings, demo: bool) -> Local {
    let memory = in_memory;
    if !settings.cache {
        return memory(None);
    }
    let path = if demo {
        index::default_path("demo", DEMO_IDENTITY)
    } else {
        // Through a hub, the index is the hub's view of the account: its
        // own file (the CLI's `sync` fills the same one).
        settings
            .hub_root()
            .or_else(|| settings.base_url.clone())
            .and_then(|url| index::default_path(&settings.profile, &url))
    };
    let Some(path) = path else {
        return memory(Some(
            "no cache directory (HOME is not set): the local index is kept in memory".into(),
        ));
    };
    open_at(&path)
}

/// The index file at `path`; memory, with the reason as the warning, when
/// it cannot be opened (a directory others could tamper with, say).
fn open_at(path: &std::path::Path) -> Local {
    match Index::open(path) {
        Ok(opened) => {
            let in_memory = opened.index.path().is_none();
            Local {
                index: Some(SharedIndex::new(opened.index)),
                warning: opened.warning,
                in_memory,
            }
        }
        Err(e) => in_memory(Some(format!("{e}; keeping it in memory this time"))),
    }
}

/// An index in memory, with `warning` to show.
fn in_memory(warning: Option<String>) -> Local {
    match Index::in_memory() {
        Ok(ix) => Local {
            index: Some(SharedIndex::new(ix)),
            warning,
            in_memory: true,
        },
        Err(e) => Local {
            index: None,
            warning: Some(format!("the local index is off: {e}")),
            in_memory: true,
        },
    }
}

/// What the index shows before the first frame.
pub struct Cached {
    pub contacts: Vec<Contact>,
    pub previews: Vec<(String, Preview)>,
    pub status: SyncStatus,
}

pub fn first_rows(local: &Local) -> Option<Cached> {
    let mut index = local.index.clone()?;
    Some(index.with(|ix| {
        let contacts = ix.list(Order::Activity, FIRST_ROWS, 0).unwrap_or_else(|e| {
            tracing::warn!("reading the local index failed: {e}");
            Vec::new()
        });
        let uuids: Vec<&str> = contacts.iter().map(|c| c.uuid.as_str()).collect();
        let previews = ix.previews(&uuids).map(|m| m.into_iter().collect()).unwrap_or_default();
        let state = ix.sync_state().unwrap_or_default();
        Cached {
            previews,
            status: SyncStatus {
                synced_at: state.full_walk_finished_at,
                complete: state.full_walk_finished_at.is_some(),
                in_memory: local.in_memory,
                ..SyncStatus::default()
            },
            contacts,
        }
    }))
}

/// Puts the cached contacts on screen (as a batch read from the index)
/// and asks the worker for the rest.
pub fn show_cached(model: &mut Model, cached: Cached) -> Vec<Effect> {
    let n = cached.contacts.len();
    let generation = model.list.paging.generation;
    let done = n < FIRST_ROWS;
    model.sync.loading = Some(generation);
    model.sync.load_next = 0;
    let mut fx = update(model, Msg::Index(IndexMsg::Previews(cached.previews)));
    fx.extend(update(
        model,
        Msg::Index(IndexMsg::Loaded {
            generation,
            contacts: cached.contacts,
            done,
        }),
    ));
    fx
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn a_cache_directory_others_can_write_to_means_memory_and_says_the_fix() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("frontdesk");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let local = open_at(&dir.join("index.sqlite"));
        assert!(local.in_memory && local.index.is_some(), "runs on, in memory");
        let warning = local.warning.unwrap_or_default();
        assert!(warning.contains("writable by others: chmod 700 it"), "{warning}");
        assert!(warning.contains("in memory") && !warning.contains('\n'), "{warning}");
    }
}
