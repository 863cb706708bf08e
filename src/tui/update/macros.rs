//! Macros (`[macros.NAME]`): a key (or the palette) runs a macro's steps
//! on the selected contact, or on every marked one, per contact. Its
//! writes are one run of the act slice (each contact's steps in order, one
//! at a time) and one entry of the history, which `u` takes back as one
//! step; a `snooze` step follows on each contact all the writes went
//! through on. `snippet` and `send` are not run here yet: a macro with
//! one is refused whole, before anything is done.

use crate::macros::{Macro, Step};
use crate::triage::bulk::Action;
use crate::tui::act::{self, CONFIRM_ABOVE, Confirm, Job, Named};
use crate::tui::effect::Effect;
use crate::tui::inbox::contact_list::Row;
use crate::tui::inbox::marking;
use crate::tui::model::{Model, Overlay, ToastKind};
use crate::tui::text::sanitize_line;

use super::call::call;

/// Runs the session's macro `index` on the marks (or the selected
/// contact); above [`CONFIRM_ABOVE`] contacts it asks first (`asked`: the
/// answer was yes).
pub(crate) fn run(model: &mut Model, index: u16, asked: bool, fx: &mut Vec<Effect>) {
    let now = model.now;
    let Some(m) = model.session.macros.get(usize::from(index)).cloned() else {
        return;
    };
    let say = |model: &mut Model, text: String| model.status.push(ToastKind::Info, text, now);
    let label = sanitize_line(&m.label);
    if model.act.bulk.is_some() {
        return say(model, "an action on many is running: Esc stops it".into());
    }
    let (actions, snooze) = match plan(model, &m) {
        Ok(plan) => plan,
        Err(why) => return say(model, format!("{label}: {why}; nothing was done")),
    };
    marking::end_range(&mut model.marks, &model.list);
    let rows: Vec<&Row> = if model.marks.is_empty() {
        match model.list.selected_uuid().and_then(|u| model.list.get(&u)) {
            Some(r) => vec![r],
            None => return say(model, "select a contact first".into()),
        }
    } else {
        marking::marked(&model.list, &model.marks)
    };
    let targets: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r.uuid.to_string(), sanitize_line(r.label())))
        .collect();
    let jobs = jobs(model, &rows, &actions);
    let n = targets.len();
    if n > CONFIRM_ABOVE && !asked {
        model.overlay = Some(Overlay::Confirm(Box::new(Confirm {
            question: format!("Run {label} on {n} contacts?"),
            doing: format!("macro {label}"),
            actions,
            jobs,
            already: Vec::new(),
            rerun: Some(index),
        })));
        return;
    }
    if jobs.is_empty() {
        // Only a snooze: nothing to write, nothing for `u`.
        let when = snooze.unwrap_or_default();
        for (uuid, name) in &targets {
            if let Err(why) = super::slices::snooze_until(model, uuid, name, &when, fx) {
                return say(model, format!("{label}: {why}"));
            }
        }
        return;
    }
    // `.` repeats its writes on the marks the run leaves (the failed).
    marking::ran(&mut model.marks, actions, &format!("macro {label}"), &[]);
    let named = Named { label, snooze };
    let over = call!(model, fx, act, Effect::from, |st, cx, out| act::start_macro(
        st, cx, out, named, jobs
    ));
    super::bulk::ended(model, over, fx);
}

/// The macro's writes in order (teams found by name), and its snooze; or
/// why it cannot run.
fn plan(model: &Model, m: &Macro) -> Result<(Vec<Action>, Option<String>), String> {
    let mut actions = Vec::new();
    let mut snooze = None;
    for step in &m.steps {
        match step {
            Step::Write(a) => actions.push(a.clone()),
            Step::Team(t) => {
                let found = model
                    .known
                    .teams
                    .iter()
                    .find(|(uuid, name)| uuid == t || name.eq_ignore_ascii_case(t.trim()));
                match found {
                    Some((uuid, _)) => actions.push(Action::Team(uuid.clone())),
                    None => return Err(format!("no team named {}", sanitize_line(t))),
                }
            }
            Step::Snooze(when) => snooze = Some(when.clone()),
            Step::Snippet(_) | Step::Send(_) => {
                return Err("its snippet and send steps are not yet supported in the TUI".into());
            }
        }
    }
    Ok((actions, snooze))
}

/// Each contact's jobs, its steps in order. Marks of a whole view are
/// checked against it before a contact's first step only (its own steps
/// may take it out of the view).
fn jobs(model: &Model, rows: &[&Row], actions: &[Action]) -> Vec<Job> {
    let chosen = model.marks.chosen.as_ref().filter(|_| !model.marks.is_empty());
    let guard = chosen.map(|filter| {
        Box::new(act::Guard::Chosen(crate::triage::write::Chosen {
            filter: filter.clone(),
            me: model.views.me.clone(),
            now: model.now,
        }))
    });
    let mut jobs = Vec::new();
    for r in rows {
        for (i, a) in actions.iter().enumerate() {
            jobs.push(Job {
                uuid: r.uuid.to_string(),
                name: sanitize_line(r.label()),
                action: a.clone(),
                before: r.to_contact(),
                bot_before: model.list.bots.get(&*r.uuid).copied(),
                guard: if i == 0 { guard.clone() } else { None },
            });
        }
    }
    jobs
}
