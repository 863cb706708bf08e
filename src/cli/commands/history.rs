//! The run history: one JSON line per CLI bulk run (and per undo) in a
//! file only the user can read, with each contact's state before and
//! after; `frontdesk history` lists the runs and `frontdesk undo [RUN]`
//! takes one back, reverting only what is still as the run left it.

use chrono::Utc;
use clap::Args;
use serde::Serialize;

use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::{Tabular, list_doc};
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
    /// The contact (or the first, with how many more).
    contact: String,
    applied: usize,
    /// Applied, but the service already showed it so: a close of a closed
    /// conversation, an untag of an absent tag. Not counted as applied.
    no_op: usize,
    skipped: usize,
    failed: usize,
    unknown: usize,
    /// `interrupted`, `undone by <id>`, `undo of <id>`.
    note: String,
}

impl Tabular for HistoryRow {
    fn headers() -> &'static [&'static str] {
        &[
            "RUN", "WHEN", "WHAT", "CONTACT", "APPLIED", "NO-OP", "SKIPPED", "FAILED", "UNKNOWN", "NOTE",
        ]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.id.clone(),
            self.at.clone(),
            self.what.clone(),
            self.contact.clone(),
            self.applied.to_string(),
            self.no_op.to_string(),
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
    let doc = list_doc(ctx.format, ctx.color, &rows(&records))?;
    ctx.emit(&doc)
}

/// Who a run touched: the contact, or the first and how many more.
fn contacts(r: &Record) -> String {
    match r.contacts.as_slice() {
        [] => "—".into(),
        [one] => crate::text::sanitize_line(&one.name),
        [first, rest @ ..] => crate::text::sanitize_line(&format!("{} +{} more", first.name, rest.len())),
    }
}

/// The rows of `frontdesk history`, newest first.
fn rows(records: &[Record]) -> Vec<HistoryRow> {
    records
        .iter()
        .rev()
        .map(|r| {
            let n = |o: &str| r.contacts.iter().filter(|e| e.outcome == o).count();
            let no_ops = r.contacts.iter().filter(|e| e.no_op(&r.action)).count();
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
                contact: contacts(r),
                applied: n("applied") - no_ops,
                no_op: no_ops,
                skipped: n("skipped"),
                failed: n("failed"),
                unknown: n("unknown"),
                note: notes.join("; "),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Contact;

    fn entry(name: &str, before: Contact, after: Contact) -> Entry {
        Entry {
            uuid: format!("u-{name}"),
            name: name.into(),
            outcome: "applied".into(),
            error: None,
            before: Some(before),
            after: Some(after),
        }
    }

    #[test]
    fn a_close_of_a_closed_conversation_counts_as_a_no_op_and_the_contact_shows() {
        let open = Contact::default();
        let closed = Contact {
            closed_at: Some(Utc::now()),
            ..Default::default()
        };
        let record = |contacts: Vec<Entry>| Record {
            id: "r1".into(),
            at: Utc::now(),
            base_url: String::new(),
            profile: String::new(),
            action: Action::Close,
            what: "view open".into(),
            total: contacts.len(),
            interrupted: false,
            undo_of: None,
            contacts,
        };
        let one = rows(&[record(vec![entry("Ana\u{1b}[2J", closed.clone(), closed.clone())])]);
        assert_eq!((one[0].applied, one[0].no_op), (0, 1));
        assert_eq!(one[0].contact, "Ana␛[2J");
        let many = rows(&[record(vec![
            entry("Ana", open.clone(), closed.clone()),
            entry("Bo", closed.clone(), closed.clone()),
            entry("Cy", open, closed),
        ])]);
        assert_eq!((many[0].applied, many[0].no_op), (2, 1));
        assert_eq!(many[0].contact, "Ana +2 more");
    }
}
