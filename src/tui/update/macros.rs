//! Macros (`[macros.NAME]`): a key (or the palette) runs a macro's steps
//! on the selected contact, or on every marked one, per contact. Its
//! writes are one run of the act slice (each contact's steps in order, one
//! at a time) and one entry of the history, which `u` takes back as one
//! step. Its message (`snippet`, `send`) is filled for each contact before
//! anything is done: a contact whose text would go out with a variable
//! unfilled is left out whole, and said. Once the writes went through on a
//! contact, its message is sent through the composer's send (not taken
//! back by `u`, which says so), or, without `send`, put in the composer
//! for the agent to read; then a `snooze` step follows.

use crate::macros::{Macro, Step};
use crate::triage::bulk::Action;
use crate::tui::act::{self, CONFIRM_ABOVE, Confirm, Job, Named};
use crate::tui::effect::Effect;
use crate::tui::inbox::contact_list::Row;
use crate::tui::inbox::marking;
use crate::tui::model::{Model, Overlay, ToastKind};
use crate::tui::text::sanitize_line;

use super::call::call;
use crate::snippets::Filled;
use crate::tui::compose;

/// Runs the session's macro `index` on the marks (or the selected
/// contact); above [`CONFIRM_ABOVE`] contacts it asks first (`asked`: the
/// answer was yes).
pub(crate) fn start(model: &mut Model, index: u16, asked: bool, fx: &mut Vec<Effect>) -> Option<act::Run> {
    let now = model.now;
    let m = model.session.macros.get(usize::from(index)).cloned()?;
    let say = |model: &mut Model, text: String| -> Option<act::Run> {
        model.status.push(ToastKind::Info, text, now);
        None
    };
    let label = sanitize_line(&m.label);
    if model.act.bulk.is_some() {
        return say(model, "an action on many is running: Esc stops it".into());
    }
    let (actions, snooze) = match plan(model, &m) {
        Ok(plan) => plan,
        Err(why) => return say(model, format!("{label}: {why}; nothing was done")),
    };
    marking::end_range(&mut model.marks, &model.list);
    let all: Vec<(String, String)> = if model.marks.is_empty() {
        match model.list.selected_uuid().and_then(|u| model.list.get(&u)) {
            Some(r) => vec![(r.uuid.to_string(), sanitize_line(r.label()))],
            None => return say(model, "select a contact first".into()),
        }
    } else {
        marking::marked(&model.list, &model.marks)
            .iter()
            .map(|r| (r.uuid.to_string(), sanitize_line(r.label())))
            .collect()
    };
    let (message, refused) = match messages(model, &m, &all, fx) {
        Ok(m) => m,
        Err(why) => return say(model, format!("{label}: {why}; nothing was done")),
    };
    if refused.len() == all.len() {
        let each: Vec<(String, String)> = refused.into_iter().map(|(_, n, w)| (n, w)).collect();
        return say(model, format!("{label}: nothing done: {}", grouped(&each)));
    }
    let targets: Vec<(String, String)> = all
        .into_iter()
        .filter(|(uuid, _)| !refused.iter().any(|(r, _, _)| r == uuid))
        .collect();
    let refused = refused.into_iter().map(|(_, n, w)| (n, w)).collect();
    let rows: Vec<&Row> = targets.iter().filter_map(|(u, _)| model.list.get(u)).collect();
    let jobs = jobs(model, &rows, &actions);
    let named = Named {
        label: label.clone(),
        snooze: snooze.clone(),
        message,
        send: m.sends(),
        refused,
    };
    let n = targets.len();
    // A colleague answering these customers, or who just did: the send
    // waits for a yes, as the composer's does.
    let busy = if m.sends() && !asked {
        colleagues_busy(model, &targets)
    } else {
        None
    };
    if (n > CONFIRM_ABOVE || busy.is_some()) && !asked {
        model.overlay = Some(Overlay::Confirm(Box::new(Confirm {
            question: match (&busy, m.sends()) {
                (Some(why), _) if n == 1 => format!("{why}: run {label}, sending a message anyway?"),
                (Some(why), _) => format!("{why}: run {label} on {n} contacts, sending each a message anyway?"),
                (None, true) => format!("Run {label} on {n} contacts, sending each a message?"),
                (None, false) => format!("Run {label} on {n} contacts?"),
            },
            doing: format!("macro {label}"),
            actions,
            jobs,
            already: Vec::new(),
            rerun: Some(index),
            single: None,
        })));
        return None;
    }
    if jobs.is_empty() {
        // Only a message or a snooze: nothing to write, nothing for `u`.
        let said = deliver(model, &named, &targets, false, fx);
        if let Some(when) = snooze {
            for (uuid, name) in &targets {
                if let Err(why) = super::slices::snooze_until(model, uuid, name, &when, fx) {
                    return say(model, format!("{label}: {why}"));
                }
            }
        }
        if !said.text.is_empty() {
            let kind = if said.well {
                ToastKind::Success
            } else {
                ToastKind::Error
            };
            model
                .status
                .push(kind, format!("macro {label}:{}", &said.text[1..]), now);
        }
        return None;
    }
    // `.` repeats its writes on the marks the run leaves (the failed).
    marking::ran(&mut model.marks, actions, &format!("macro {label}"), &[]);
    call!(model, fx, act, Effect::from, |st, cx, out| act::start_macro(
        st, cx, out, named, jobs
    ))
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
            Step::Snippet(_) | Step::Send(_) => {}
        }
    }
    Ok((actions, snooze))
}

