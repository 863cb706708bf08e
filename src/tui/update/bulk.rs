//! The root's side of the act slice's runs (`act/bulk.rs`): it lends the
//! slice its state, puts each answer in the list, the details and the
//! index, and says how a run ended (marks are the inbox's, the summary an
//! overlay).

use crate::tui::act::{self, Answer, Job, Purpose, Run};
use crate::tui::effect::Effect;
use crate::tui::index_worker::IndexCmd;
use crate::tui::model::{Model, Overlay, ToastKind};
use crate::tui::msg::ReqId;

use super::call::call;

/// Starts `jobs` as one run; refuses while another runs.
pub(crate) fn start(model: &mut Model, purpose: Purpose, doing: &str, jobs: Vec<Job>, fx: &mut Vec<Effect>) {
    let over = call!(model, fx, act, Effect::from, |st, cx, out| act::start(
        st, cx, out, purpose, doing, jobs
    ));
    ended(model, over, fx);
}

/// Stops sending; what is in flight still lands.
pub(crate) fn cancel(model: &mut Model, fx: &mut Vec<Effect>) {
    let over = act::cancel(&mut model.act);
    ended(model, over, fx);
}

/// One job's answer (`actions::applied` hands on what is not one
/// contact's write).
pub(crate) fn applied(model: &mut Model, id: ReqId, uuid: &str, mut answer: Answer, fx: &mut Vec<Effect>) {
    let Some(job) = act::take_job(&mut model.act, id) else {
        return;
    };
    debug_assert_eq!(job.uuid, uuid);
    if let Ok(contact) = &answer.result {
        let contact = contact.clone();
        {
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
        }
    }
    if let Err(e) = &mut answer.result {
        *e = crate::tui::text::sanitize_line(e);
    }
    let over = call!(model, fx, act, Effect::from, |st, _cx, out| act::job_done(
        st, out, job, answer
    ));
    ended(model, over, fx);
}

/// Runs the session's macro `index` (`asked`: its confirmation was
/// answered); a run over at once is said at once.
pub(crate) fn run_macro(model: &mut Model, index: u16, asked: bool, fx: &mut Vec<Effect>) {
    let over = super::macros::start(model, index, asked, fx);
    ended(model, over, fx);
}

/// A run that is over: the index takes a pass, then what happened is said.
pub(crate) fn ended(model: &mut Model, over: Option<Run>, fx: &mut Vec<Effect>) {
    let Some(run) = over else { return };
    if model.sync.enabled() && !run.ok.is_empty() {
        super::notes::after_write(model, fx);
    }
    finished(model, run, fx);
}

/// The run is over: say what happened.
fn finished(model: &mut Model, run: Run, fx: &mut Vec<Effect>) {
    super::recorded::record_run(model, &run, fx);
    let said = run
        .named
        .as_ref()
        .map(|named| super::macros::deliver(model, named, &went_through(&run), !run.ok.is_empty(), fx));
    macro_snoozes(model, &run, fx);
    let now = model.now;
    // An action on marks unmarks the contacts it did and keeps the failed
    // (and the never sent) marked, so `.` takes up just them; an undo
    // leaves the marks alone.
    if run.purpose == Purpose::Act {
        for (job, _) in run.ok.iter().chain(&run.skipped) {
            model.marks.remove(&job.uuid);
        }
        let unsent = run.queue.iter().filter(|_| run.cancelled);
        for job in run.failed.iter().map(|(j, _)| j).chain(unsent) {
            model.marks.insert(&job.uuid);
        }
    }
    let (mut well, mut text) = act::ended(&run);
    if let Some(said) = &said {
        text.push_str(&said.text);
        well &= said.well;
    }
    if well {
        return model.status.push(ToastKind::Success, text, now);
    }
    model.status.push(ToastKind::Error, text, now);
    // The account of it, unless the agent is busy in another overlay (the
    // toast then says it).
    if model.overlay.is_none() {
        let mut summary = act::summary(&run);
        if let Some(said) = said {
            summary.failures.extend(said.lines);
        }
        model.overlay = Some(Overlay::Summary(summary));
    }
}

/// A macro's run is over: its snooze follows on each contact every step
/// went through on.
fn macro_snoozes(model: &mut Model, run: &Run, fx: &mut Vec<Effect>) {
    let Some(when) = run.named.as_ref().and_then(|n| n.snooze.clone()) else {
        return;
    };
    for (uuid, name) in went_through(run) {
        if let Err(why) = super::slices::snooze_until(model, &uuid, &name, &when, fx) {
            let now = model.now;
            model.status.push(ToastKind::Error, format!("not snoozed: {why}"), now);
            return;
        }
    }
}

/// The contacts (uuid, name) every job of the run went through on.
fn went_through(run: &Run) -> Vec<(String, String)> {
    let bad =
        |uuid: &str| run.failed.iter().any(|(j, _)| j.uuid == uuid) || run.skipped.iter().any(|(j, _)| j.uuid == uuid);
    let unsent = |uuid: &str| run.cancelled && run.queue.iter().any(|j| j.uuid == uuid);
    let mut done: Vec<(String, String)> = Vec::new();
    for (job, _) in &run.ok {
        if !bad(&job.uuid) && !unsent(&job.uuid) && !done.iter().any(|(u, _)| *u == job.uuid) {
            done.push((job.uuid.clone(), job.name.clone()));
        }
    }
    done
}
