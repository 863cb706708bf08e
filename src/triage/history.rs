//! The run history: one JSON line per run of writes (a CLI bulk run, an
//! assistant's write through `frontdesk mcp`, an undo) in a file only the
//! user can read, with each contact's state before and after. The CLI's
//! `history` and `undo` read it, and so does the TUI's history (`U`), so
//! a run made elsewhere can be taken back there, once.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::bulk::Action;
use super::write::{Done, Settled};
use crate::api::Contact;

/// One contact of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub uuid: String,
    pub name: String,
    /// `applied`, `skipped`, `failed` or `unknown`.
    pub outcome: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// As read just before the write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Contact>,
    /// As the service showed it after (applied only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Contact>,
}

/// One run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub id: String,
    pub at: DateTime<Utc>,
    /// The base URL and profile it ran against (never the key).
    pub base_url: String,
    pub profile: String,
    pub action: Action,
    /// What it was run over, in words (`by assistant (frontdesk mcp)` for
    /// an assistant's write).
    pub what: String,
    /// Contacts chosen.
    pub total: usize,
    /// A signal ended it before every contact was begun.
    #[serde(default)]
    pub interrupted: bool,
    /// The run this one undid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo_of: Option<String>,
    pub contacts: Vec<Entry>,
}

impl Entry {
    /// Applied, but it changed nothing: the contact was already as the
    /// action leaves it (a close of a closed conversation, an untag of an
    /// absent tag). `history`, `undo` and the TUI's summary count it as a
    /// no-op, never as applied. `action` is the run's.
    pub fn no_op(&self, action: &Action) -> bool {
        match (&self.before, &self.after) {
            (Some(b), Some(a)) => self.outcome == "applied" && unchanged(action, b, a),
            _ => false,
        }
    }
}

/// Whether `action`, which took a contact from `before` to `after`,
/// changed none of what it writes (state, tags, assignee, team, note).
/// A bot's start or stop and an edit of fields write what the contact
/// does not show here: never called unchanged.
pub fn unchanged(action: &Action, before: &Contact, after: &Contact) -> bool {
    if matches!(
        action,
        Action::Bot(_) | Action::Edit { .. } | Action::ConversationNote(_)
    ) {
        return false;
    }
    let mut tags = (before.tags.clone(), after.tags.clone());
    tags.0.sort();
    tags.1.sort();
    // A state not known before (a list's contact) may have changed.
    !before.state_unknown
        && !after.state_unknown
        && before.closed_at.is_some() == after.closed_at.is_some()
        && tags.0 == tags.1
        && before.assigned_user == after.assigned_user
        && before.team.as_ref().map(|t| &t.uuid) == after.team.as_ref().map(|t| &t.uuid)
        && before.note == after.note
}

/// A new run's id: when, and four random hex digits.
pub fn new_id(at: DateTime<Utc>) -> String {
    format!("{}-{:04x}", at.format("%Y%m%d-%H%M%S"), rand::rng().random::<u16>())
}

/// What the history keeps of one contact's settled write.
pub fn entry(d: &Done) -> Entry {
    let error = match &d.settled {
        Settled::Failed(e) | Settled::Unknown(e) => Some(e.clone()),
        Settled::Skipped(_) => Some("changed since listed".into()),
        Settled::Applied(_) => None,
    };
    Entry {
        uuid: d.uuid.clone(),
        name: d.name.clone(),
        outcome: d.settled.label().into(),
        error,
        before: d.before.clone(),
        after: d.after().cloned(),
    }
}

/// `history.jsonl` in frontdesk's state directory (`$XDG_STATE_HOME`,
/// else `~/.local/state`; the local data directory elsewhere).
pub fn path() -> Result<PathBuf, String> {
    let dirs = directories::BaseDirs::new().ok_or("no home directory: HOME is not set")?;
    let base = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
    Ok(base.join("frontdesk").join("history.jsonl"))
}

/// Appends `record` to the history file as one line; the file is created
/// readable by its owner alone.
pub fn write(record: &Record) -> Result<(), String> {
    write_to(&path()?, record)
}

/// [`write`] to the file at `path`.
pub fn write_to(path: &Path, record: &Record) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("{}: {e}", crate::text::sanitize_line(&path.display().to_string()));
    if let Some(dir) = path.parent() {
        let mut b = std::fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        b.create(dir).map_err(failed)?;
    }
    let mut open = std::fs::OpenOptions::new();
    open.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
    let mut file = open.open(path).map_err(failed)?;
    let mut line = serde_json::to_string(record).map_err(|e| e.to_string())?;
    line.push('\n');
    file.write_all(line.as_bytes()).map_err(failed)
}

/// Every run of the account (`base_url` and `profile`), oldest first; a
/// damaged line is passed over.
pub fn load(base_url: &str, profile: &str) -> Result<Vec<Record>, String> {
    load_from(&path()?, base_url, profile)
}

/// [`load`] from the file at `path`.
pub fn load_from(path: &Path, base_url: &str, profile: &str) -> Result<Vec<Record>, String> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(format!(
                "{}: {e}",
                crate::text::sanitize_line(&path.display().to_string())
            ));
        }
    };
    Ok(std::io::BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| serde_json::from_str::<Record>(&l).ok())
        .filter(|r| r.base_url == base_url && r.profile == profile)
        .collect())
}

/// The undo of `record` among `records`, if it was undone.
pub fn undone_by<'a>(records: &'a [Record], record: &Record) -> Option<&'a Record> {
    records
        .iter()
        .find(|u| u.undo_of.as_deref() == Some(record.id.as_str()))
}