/// "dana is replying now (Ana)", "dana replied 20 s ago (Ana, +2 more)":
/// the targets a colleague is answering or just answered, through a hub.
fn colleagues_busy(model: &Model, targets: &[(String, String)]) -> Option<String> {
    let targets = targets.iter().map(|(uuid, name)| (uuid.as_str(), name.as_str()));
    model.colleagues.busy_among(targets, model.now)
}

/// The macro's message for each contact (uuid, text), and the contacts
/// left out (name, why): a text to send with a variable that has no
/// value. An error when it cannot run at all (no such snippet; a text for
/// the composer on more than one contact).
#[allow(clippy::type_complexity)]
fn messages(
    model: &mut Model,
    m: &Macro,
    targets: &[(String, String)],
    fx: &mut Vec<Effect>,
) -> Result<(Vec<(String, Filled)>, Vec<(String, String, String)>), String> {
    let step = m
        .steps
        .iter()
        .find(|s| matches!(s, Step::Snippet(_) | Step::Send(Some(_))))
        .cloned();
    let Some(step) = step else {
        return Ok((Vec::new(), Vec::new()));
    };
    let sends = m.sends();
    if !sends && targets.len() > 1 {
        return Err("it fills the composer: run it on one contact".into());
    }
    let agent = model.agent_name();
    let filled = call!(model, fx, compose, Effect::Compose, |st, cx, _out| {
        targets
            .iter()
            .map(|(uuid, _)| compose::fill_for(st, cx, uuid, &step, agent.as_deref()))
            .collect::<Vec<_>>()
    });
    let mut message = Vec::new();
    let mut refused = Vec::new();
    for ((uuid, name), f) in targets.iter().zip(filled) {
        let f = f?;
        if sends && !f.missing.is_empty() {
            let names: Vec<String> = f.missing.iter().map(|v| format!("{{{{{v}}}}}")).collect();
            refused.push((uuid.clone(), name.clone(), format!("no {}", names.join(", "))));
        } else if sends && f.text.trim().is_empty() {
            refused.push((uuid.clone(), name.clone(), "an empty text".into()));
        } else {
            message.push((uuid.clone(), f));
        }
    }
    Ok((message, refused))
}

/// What delivering a macro's message came to: said after the run's
/// counts (`, 2 sent`), and whether all went well.
pub(crate) struct Said {
    pub text: String,
    pub well: bool,
    /// `name: why` for the summary.
    pub lines: Vec<String>,
}

/// The macro's message on `done` (the contacts every write went through
/// on): sent, or put in the composer. `recorded`: the run is the newest
/// entry of the history, which then says its messages stay sent.
pub(crate) fn deliver(
    model: &mut Model,
    named: &Named,
    done: &[(String, String)],
    recorded: bool,
    fx: &mut Vec<Effect>,
) -> Said {
    let mut said = Said {
        text: String::new(),
        well: true,
        lines: Vec::new(),
    };
    let mut failed: Vec<(String, String)> = Vec::new();
    let mine = |uuid: &str| named.message.iter().find(|(u, _)| u == uuid).map(|(_, f)| f.clone());
    if named.send {
        let mut sent = 0;
        for (uuid, name) in done {
            let Some(filled) = mine(uuid) else { continue };
            let r = call!(model, fx, compose, Effect::Compose, |st, cx, out| compose::send_for(
                st,
                cx,
                out,
                uuid,
                &filled.text
            ));
            match r {
                Ok(()) => sent += 1,
                Err(why) => failed.push((name.clone(), why)),
            }
        }
        if sent > 0 {
            said.text.push_str(&format!(", {sent} sent"));
            if recorded && let Some(entry) = model.act.undo.entries.front_mut() {
                // Its own sends are part of the entry: `u` takes back its
                // writes at once, and says the messages stay.
                entry.stays = Some(if sent == 1 {
                    "the message stays sent".into()
                } else {
                    format!("the {sent} messages stay sent")
                });
                model.act.undo.barrier = None;
            }
        }
    } else if let Some((uuid, name)) = done.first()
        && let Some(filled) = mine(uuid)
    {
        if model.list.selected_uuid().as_deref() == Some(uuid.as_str()) && !model.compose.is_open() {
            super::select::show_selected(model, fx);
        }
        let r = call!(model, fx, compose, Effect::Compose, |st, cx, out| compose::fill_in(
            st, cx, out, uuid, &filled
        ));
        if let Err(why) = r {
            failed.push((name.clone(), why));
        }
    }
    for (name, why) in named.refused.iter().chain(&failed) {
        said.lines.push(format!("{name}: {why}"));
    }
    let left = named.refused.len() + failed.len();
    if left > 0 {
        said.well = false;
        let each: Vec<(String, String)> = named.refused.iter().chain(&failed).cloned().collect();
        let reasons = grouped(&each);
        said.text.push_str(&if named.send {
            format!(", {left} not sent: {reasons}")
        } else {
            format!("; {reasons}")
        });
    }
    said
}

/// `(name, why)` said short, the reason first (a toast is one line):
/// `no {{contact.custom.plan}} (Ana, Bruce); no phone number (Li)`.
fn grouped(each: &[(String, String)]) -> String {
    let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
    for (name, why) in each {
        match reasons.iter_mut().find(|(w, _)| *w == why.as_str()) {
            Some((_, names)) => names.push(name),
            None => reasons.push((why, vec![name])),
        }
    }
    reasons
        .iter()
        .map(|(why, names)| format!("{why} ({})", names.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
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
