//! Runs of actions: a [`Run`] sends its jobs a few at a time (at most
//! [`IN_FLIGHT`]), each as one `Effect::Apply`, and ends once. One
//! contact's write, an action on marks and an undo all go this way; the
//! root puts each answer in the list and says how a run ended.

use crate::text::sanitize_line;
use crate::tui::shared::{Cx, Out, ReqId, ToastKind};

use super::fx::{ActEffect, Answer};
#[cfg(doc)]
use super::run::IN_FLIGHT;
use super::run::{Counts, Job, Named, Purpose, Run, Summary};
use super::state::Act;

/// Starts `jobs` as one run; refuses while another runs. The run, when it
/// is over at once.
pub fn start(
    st: &mut Act,
    _cx: &Cx,
    out: &mut Out<ActEffect>,
    purpose: Purpose,
    doing: &str,
    jobs: Vec<Job>,
) -> Option<Run> {
    if st.bulk.is_some() {
        out.toast(ToastKind::Info, "another action on many is still running");
        return None;
    }
    if jobs.is_empty() {
        out.toast(ToastKind::Info, "nothing to do");
        return None;
    }
    let id = out.id();
    st.bulk = Some(Run::new(id, purpose, doing, jobs));
    send_more(st, out)
}

/// Starts a macro's steps on its contacts as one run (each contact's jobs
/// in the order of its steps); it becomes one entry of the history.
pub fn start_macro(st: &mut Act, cx: &Cx, out: &mut Out<ActEffect>, named: Named, jobs: Vec<Job>) -> Option<Run> {
    let doing = format!("macro {}", named.label);
    if st.bulk.is_some() || jobs.is_empty() {
        return start(st, cx, out, Purpose::Act, &doing, jobs);
    }
    let id = out.id();
    let mut run = Run::new(id, Purpose::Act, doing, jobs);
    run.named = Some(named);
    st.bulk = Some(run);
    send_more(st, out)
}

/// Stops sending; what is in flight still lands. The run, when that ends
/// it.
pub fn cancel(st: &mut Act) -> Option<Run> {
    if let Some(run) = st.bulk.as_mut() {
        run.cancelled = true;
    }
    finish_if_done(st)
}

/// Sends jobs until [`IN_FLIGHT`] are out.
fn send_more(st: &mut Act, out: &mut Out<ActEffect>) -> Option<Run> {
    loop {
        let id = out.id();
        let run = st.bulk.as_mut()?;
        let Some(job) = run.next_job() else { break };
        out.fx(ActEffect::Apply {
            id,
            uuid: job.uuid.clone(),
            action: job.action.clone(),
            guard: job.guard.clone(),
        });
        run.in_flight.insert(id, job);
    }
    finish_if_done(st)
}

/// The job whose answer `id` is, taken out of the flight; `None` when `id`
/// is not the run's.
pub fn take_job(st: &mut Act, id: ReqId) -> Option<Job> {
    st.bulk.as_mut().and_then(|run| run.in_flight.remove(&id))
}

/// `job`'s outcome (the contact, or why not in one line; an undo's
/// fields left as a colleague changed them), and the next jobs; the run,
/// when this ends it.
pub fn job_done(st: &mut Act, out: &mut Out<ActEffect>, mut job: Job, answer: Answer) -> Option<Run> {
    if let Some(run) = st.bulk.as_mut() {
        // What undo restores is the contact as the service showed it just
        // before the write, not the row as it was listed.
        if let Some(before) = answer.before {
            job.before = *before;
        }
        let took_back = answer.reverted.is_none_or(|n| n > 0) || answer.conflicts.is_empty();
        if !answer.conflicts.is_empty() {
            let lines = answer.conflicts.iter().map(|c| sanitize_line(c)).collect();
            run.conflicts.push((job.clone(), lines));
        }
        let uuid = job.uuid.clone();
        let rest = |run: &mut Run| -> Vec<Job> {
            // A macro's contact whose step did not go through gets none of
            // the steps after it.
            if run.named.is_none() {
                return Vec::new();
            }
            let (rest, keep): (Vec<Job>, Vec<Job>) = run.queue.drain(..).partition(|j| j.uuid == uuid);
            run.queue = keep.into();
            rest
        };
        match answer.result {
            Ok(contact) if answer.skipped => {
                let later = rest(run);
                run.skipped.extend(later.into_iter().map(|j| (j, contact.clone())));
                run.skipped.push((job, contact));
            }
            Ok(contact) if took_back => run.ok.push((job, contact)),
            Ok(_) => {}
            Err(why) => {
                run.failed.push((job, sanitize_line(&why)));
                let why = "not run: an earlier step failed".to_string();
                let later = rest(run);
                run.failed.extend(later.into_iter().map(|j| (j, why.clone())));
            }
        }
    }
    send_more(st, out)
}

