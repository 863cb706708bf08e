//! The run history: one JSON line per CLI bulk run (and per undo) in a
//! file only the user can read, with each contact's state before and
//! after; `frontdesk history` lists the runs and `frontdesk undo [RUN]`
//! takes one back, reverting only what is still as the run left it.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use clap::Args;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::api::Contact;
use crate::cli::output::{Tabular, list_doc};
use crate::cli::{CliError, Ctx};
use crate::triage::bulk::Action;
use crate::triage::write::{Done, Settled};

/// One contact of a run.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    pub id: String,
    pub at: DateTime<Utc>,
    /// The base URL and profile it ran against (never the key).
    pub base_url: String,
    pub profile: String,
    pub action: Action,
    /// What it was run over, in words.
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

/// A new run's id: when, and four random hex digits.
fn new_id(at: DateTime<Utc>) -> String {
    format!("{}-{:04x}", at.format("%Y%m%d-%H%M%S"), rand::rng().random::<u16>())
}

impl Record {
    /// The record of a bulk run.
    pub fn of_run(
        ctx: &mut Ctx<'_>,
        action: &Action,
        what: &str,
        done: &[Done],
        total: usize,
        interrupted: bool,
    ) -> Record {
        let at = Utc::now();
        let (base_url, profile) = match ctx.settings() {
            Ok(s) => (s.base_url.clone().unwrap_or_default(), s.profile.clone()),
            Err(_) => (String::new(), String::new()),
        };
        Record {
            id: new_id(at),
            at,
            base_url,
            profile,
            action: action.clone(),
            what: what.to_string(),
            total,
            interrupted,
            undo_of: None,
            contacts: done.iter().map(entry).collect(),
        }
    }
}

pub(crate) fn entry(d: &Done) -> Entry {
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
pub fn path() -> Result<PathBuf, CliError> {
    let dirs =
        directories::BaseDirs::new().ok_or_else(|| CliError::Other("no home directory: HOME is not set".into()))?;
    let base = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
    Ok(base.join("frontdesk").join("history.jsonl"))
}

/// Appends `record` as one line; the file is created readable by its
/// owner alone.
pub fn append(_ctx: &mut Ctx<'_>, record: &Record) -> Result<(), CliError> {
    write(record)
}

/// [`append`] without a command's context (`frontdesk mcp`'s writes).
pub fn write(record: &Record) -> Result<(), CliError> {
    let path = path()?;
    let failed = |e: std::io::Error| CliError::Other(format!("{}: {e}", path.display()));
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
    let mut file = open.open(&path).map_err(failed)?;
    let mut line = serde_json::to_string(record).map_err(|e| CliError::Other(e.to_string()))?;
    line.push('\n');
    file.write_all(line.as_bytes()).map_err(failed)
}

/// Every run of this account, oldest first (a damaged line is passed over).
pub fn load(ctx: &mut Ctx<'_>) -> Result<Vec<Record>, CliError> {
    let path = path()?;
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(CliError::Other(format!("{}: {e}", path.display()))),
    };
    let settings = ctx.settings()?;
    let (base_url, profile) = (settings.base_url.clone().unwrap_or_default(), settings.profile.clone());
    Ok(std::io::BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| serde_json::from_str::<Record>(&l).ok())
        .filter(|r| r.base_url == base_url && r.profile == profile)
        .collect())
}

#[derive(Debug, Args)]
pub struct HistoryArgs {}

#[derive(Debug, Serialize)]
struct HistoryRow {
    id: String,
    at: String,
    what: String,
    applied: usize,
    skipped: usize,
    failed: usize,
    unknown: usize,
    /// `interrupted`, `undone by <id>`, `undo of <id>`.
    note: String,
}

impl Tabular for HistoryRow {
    fn headers() -> &'static [&'static str] {
        &["RUN", "WHEN", "WHAT", "APPLIED", "SKIPPED", "FAILED", "UNKNOWN", "NOTE"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.id.clone(),
            self.at.clone(),
            self.what.clone(),
            self.applied.to_string(),
            self.skipped.to_string(),
            self.failed.to_string(),
            self.unknown.to_string(),
            self.note.clone(),
        ]
    }
}

/// `frontdesk history`: this account's runs, newest first.
pub async fn run(ctx: &mut Ctx<'_>, _args: HistoryArgs) -> Result<(), CliError> {
    let records = load(ctx)?;
    let rows: Vec<HistoryRow> = records
        .iter()
        .rev()
        .map(|r| {
            let n = |o: &str| r.contacts.iter().filter(|e| e.outcome == o).count();
            let mut notes = Vec::new();
            if r.interrupted {
                notes.push(format!("interrupted after {} of {}", r.contacts.len(), r.total));
            }
            if let Some(of) = &r.undo_of {
                notes.push(format!("undo of {of}"));
            }
            if let Some(by) = records.iter().find(|u| u.undo_of.as_deref() == Some(&r.id)) {
                notes.push(format!("undone by {}", by.id));
            }
            HistoryRow {
                id: r.id.clone(),
                at: r.at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
                what: crate::text::sanitize_line(&format!("{} ({})", r.action.verb(), r.what)),
                applied: n("applied"),
                skipped: n("skipped"),
                failed: n("failed"),
                unknown: n("unknown"),
                note: notes.join("; "),
            }
        })
        .collect();
    let doc = list_doc(ctx.format, ctx.color, &rows)?;
    ctx.emit(&doc)
}
