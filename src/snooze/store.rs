//! Where snoozes are kept: one JSON file per account in the state
//! directory (`$XDG_STATE_HOME/frontdesk/snoozed/<hash>.json`), the
//! directory 0700 and the file 0600. The TUI and `frontdesk mcp` read and
//! write the same file.
//!
//! The rule for writing, so that two processes never lose each other's
//! snoozes: a write changes only the contacts it names. It takes an
//! exclusive lock on `<hash>.lock` beside the file, reads the file as it is
//! now, changes those contacts' entries, writes the whole list to a
//! temporary file and renames it over the old one, then lets the lock go.
//! A reader takes no lock: the rename means it sees the old list or the
//! new, never half. A file that cannot be read is never written over.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::Until;
pub use crate::stamp::{Stamp, stamp};

/// One sleeping conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub until: Until,
    /// When it was snoozed: a message after this wakes it.
    pub since: DateTime<Utc>,
    /// Its name when it was snoozed (for the toast when it wakes).
    pub name: String,
    /// Who snoozed it when not the agent at the keyboard (`assistant`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

/// What is kept for an account.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// Sleeping conversations, by uuid.
    pub asleep: BTreeMap<String, Entry>,
    /// Conversations that woke up and whose thread was not opened since.
    #[serde(default)]
    pub back: BTreeSet<String>,
}

/// The account's file under `base` (a hash names it: an account label is
/// never a path).
pub fn file_in(base: &Path, account: &str) -> PathBuf {
    let h = Sha256::digest(account.as_bytes());
    let name: String = h.iter().take(12).map(|b| format!("{b:02x}")).collect();
    base.join("frontdesk").join("snoozed").join(format!("{name}.json"))
}

/// The platform's state directory (`$XDG_STATE_HOME`, else the local data
/// directory); `None` without a home directory.
pub fn state_dir() -> Option<PathBuf> {
    let dirs = directories::BaseDirs::new()?;
    Some(dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir()).to_path_buf())
}

/// The account's file in the state directory.
pub fn file(account: &str) -> Option<PathBuf> {
    state_dir().map(|base| file_in(&base, account))
}

