//! The run history: one JSON line per CLI bulk run (and per undo) in a
//! file only the user can read, with each contact's state before and
//! after; `frontdesk history` lists the runs and `frontdesk undo [RUN]`
//! takes one back, reverting only what is still as the run left it.

use chrono::Utc;
use clap::Args;
use serde::Serialize;

use crate::cli::output::{Tabular, list_doc};
use crate::cli::{CliError, Ctx};
use crate::triage::bulk::Action;
use crate::triage::write::Done;

pub use crate::triage::history::{Entry, Record, entry};

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
        id: crate::triage::history::new_id(at),
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

/// Appends `record` to the history file.
pub fn append(_ctx: &mut Ctx<'_>, record: &Record) -> Result<(), CliError> {
    write(record)
}

/// [`append`] without a command's context (`frontdesk mcp`'s writes).
pub fn write(record: &Record) -> Result<(), CliError> {
    crate::triage::history::write(record).map_err(CliError::Other)
}

/// Every run of this account, oldest first (a damaged line is passed over).
pub fn load(ctx: &mut Ctx<'_>) -> Result<Vec<Record>, CliError> {
    let settings = ctx.settings()?;
    let (base_url, profile) = (settings.base_url.clone().unwrap_or_default(), settings.profile.clone());
    crate::triage::history::load(&base_url, &profile).map_err(CliError::Other)
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
