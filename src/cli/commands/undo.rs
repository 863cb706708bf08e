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
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::{Format, Tabular, list_doc};
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
    /// conflict), `nothing` (nothing left to revert), `no-op` (the run
    /// changed nothing here: `history` counts it so) or `failed`.
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
    if e.no_op(&record.action) {
        // The run changed nothing here: nothing to read or take back.
        let why = "the run changed nothing here (already so)".to_string();
        return Some((row("no-op", vec![why], None), e.clone()));
    }
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
    let summary = summary(&record, &rows);
    let n = |o: &str| rows.iter().filter(|r| r.outcome == o).count();
    let failed = n("failed");
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

/// The undo's account, in the terms `history` uses: of the contacts the
/// run changed (its "applied"), how many were reverted, and why each of
/// the others was not; the run's no-ops are said apart, not counted as
/// changed.
fn summary(record: &Record, rows: &[UndoRow]) -> String {
    let n = |o: &str| rows.iter().filter(|r| r.outcome == o).count();
    let no_ops = n("no-op");
    let mut text = format!(
        "undid run {} ({} {}): reverted {} of {} contacts it changed",
        record.id,
        record.action.verb(),
        crate::text::sanitize_line(&record.what),
        n("reverted") + n("partly"),
        rows.len() - no_ops
    );
    let parts = [
        (n("conflict") + n("partly"), "left as a colleague changed them since"),
        (n("nothing"), "already back as they were"),
        (n("failed"), "failed"),
        (no_ops, "no-op in the run (nothing to take back)"),
    ];
    for (k, what) in parts {
        if k > 0 {
            text.push_str(&format!("; {k} {what}"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triage::bulk::Action;

    fn row(outcome: &'static str) -> UndoRow {
        UndoRow {
            uuid: "u".into(),
            name: "n".into(),
            outcome,
            conflicts: Vec::new(),
            error: None,
        }
    }

    #[test]
    fn the_summary_counts_as_history_does_and_says_why_each_was_not_reverted() {
        let record = Record {
            id: "r1".into(),
            at: Utc::now(),
            base_url: String::new(),
            profile: String::new(),
            action: Action::Close,
            what: "view open".into(),
            total: 16,
            interrupted: false,
            undo_of: None,
            contacts: Vec::new(),
        };
        let mut rows: Vec<UndoRow> = (0..13).map(|_| row("reverted")).collect();
        rows.push(row("conflict"));
        rows.extend([row("no-op"), row("no-op")]);
        assert_eq!(
            summary(&record, &rows),
            "undid run r1 (close view open): reverted 13 of 14 contacts it changed; \
             1 left as a colleague changed them since; 2 no-op in the run (nothing to take back)"
        );
    }
}