/// What the file holds (nothing when there is no file yet).
pub fn load(path: &Path) -> Result<Kept, String> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            format!(
                "the snoozes in {} cannot be read ({e}); they are kept until one changes",
                path.display()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Kept::default()),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Changes the file with `change` under the lock (see the module's rule):
/// `change` sees the list as it is on disk now, and changes only what it
/// means to. A change that changes nothing writes nothing.
pub fn update<T>(path: &Path, change: impl FnOnce(&mut Kept) -> T) -> Result<T, String> {
    let failed = |e: std::io::Error| format!("cannot keep snoozes in {}: {e}", path.display());
    let dir = path
        .parent()
        .ok_or_else(|| failed(std::io::ErrorKind::InvalidInput.into()))?;
    // 0700, and refused when a symlink or another user's (as the index's).
    crate::index::private::ensure_dir(dir)?;
    let mut open = std::fs::OpenOptions::new();
    open.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
    let lock = open.open(path.with_extension("lock")).map_err(failed)?;
    lock.lock().map_err(failed)?;
    let before = load(path)?;
    let mut kept = before.clone();
    let out = change(&mut kept);
    if kept == before {
        return Ok(out);
    }
    let bytes = serde_json::to_vec_pretty(&kept).map_err(|e| failed(std::io::Error::other(e)))?;
    // A temporary file is made 0600.
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
    tmp.write_all(&bytes).map_err(failed)?;
    tmp.as_file().sync_all().map_err(failed)?;
    tmp.persist(path).map_err(|e| failed(e.error))?;
    // The lock goes with `lock`, closed here.
    Ok(out)
}

/// Writes `contacts`' entries as `kept` has them (asleep or not, back or
/// not); every other contact's entry stays as the file has it.
pub fn save(path: &Path, kept: &Kept, contacts: &BTreeSet<String>) -> Result<(), String> {
    update(path, |file| {
        for uuid in contacts {
            match kept.asleep.get(uuid) {
                Some(e) => file.asleep.insert(uuid.clone(), e.clone()),
                None => file.asleep.remove(uuid),
            };
            if kept.back.contains(uuid) {
                file.back.insert(uuid.clone());
            } else {
                file.back.remove(uuid);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn entry(name: &str, by: Option<&str>) -> Entry {
        let at = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).single().unwrap();
        Entry {
            until: Until::At(at + chrono::Duration::hours(2)),
            since: at,
            name: name.into(),
            by: by.map(String::from),
        }
    }

    fn one(uuid: &str, e: Entry) -> (Kept, BTreeSet<String>) {
        let kept = Kept {
            asleep: [(uuid.to_string(), e)].into(),
            back: Default::default(),
        };
        (kept, [uuid.to_string()].into())
    }

    #[test]
    fn two_writers_each_keep_their_own_and_neither_loses_the_other() {
        let home = tempfile::tempdir().unwrap();
        let path = file_in(home.path(), "work");
        // The TUI read the file when it was empty, then snoozed a; the
        // assistant snoozed b meanwhile. Each writes what it knows.
        let (tui, tui_changed) = one("a", entry("Ana", None));
        let (mcp, mcp_changed) = one("b", entry("Bo", Some("assistant")));
        save(&path, &mcp, &mcp_changed).unwrap();
        save(&path, &tui, &tui_changed).unwrap();
        let both = load(&path).unwrap();
        assert_eq!(both.asleep.len(), 2, "{both:?}");
        assert_eq!(both.asleep["b"].by.as_deref(), Some("assistant"));
        // The TUI wakes a (its list has no b): b stays asleep.
        let mut woken = tui.clone();
        woken.asleep.remove("a");
        woken.back.insert("a".into());
        save(&path, &woken, &tui_changed).unwrap();
        let after = load(&path).unwrap();
        assert_eq!(after.asleep.keys().collect::<Vec<_>>(), ["b"]);
        assert!(after.back.contains("a"));
    }

    #[test]
    fn writers_at_the_same_time_lose_nothing() {
        let home = tempfile::tempdir().unwrap();
        let path = file_in(home.path(), "work");
        std::thread::scope(|s| {
            for w in 0..4 {
                let path = &path;
                s.spawn(move || {
                    for i in 0..10 {
                        let (kept, changed) = one(&format!("c{w}-{i}"), entry("x", None));
                        save(path, &kept, &changed).unwrap();
                    }
                });
            }
        });
        assert_eq!(load(&path).unwrap().asleep.len(), 40);
    }

    #[test]
    fn a_file_that_cannot_be_read_is_not_written_over() {
        let home = tempfile::tempdir().unwrap();
        let path = file_in(home.path(), "work");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, b"{ not json").unwrap();
        let (kept, changed) = one("a", entry("Ana", None));
        let e = save(&path, &kept, &changed).unwrap_err();
        assert!(e.contains("cannot be read"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), b"{ not json");
    }

    #[test]
    fn a_write_changes_the_stamp_one_changing_nothing_does_not_and_an_old_file_without_by_loads() {
        let home = tempfile::tempdir().unwrap();
        let path = file_in(home.path(), "work");
        assert_eq!(stamp(&path), None);
        let (kept, changed) = one("a", entry("Ana", None));
        save(&path, &kept, &changed).unwrap();
        let first = stamp(&path).unwrap();
        assert_eq!(stamp(&path), Some(first.clone()), "unchanged: the same stamp");
        save(&path, &kept, &changed).unwrap();
        assert_eq!(stamp(&path), Some(first.clone()), "nothing changed: nothing written");
        let (other, changed) = one("b", entry("Bo", None));
        save(&path, &other, &changed).unwrap();
        assert_ne!(stamp(&path), Some(first), "written: a new stamp");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("\"by\""), "{text}");
        assert_eq!(load(&path).unwrap().asleep["a"], kept.asleep["a"]);
    }
}
