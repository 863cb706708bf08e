//! Carrying out a bulk run: each write checked and settled (see
//! [`crate::triage::write`]), the index told what the service showed, the
//! run kept in the history, a signal ending it cleanly, and the outcome
//! reported per contact.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use chrono::Utc;
use serde::Serialize;

use super::super::history;
use crate::api::{Client, Contact};
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::{Format, Progress, ProgressMode, Tabular, list_doc};
use crate::index::Index;
use crate::triage::bulk::{self, Action};
use crate::triage::write::{Chosen, Done, SKIPPED, Settled, write_all};

/// One contact's outcome as printed.
#[derive(Debug, Clone, Serialize)]
pub(super) struct ResultRow {
    uuid: String,
    name: String,
    /// The change is applied (the service shows it).
    ok: bool,
    /// `applied`, `skipped` (changed since listed), `failed` or `unknown`.
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl Tabular for ResultRow {
    fn headers() -> &'static [&'static str] {
        &["NAME", "UUID", "RESULT"]
    }

    fn row(&self) -> Vec<String> {
        let result = match (self.outcome, &self.error) {
            ("skipped", _) => SKIPPED.to_string(),
            ("unknown", Some(e)) => format!("unknown: {e}"),
            (_, Some(e)) => e.clone(),
            _ => "ok".into(),
        };
        vec![self.name.clone(), self.uuid.clone(), result]
    }
}

impl ResultRow {
    fn of(d: &Done) -> ResultRow {
        let error = match &d.settled {
            Settled::Applied(_) => None,
            Settled::Skipped(_) => Some("changed since listed".into()),
            Settled::Failed(e) | Settled::Unknown(e) => Some(e.clone()),
        };
        ResultRow {
            uuid: d.uuid.clone(),
            name: d.name.clone(),
            ok: matches!(d.settled, Settled::Applied(_)),
            outcome: d.settled.label(),
            error,
        }
    }
}

/// Set when SIGINT, SIGTERM or SIGHUP arrives while a run is under way:
/// no new write starts, the ones in flight settle.
fn stop_on_signals() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        for kind in [SignalKind::interrupt(), SignalKind::terminate(), SignalKind::hangup()] {
            if let Ok(mut s) = signal(kind) {
                let stop = stop.clone();
                tokio::spawn(async move {
                    if s.recv().await.is_some() {
                        stop.store(true, Ordering::SeqCst);
                    }
                });
            }
        }
    }
    #[cfg(not(unix))]
    {
        let stop2 = stop.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                stop2.store(true, Ordering::SeqCst);
            }
        });
    }
    stop
}

/// What a run was: its command line in words, what it chose.
pub(super) struct RunOf<'a> {
    pub action: &'a Action,
    pub what: &'a str,
    pub chosen: Chosen,
}

/// Runs the action over `targets` with a progress bar, writing what the
/// service shows of each contact into the index as it comes, then keeps
/// the run in the history and reports it.
pub(super) async fn run(
    ctx: &mut Ctx<'_>,
    client: &Client,
    index: &mut Index,
    targets: &[Contact],
    of: RunOf<'_>,
) -> Result<(), CliError> {
    let action = of.action;
    let stop = stop_on_signals();
    let bar = if ctx.progress == ProgressMode::Bar {
        let pb = indicatif::ProgressBar::with_draw_target(
            Some(targets.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} {pos}/{len} {wide_bar} {elapsed}") {
            pb.set_style(style);
        }
        pb.set_message(action.doing());
        pb
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut pb = Progress::with_bar(ctx.progress, bar, action.doing(), "contacts");
    pb.set_length(targets.len() as u64);
    let mut unstored = None;
    let done = write_all(
        client,
        targets,
        action,
        Some(&of.chosen),
        bulk::CONCURRENCY,
        &stop,
        &mut |d| {
            pb.inc(1);
            let now = match &d.settled {
                Settled::Applied(c) | Settled::Skipped(c) => Some(c),
                _ => None,
            };
            if let Some(c) = now
                && let Err(e) = index.upsert_contacts(std::slice::from_ref(c), Utc::now())
            {
                unstored = Some(e);
            }
        },
    )
    .await;
    pb.finish_and_clear();
    if let Some(e) = unstored {
        let _ = writeln!(ctx.err, "frontdesk: warning: the local index was not updated: {e}");
    }
    let interrupted = stop.load(Ordering::SeqCst);
    forget_gone(ctx, index, &done);
    let record = history::of_run(ctx, action, of.what, &done, targets.len(), interrupted);
    let kept = match history::append(ctx, &record) {
        Ok(()) => true,
        Err(e) => {
            let _ = writeln!(
                ctx.err,
                "frontdesk: warning: the run was not kept in the history: {}",
                e.message().unwrap_or_default()
            );
            false
        }
    };
    report(
        ctx,
        &of,
        &done,
        targets.len(),
        interrupted.then_some((&record.id, kept)),
    )
}

/// Forgets the contacts the server no longer has (404), so the next
/// command does not act on them again.
fn forget_gone(ctx: &mut Ctx<'_>, index: &mut Index, done: &[Done]) {
    let gone: HashSet<&str> = done.iter().filter(|d| d.missing).map(|d| d.uuid.as_str()).collect();
    if gone.is_empty() {
        return;
    }
    // The index removes what a walk did not see: a "walk" that saw every
    // contact but the gone ones removes just those.
    let removed = index
        .list(crate::index::Order::Activity, usize::MAX >> 1, 0)
        .map(|all| {
            all.into_iter()
                .map(|c| c.uuid)
                .filter(|u| !gone.contains(u.as_str()))
                .collect()
        })
        .and_then(|keep: HashSet<String>| index.remove_missing(Utc::now(), &keep));
    if let Err(e) = removed {
        let _ = writeln!(ctx.err, "frontdesk: warning: the local index was not updated: {e}");
    }
}

fn report(
    ctx: &mut Ctx<'_>,
    of: &RunOf<'_>,
    done: &[Done],
    total: usize,
    interrupted: Option<(&String, bool)>,
) -> Result<(), CliError> {
    let rows: Vec<ResultRow> = done.iter().map(ResultRow::of).collect();
    let count = |label: &str| rows.iter().filter(|r| r.outcome == label).count();
    let (applied, skipped, failed, unknown) = (count("applied"), count("skipped"), count("failed"), count("unknown"));
    let mut summary = format!("{} {applied} of {total} contacts ({})", of.action.done(), of.what);
    if skipped > 0 {
        summary.push_str(&format!("; {SKIPPED}: {skipped}"));
    }
    if failed > 0 {
        summary.push_str(&format!("; failed: {failed}"));
    }
    if unknown > 0 {
        summary.push_str(&format!("; unknown (no read could settle them): {unknown}"));
    }
    match ctx.format {
        Format::Table => {
            let listed: Vec<ResultRow> = rows.iter().filter(|r| !r.ok).cloned().collect();
            let mut doc = String::new();
            if !listed.is_empty() {
                doc = list_doc(Format::Table, ctx.color, &listed)?;
            }
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
    if let Some((id, kept)) = interrupted {
        let undo = if kept {
            format!("`frontdesk undo {id}` takes back what it did; ")
        } else {
            String::new()
        };
        return Err(CliError::Other(format!(
            "interrupted: {} of {total} contacts done (listed above); {undo}the same command again does the rest",
            done.len()
        )));
    }
    if failed + unknown > 0 {
        return Err(CliError::Other(format!(
            "{} of {total} contacts failed or are unknown (listed above); the same command again retries them",
            failed + unknown
        )));
    }
    Ok(())
}
