//! Actions on many contacts: a [`Run`] sends its jobs a few at a time
//! (at most [`IN_FLIGHT`]), each outcome lands in the list and the index
//! as it comes, and the end of the run is reported once.
//!
//! [`IN_FLIGHT`]: crate::tui::model::bulk::IN_FLIGHT

use crate::api::{ApiError, Contact};
use crate::tui::effect::Effect;
use crate::tui::index_worker::IndexCmd;
use crate::tui::model::bulk::{Job, Purpose, Run};
use crate::tui::model::{Model, ToastKind};
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
        super::index::after_write(model, fx);
    }
    finished(model, run, fx);
}

/// The run is over: say what happened.
fn finished(model: &mut Model, run: Run, _fx: &mut Vec<Effect>) {
    super::undo::record_run(model, &run);
    let now = model.now;
    let (ok, failed) = (run.ok.len(), run.failed.len());
    let kind = if failed > 0 {
        ToastKind::Error
    } else {
        ToastKind::Success
    };
    let mut text = format!("{}: {ok} done", run.doing);
    if failed > 0 {
        text.push_str(&format!(", {failed} failed"));
    }
    if run.not_sent() > 0 {
        text.push_str(&format!(", {} cancelled", run.not_sent()));
    }
    model.status.push(kind, text, now);
}
