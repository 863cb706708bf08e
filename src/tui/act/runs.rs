//! Runs made outside this TUI (a CLI bulk run, an assistant's write
//! through `frontdesk mcp`) in the history (`U`): the run history file
//! (`triage::history`) is read when the history opens, each run not yet
//! undone becomes an entry, and its undo (the same guarded reverse run as
//! the agent's own) is written back to the file, so the CLI and the next
//! TUI know it was taken back.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use crate::text::sanitize_line;
use crate::triage::history::{self, Record};
use crate::tui::shared::session::Session;

use super::history::{Entry, History, Item, KEEP};
use super::run::{Hub, Run};

/// The run history's requests.
#[derive(Debug, Clone, PartialEq)]
pub enum RunsEffect {
    /// Reads this account's runs from `file`.
    Load {
        file: PathBuf,
        base_url: String,
        profile: String,
    },
    /// Appends `record` (an undo) to `file`.
    Keep { file: PathBuf, record: Box<Record> },
    /// Reads the hub's timeline of `contact` (the thread shows it).
    Timeline { hub: Hub, contact: String },
}

/// Their answers.
#[derive(Debug, Clone, PartialEq)]
pub enum RunsMsg {
    Loaded(Result<Vec<Record>, String>),
    Kept(Result<(), String>),
    Timeline {
        contact: String,
        result: Result<Vec<crate::hubclient::TimelineEvent>, String>,
    },
}

/// Runs a request (a small file, read or appended at once; the hub's
/// timeline of one contact).
pub async fn perform(effect: RunsEffect) -> RunsMsg {
    match effect {
        RunsEffect::Timeline { hub, contact } => {
            let result = hub.0.timeline(&contact).await.map_err(|e| e.to_string());
            RunsMsg::Timeline { contact, result }
        }
        RunsEffect::Load {
            file,
            base_url,
            profile,
        } => RunsMsg::Loaded(history::load_from(&file, &base_url, &profile)),
        RunsEffect::Keep { file, record } => RunsMsg::Kept(history::write_to(&file, &record)),
    }
}

/// The request that reads the session's runs, when it keeps a history.
pub fn load(session: &Session) -> Option<RunsEffect> {
    Some(RunsEffect::Load {
        file: session.history_file.clone()?,
        base_url: session.base_url.clone(),
        profile: session.account.clone(),
    })
}

/// The entry's words for a run made elsewhere: what it did, to whom, and
/// by what (`by assistant (frontdesk mcp)`, or the CLI run's id).
fn what(r: &Record, items: &[Item]) -> String {
    let who = match items {
        [one] => one.name.clone(),
        many => format!("{} contacts", many.len()),
    };
    let by = if r.what.starts_with("by ") {
        r.what.clone()
    } else {
        format!("CLI run {}", r.id)
    };
    sanitize_line(&format!("{} ({who}) · {by}", r.action.done()))
}

fn items(r: &Record) -> Vec<Item> {
    r.contacts
        .iter()
        .filter(|e| e.outcome == "applied")
        .filter_map(|e| {
            let (before, after) = (e.before.clone()?, e.after.clone()?);
            Some(Item {
                uuid: e.uuid.clone(),
                name: e.name.clone(),
                action: r.action.clone(),
                reverse: r.action.reverse(&before, None),
                before,
                after,
                bot_after: None,
                undone: false,
                conflicts: Vec::new(),
            })
        })
        .collect()
}

/// Puts the runs of `records` (oldest first, as the file holds them) in
/// the history: a run not there yet becomes an entry (by its time, the
/// newest [`KEEP`] kept), and one the file says was undone is marked so.
pub fn merge(h: &mut History, records: &[Record]) {
    for r in records {
        if let Some(of) = &r.undo_of {
            if let Some(e) = h.entries.iter_mut().find(|e| e.run.as_deref() == Some(of.as_str())) {
                for item in e.items.iter_mut() {
                    if r.contacts.iter().any(|c| c.uuid == item.uuid && c.outcome == "applied") {
                        item.undone = true;
                    }
                }
            }
            continue;
        }
        if h.entries.iter().any(|e| e.run.as_deref() == Some(r.id.as_str())) {
            continue;
        }
        let items = items(r);
        if items.is_empty() {
            continue;
        }
        let undone = history::undone_by(records, r);
        let mut entry = Entry {
            id: h.next_id(),
            at: r.at,
            action: r.action.clone(),
            what: what(r, &items),
            items,
            run: Some(r.id.clone()),
            stays: None,
        };
        if let Some(u) = undone {
            for item in entry.items.iter_mut() {
                item.undone = u.contacts.iter().any(|c| c.uuid == item.uuid);
            }
        }
        let at = h
            .entries
            .iter()
            .position(|e| e.at < entry.at)
            .unwrap_or(h.entries.len());
        h.entries.insert(at, entry);
    }
    h.entries.truncate(KEEP);
}

/// The record of an undo of the run `of` that `run` carried out, for the
/// history file.
pub fn undo_record(
    of: &str,
    entry_action: &crate::triage::bulk::Action,
    run: &Run,
    session: &Session,
    at: DateTime<Utc>,
) -> Record {
    Record {
        id: format!("{of}-undo"),
        at,
        base_url: session.base_url.clone(),
        profile: session.account.clone(),
        action: entry_action.clone(),
        what: "undone in the TUI".into(),
        total: run.total,
        interrupted: run.cancelled,
        undo_of: Some(of.to_string()),
        contacts: run
            .ok
            .iter()
            .map(|(job, after)| history::Entry {
                uuid: job.uuid.clone(),
                name: job.name.clone(),
                outcome: "applied".into(),
                error: None,
                before: Some(job.before.clone()),
                after: Some(after.clone()),
            })
            .collect(),
    }
}
