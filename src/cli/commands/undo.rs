//! `frontdesk undo [RUN]`: takes a bulk run back. Each contact the run
//! changed is read again; each field still as the run left it is reverted,
//! one a colleague changed since is reported as a conflict (field and
//! current value) and left as it is.

use chrono::Utc;
use clap::Args;
use futures::StreamExt;
use serde::Serialize;

use super::history::{self, Entry, Record};
use crate::api::Client;
use crate::cli::output::{Format, Tabular, list_doc};
use crate::cli::{CliError, Ctx};
use crate::triage::bulk::CONCURRENCY;
use crate::triage::undo::revert;

#[derive(Debug, Args)]
pub struct UndoArgs {
    /// The run to take back (its id in `frontdesk history`); the latest
    /// run not yet undone when absent
    pub run: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
struct UndoRow {
    uuid: String,
    name: String,
    /// `reverted`, `conflict`, `partly` (some fields reverted, others in
    /// conflict), `nothing` (nothing left to revert) or `failed`.
    outcome: &'static str,
    /// The conflicting fields with their current values, or the failure.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    conflicts: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl Tabular for UndoRow {
    fn headers() -> &'static [&'static str] {
        &["NAME", "UUID", "RESULT"]
    }

    fn row(&self) -> Vec<String> {
        let mut result = self.outcome.to_string();
        if !self.conflicts.is_empty() {
            result = format!("{result}: {}", self.conflicts.join("; "));
        }
        if let Some(e) = &self.error {
            result = format!("{result}: {e}");
        }
        vec![
            self.name.clone(),
            self.uuid.clone(),
            crate::text::sanitize_line(&result),
        ]
    }
}

/// The run `id`, or the latest one not undone (and not an undo itself).
fn choose<'a>(records: &'a [Record], id: Option<&str>) -> Result<&'a Record, CliError> {
    let undone_by = |r: &Record| records.iter().find(|u| u.undo_of.as_deref() == Some(r.id.as_str()));
    let record = match id {
        Some(id) => records.iter().find(|r| r.id == id.trim()).ok_or_else(|| {
            CliError::usage(format!(
                "there is no run \"{}\" in this account's history; `frontdesk history` lists them",
                crate::text::sanitize_line(id)
            ))
        })?,
        None => records
            .iter()
            .rev()
            .find(|r| r.undo_of.is_none() && undone_by(r).is_none())
            .ok_or_else(|| CliError::usage("there is no run to undo in this account's history"))?,
    };
    if record.undo_of.is_some() {
        return Err(CliError::usage(format!(
            "run {} is an undo; run the original command again instead",
            record.id
        )));
    }
    if let Some(by) = undone_by(record) {
        return Err(CliError::usage(format!(
            "run {} was already undone by {}",
            record.id, by.id
        )));
    }
    Ok(record)
}

/// Takes one contact back; its row and what the history keeps of it.
async fn undo_one(client: &Client, record: &Record, e: &Entry) -> Option<(UndoRow, Entry)> {
    let (Some(before), Some(after)) = (&e.before, &e.after) else {
        return None;
    };
    let row = |outcome, conflicts, error| UndoRow {
        uuid: e.uuid.clone(),
        name: e.name.clone(),
        outcome,
        conflicts,
        error,
    };
    let r = revert(client, &record.action, &e.uuid, &e.name, before, after).await;
    let entry = Entry {
        outcome: if r.error.is_some() { "failed" } else { "applied" }.into(),
        error: r.error.clone(),
        before: r.now.clone(),
        after: r.after.clone(),
        ..e.clone()
    };
    Some((row(r.outcome(), r.conflicts, r.error), entry))
}

pub async fn run(ctx: &mut Ctx<'_>, args: UndoArgs) -> Result<(), CliError> {
    let records = history::load(ctx)?;
    let record = choose(&records, args.run.as_deref())?.clone();
    let client = ctx.client()?;
    let done: Vec<(UndoRow, Entry)> = futures::stream::iter(record.contacts.iter())
        .map(|e| undo_one(&client, &record, e))
        .buffered(CONCURRENCY)
        .filter_map(|x| async move { x })
        .collect()
        .await;
    let (rows, entries): (Vec<UndoRow>, Vec<Entry>) = done.into_iter().unzip();
    let undo = Record {
        id: format!("{}-undo", record.id),
        at: Utc::now(),
        undo_of: Some(record.id.clone()),
        interrupted: false,
        total: entries.len(),
        contacts: entries,
        ..record.clone()
    };
    if let Err(e) = history::append(ctx, &undo) {
        let _ = writeln!(
            ctx.err,
            "frontdesk: warning: the undo was not kept in the history: {}",
            e.message().unwrap_or_default()
        );
    }
    let n = |o: &str| rows.iter().filter(|r| r.outcome == o).count();
    let (failed, conflicts) = (n("failed"), n("conflict") + n("partly"));
    let summary = format!(
        "undid run {} ({} {}): reverted {} of {} contacts; conflicts (left as changed since): {conflicts}; failed: {failed}",
        record.id,
        record.action.verb(),
        crate::text::sanitize_line(&record.what),
        n("reverted") + n("partly"),
        rows.len()
    );
    match ctx.format {
        Format::Table => {
            let listed: Vec<UndoRow> = rows.iter().filter(|r| r.outcome != "reverted").cloned().collect();
            let mut doc = if listed.is_empty() {
                String::new()
            } else {
                list_doc(Format::Table, ctx.color, &listed)?
            };
            doc.push_str(&summary);
            doc.push('\n');
            ctx.emit(&doc)?;
        }
        format => {
            let doc = list_doc(format, ctx.color, &rows)?;
            ctx.emit(&doc)?;
            let _ = writeln!(ctx.err, "{summary}");
        }
    }
    if failed > 0 {
        return Err(CliError::Other(format!(
            "{failed} contacts could not be reverted (listed above)"
        )));
    }
    Ok(())
}