/// When the run has nothing left: it, once.
fn finish_if_done(st: &mut Act) -> Option<Run> {
    if !st.bulk.as_ref().is_some_and(Run::finished) {
        return None;
    }
    st.bulk.take()
}

/// How a run ended, in one line: whether all went well, and the counts.
pub fn ended(run: &Run) -> (bool, String) {
    let Counts {
        ok,
        failed,
        not_sent,
        conflicts,
        skipped,
        no_op,
        ..
    } = run.contacts();
    let mut text = format!("{}: {ok} done", run.doing);
    if no_op > 0 {
        text.push_str(&format!(", {no_op} {NO_OP}"));
    }
    if skipped > 0 {
        text.push_str(&format!(", {skipped} {}", crate::triage::write::SKIPPED));
    }
    if conflicts > 0 {
        text.push_str(&format!(", {conflicts} left as changed since"));
    }
    if failed > 0 {
        text.push_str(&format!(", {failed} failed"));
    }
    if not_sent > 0 {
        text.push_str(&format!(", {not_sent} never sent (stopped)"));
    }
    if let Some(note) = &run.note {
        text.push_str(&format!("; {note}"));
    }
    (failed == 0 && not_sent == 0 && conflicts == 0 && skipped == 0, text)
}

/// How the summary and the toast call a contact already as the action
/// leaves it (`history` counts it in NO-OP).
pub const NO_OP: &str = "no-op (already so)";

/// The overlay's account of a run that did not all go through.
pub fn summary(run: &Run) -> Summary {
    let Counts {
        ok,
        failed,
        not_sent,
        conflicts,
        skipped,
        no_op,
        of,
    } = run.contacts();
    let mut doing = run.doing.clone();
    if let Some(first) = doing.get(..1) {
        doing = first.to_uppercase() + &doing[1..];
    }
    let mut counts = format!("{ok} done · {failed} failed");
    if no_op > 0 {
        counts.push_str(&format!(" · {no_op} {NO_OP}"));
    }
    if not_sent > 0 {
        counts.push_str(&format!(" · {not_sent} never sent"));
    }
    if conflicts > 0 {
        counts.push_str(&format!(" · {conflicts} left as changed since"));
    }
    if skipped > 0 {
        counts.push_str(&format!(" · {skipped} {}", crate::triage::write::SKIPPED));
    }
    // A run of two actions (add and remove tags) says which one failed.
    let verbs = run
        .failed
        .iter()
        .map(|(j, _)| j)
        .chain(run.ok.iter().map(|(j, _)| j))
        .chain(&run.queue)
        .map(|j| j.action.verb())
        .collect::<std::collections::HashSet<_>>();
    let failures = run
        .failed
        .iter()
        .map(|(job, why)| {
            if verbs.len() > 1 {
                format!("{} ({}): {why}", job.name, job.action.verb())
            } else {
                format!("{}: {why}", job.name)
            }
        })
        .chain(
            run.conflicts
                .iter()
                .map(|(job, lines)| format!("{}: {}", job.name, lines.join("; "))),
        )
        .chain(
            run.skipped
                .iter()
                .map(|(job, _)| format!("{}: changed since listed, not written", job.name)),
        )
        .collect();
    let hint = match (run.purpose, failed > 0, not_sent > 0) {
        (Purpose::Act, true, true) => Some("failed and unsent stay marked: . sends them".to_string()),
        (Purpose::Act, true, false) => Some("the failed stay marked: . retries them".to_string()),
        (Purpose::Act, false, true) => Some("the unsent stay marked: . sends them".to_string()),
        _ => None,
    };
    let heading = match (failed > 0, conflicts > 0, skipped > 0) {
        (true, true, _) => "Failed, or left as a colleague changed them:",
        (false, true, _) => "Left as a colleague changed them:",
        (true, false, true) => "Failed, or skipped:",
        (false, false, true) => "Skipped (a colleague changed them since you marked them):",
        _ => "Failed:",
    };
    Summary {
        title: format!("{doing}: {ok} of {of}"),
        counts,
        failures,
        heading: heading.into(),
        hint,
        scroll: 0,
    }
}
