//! Keeping snoozes: one JSON file per account in the state directory
//! (`$XDG_STATE_HOME/frontdesk/snoozed/<hash>.json`), the directory 0700
//! and the file 0600, written whole to a temporary file and renamed over
//! the old one, so a crash leaves the old list or the new, never half.

use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::msg::SnoozeMsg;
use super::state::Kept;

#[derive(Debug, Clone, PartialEq)]
pub enum SnoozeEffect {
    /// Read the account's snoozes.
    Load { account: String },
    /// Write them.
    Save { account: String, kept: Kept },
}

/// The account's file under `base` (a hash names it: an account label is
/// never a path).
pub fn file_in(base: &Path, account: &str) -> PathBuf {
    let h = Sha256::digest(account.as_bytes());
    let name: String = h.iter().take(12).map(|b| format!("{b:02x}")).collect();
    base.join("frontdesk").join("snoozed").join(format!("{name}.json"))
}

fn state_dir() -> Option<PathBuf> {
    let dirs = directories::BaseDirs::new()?;
    Some(dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir()).to_path_buf())
}

pub async fn perform(effect: SnoozeEffect) -> SnoozeMsg {
    let base = state_dir();
    tokio::task::spawn_blocking(move || match base {
        Some(base) => perform_in(&base, effect),
        None => match effect {
            SnoozeEffect::Load { .. } => SnoozeMsg::Loaded(Err("no home directory: snoozes last this session".into())),
            SnoozeEffect::Save { .. } => SnoozeMsg::Saved(Err("no home directory to keep snoozes in".into())),
        },
    })
    .await
    .unwrap_or_else(|e| SnoozeMsg::Saved(Err(format!("keeping snoozes stopped: {e}"))))
}

/// `perform` with the state directory `base` (tests pass their own).
pub fn perform_in(base: &Path, effect: SnoozeEffect) -> SnoozeMsg {
    match effect {
        SnoozeEffect::Load { account } => SnoozeMsg::Loaded(load(&file_in(base, &account))),
        SnoozeEffect::Save { account, kept } => SnoozeMsg::Saved(save(&file_in(base, &account), &kept)),
    }
}

fn load(path: &Path) -> Result<Kept, String> {
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

fn save(path: &Path, kept: &Kept) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("cannot keep snoozes in {}: {e}", path.display());
    let dir = path
        .parent()
        .ok_or_else(|| failed(std::io::ErrorKind::InvalidInput.into()))?;
    // 0700, and refused when a symlink or another user's (as the index's).
    crate::index::private::ensure_dir(dir)?;
    let bytes = serde_json::to_vec_pretty(kept).map_err(|e| failed(std::io::Error::other(e)))?;
    // A temporary file is made 0600.
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
    tmp.write_all(&bytes).map_err(failed)?;
    tmp.as_file().sync_all().map_err(failed)?;
    tmp.persist(path).map_err(|e| failed(e.error))?;
    Ok(())
}
