//! Actions on many contacts: a [`Run`] sends its jobs a few at a time
//! (at most [`IN_FLIGHT`]), each outcome lands in the list and the index
//! as it comes, and the end of the run is reported once.
//!
//! [`IN_FLIGHT`]: crate::tui::model::bulk::IN_FLIGHT

use crate::api::{ApiError, Contact};
use crate::tui::effect::Effect;
use crate::tui::index_worker::IndexCmd;
use crate::tui::model::bulk::{Counts, Job, Purpose, Run, Summary};
use crate::tui::model::{Model, Overlay, ToastKind};
use crate::tui::msg::ReqId;

/// Starts `jobs` as one run; refuses while another runs.
pub(crate) fn start(model: &mut Model, purpose: Purpose, doing: &str, jobs: Vec<Job>, fx: &mut Vec<Effect>) {
    let now = model.now;
    if model.bulk.is_some() {
        return model
            .status
            .push(ToastKind::Info, "another action on many is still running", now);
    }
    if jobs.is_empty() {
        return model.status.push(ToastKind::Info, "nothing to do", now);
    }
    let id = model.next_id();
    model.bulk = Some(Run::new(id, purpose, doing, jobs));
    send_more(model, fx);
}

/// Stops sending; what is in flight still lands.
pub(crate) fn cancel(model: &mut Model, fx: &mut Vec<Effect>) {
    if let Some(run) = model.bulk.as_mut() {
        run.cancelled = true;
    }
    finish_if_done(model, fx);
}

/// Sends jobs until [`IN_FLIGHT`](crate::tui::model::bulk::IN_FLIGHT) are out.
fn send_more(model: &mut Model, fx: &mut Vec<Effect>) {
    loop {
        let id = model.next_id();
        let Some(run) = model.bulk.as_mut() else { return };
        let Some(job) = run.next_job() else { break };
        fx.push(Effect::Apply {
            id,
            uuid: job.uuid.clone(),
            action: job.action.clone(),
        });
        run.in_flight.insert(id, job);
    }
    finish_if_done(model, fx);
}

/// One job's answer.
pub(crate) fn applied(
    model: &mut Model,
    id: ReqId,
    uuid: &str,
    result: Result<Contact, ApiError>,
    fx: &mut Vec<Effect>,
) {
    let Some(job) = model.bulk.as_mut().and_then(|run| run.in_flight.remove(&id)) else {
        return;
    };
    debug_assert_eq!(job.uuid, uuid);
    match result {
        Ok(contact) => {
            model.known.learn(&contact);
            if let crate::triage::bulk::Action::Bot(on) = job.action {
                model.list.bots.insert(contact.uuid.clone(), on);
            }
            if let Some(full) = model.details.full.as_mut().filter(|f| f.uuid == contact.uuid) {
                let meta = full.custom_fields_metadata.take();
                *full = contact.clone();
                full.custom_fields_metadata = meta;
            }
            // A row this takes out of the view stays, greyed, until the
            // selection moves: the list does not jump under the cursor.
            super::views::keep(model, &contact.uuid);
            model.list.store.replace(contact.clone());
            if model.sync.enabled() {
                fx.push(Effect::Index(IndexCmd::Store(Box::new(contact.clone()))));
            }
            if let Some(run) = model.bulk.as_mut() {
                run.ok.push((job, contact));
            }
        }
        Err(e) => {
            let why = crate::tui::text::sanitize_line(&e.to_string());
            if let Some(run) = model.bulk.as_mut() {
                run.failed.push((job, why));
            }
        }
    }
    send_more(model, fx);
}

/// When the run has nothing left: the summary, once.
fn finish_if_done(model: &mut Model, fx: &mut Vec<Effect>) {
    if !model.bulk.as_ref().is_some_and(Run::finished) {
        return;
    }
    let Some(run) = model.bulk.take() else { return };
    if model.sync.enabled() && !run.ok.is_empty() {
        super::notes::after_write(model, fx);
    }
    finished(model, run, fx);
}

/// The run is over: say what happened.
fn finished(model: &mut Model, run: Run, _fx: &mut Vec<Effect>) {
    super::record::record_run(model, &run);
    let now = model.now;
    // An action on marks unmarks the contacts it did and keeps the failed
    // (and the never sent) marked, so `.` takes up just them; an undo
    // leaves the marks alone.
    if run.purpose == Purpose::Act {
        for (job, _) in &run.ok {
            model.marks.remove(&job.uuid);
        }
        let unsent = run.queue.iter().filter(|_| run.cancelled);
        for job in run.failed.iter().map(|(j, _)| j).chain(unsent) {
            model.marks.insert(&job.uuid);
        }
    }
    let Counts {
        ok, failed, not_sent, ..
    } = run.contacts();
    let mut text = format!("{}: {ok} done", run.doing);
    if failed > 0 {
        text.push_str(&format!(", {failed} failed"));
    }
    if not_sent > 0 {
        text.push_str(&format!(", {not_sent} never sent (stopped)"));
    }
    if failed == 0 && not_sent == 0 {
        return model.status.push(ToastKind::Success, text, now);
    }
    model.status.push(ToastKind::Error, text, now);
    // The account of it, unless the agent is busy in another overlay (the
    // toast then says it).
    if model.overlay.is_none() {
        model.overlay = Some(Overlay::Summary(summary(&run)));
    }
}

/// The overlay's account of a run that did not all go through.
pub(crate) fn summary(run: &Run) -> Summary {
    let Counts {
        ok,
        failed,
        not_sent,
        of,
    } = run.contacts();
    let mut doing = run.doing.clone();
    if let Some(first) = doing.get(..1) {
        doing = first.to_uppercase() + &doing[1..];
    }
    let mut counts = format!("{ok} done · {failed} failed");
    if not_sent > 0 {
        counts.push_str(&format!(" · {not_sent} never sent"));
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
        .collect();
    let hint = match (run.purpose, failed > 0, not_sent > 0) {
        (Purpose::Act, true, true) => Some("failed and unsent stay marked: . sends them".to_string()),
        (Purpose::Act, true, false) => Some("the failed stay marked: . retries them".to_string()),
        (Purpose::Act, false, true) => Some("the unsent stay marked: . sends them".to_string()),
        _ => None,
    };
    Summary {
        title: format!("{doing}: {ok} of {of}"),
        counts,
        failures,
        hint,
        scroll: 0,
    }
}
