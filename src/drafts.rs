//! Reply drafts kept per contact, so a draft written elsewhere (an AI
//! assistant over `frontdesk mcp`, later the TUI's composer) waits for the
//! agent to read, change and send it. Nothing here sends anything.
//!
//! One JSON file per contact in a directory per account
//! (`<state dir>/frontdesk/drafts/<hash of profile and base URL>/`), the
//! directory 0700 and each file 0600 (customers' words and replies to
//! them). A file is named after a hash of the contact's uuid, so no uuid
//! (text that came from a server) can name a path outside the directory.
//! Writes go to a temporary file renamed over the old one: a reader never
//! sees half a draft.

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Who the history names for the assistant's writes.
pub const ASSISTANT: &str = "assistant";

/// A reply waiting to be sent by the agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    /// The contact's uuid.
    pub contact: String,
    pub text: String,
    pub saved_at: DateTime<Utc>,
    /// Who wrote it: `agent`, `assistant`.
    pub by: String,
}

/// The drafts of one account.
#[derive(Debug, Clone)]
pub struct Drafts {
    dir: PathBuf,
}

fn hex(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            h.update([0u8]);
        }
        h.update(p.as_bytes());
    }
    h.finalize().iter().take(16).map(|b| format!("{b:02x}")).collect()
}

fn invalid(e: serde_json::Error) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, e)
}

impl Drafts {
    /// The drafts kept in `dir` (tests; a directory of one's own).
    pub fn in_dir(dir: impl Into<PathBuf>) -> Drafts {
        Drafts { dir: dir.into() }
    }

    /// The account's drafts in the platform's state directory
    /// (`$XDG_STATE_HOME`, else the local data directory); `None` without
    /// a home directory.
    pub fn for_account(profile: &str, base_url: &str) -> Option<Drafts> {
        let dirs = directories::BaseDirs::new()?;
        let base = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
        let account = hex(&[profile, base_url.trim_end_matches('/')]);
        Some(Drafts::in_dir(base.join("frontdesk").join("drafts").join(account)))
    }

    /// Where the drafts are kept.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn file(&self, contact: &str) -> PathBuf {
        self.dir.join(format!("{}.json", hex(&[contact])))
    }

    /// Keeps `draft`, replacing the contact's earlier one.
    pub fn save(&self, draft: &Draft) -> std::io::Result<()> {
        let mut b = std::fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        b.create(&self.dir)?;
        // A new temporary file is created 0600 on unix.
        let mut tmp = tempfile::NamedTempFile::new_in(&self.dir)?;
        tmp.write_all(&serde_json::to_vec(draft).map_err(invalid)?)?;
        tmp.as_file().sync_all()?;
        tmp.persist(self.file(&draft.contact)).map_err(|e| e.error)?;
        Ok(())
    }

    /// The contact's draft, if there is one.
    pub fn load(&self, contact: &str) -> std::io::Result<Option<Draft>> {
        match std::fs::read(self.file(contact)) {
            Ok(bytes) => Ok(Some(serde_json::from_slice(&bytes).map_err(invalid)?)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Deletes the contact's draft; true when there was one.
    pub fn remove(&self, contact: &str) -> std::io::Result<bool> {
        match std::fs::remove_file(self.file(contact)) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Every draft, newest first; a damaged file is passed over.
    pub fn list(&self) -> std::io::Result<Vec<Draft>> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut out: Vec<Draft> = entries
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
            .filter_map(|e| std::fs::read(e.path()).ok())
            .filter_map(|b| serde_json::from_slice(&b).ok())
            .collect();
        out.sort_by(|a, b| b.saved_at.cmp(&a.saved_at).then_with(|| a.contact.cmp(&b.contact)));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn draft(contact: &str, text: &str, minute: u32) -> Draft {
        Draft {
            contact: contact.into(),
            text: text.into(),
            saved_at: Utc.with_ymd_and_hms(2026, 3, 1, 9, minute, 0).single().unwrap(),
            by: "assistant".into(),
        }
    }

    #[test]
    fn a_saved_draft_loads_back_replaces_the_old_one_and_is_removed() {
        let home = tempfile::tempdir().unwrap();
        let d = Drafts::in_dir(home.path().join("drafts"));
        assert_eq!(d.load("c1").unwrap(), None);
        assert!(d.list().unwrap().is_empty(), "no directory yet: no drafts");
        d.save(&draft("c1", "Hello!", 1)).unwrap();
        d.save(&draft("c1", "Hello again", 2)).unwrap();
        assert_eq!(d.load("c1").unwrap(), Some(draft("c1", "Hello again", 2)));
        assert!(d.remove("c1").unwrap());
        assert!(!d.remove("c1").unwrap());
        assert_eq!(d.load("c1").unwrap(), None);
    }

    #[test]
    fn list_is_newest_first_and_passes_over_a_damaged_file() {
        let home = tempfile::tempdir().unwrap();
        let d = Drafts::in_dir(home.path());
        d.save(&draft("old", "a", 1)).unwrap();
        d.save(&draft("new", "b", 5)).unwrap();
        std::fs::write(home.path().join("junk.json"), "{not json").unwrap();
        let names: Vec<String> = d.list().unwrap().into_iter().map(|x| x.contact).collect();
        assert_eq!(names, ["new", "old"]);
    }

    #[test]
    fn a_uuid_cannot_name_a_file_outside_the_directory() {
        let home = tempfile::tempdir().unwrap();
        let d = Drafts::in_dir(home.path().join("drafts"));
        d.save(&draft("../../escape", "x", 1)).unwrap();
        let files: Vec<_> = std::fs::read_dir(home.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(files, ["drafts"]);
        assert_eq!(d.load("../../escape").unwrap().map(|x| x.text), Some("x".into()));
    }

    #[cfg(unix)]
    #[test]
    fn drafts_are_readable_by_their_owner_alone() {
        use std::os::unix::fs::PermissionsExt;
        let home = tempfile::tempdir().unwrap();
        let d = Drafts::in_dir(home.path().join("drafts"));
        d.save(&draft("c1", "private", 1)).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(d.dir()), 0o700);
        let file = std::fs::read_dir(d.dir()).unwrap().flatten().next().unwrap().path();
        assert_eq!(mode(&file), 0o600);
    }

    #[test]
    fn accounts_keep_their_drafts_apart() {
        let a = Drafts::for_account("default", "http://127.0.0.1:1/v1");
        let b = Drafts::for_account("default", "http://127.0.0.1:2/v1");
        if let (Some(a), Some(b)) = (a, b) {
            assert_ne!(a.dir(), b.dir());
        }
    }
}
