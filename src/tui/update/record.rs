//! What undo remembers: every write, one contact or a run on many, becomes
//! an entry of the history with the reverse of each change. Writers call
//! these; taking an entry back (undo.rs) runs through the bulk pipeline.

use crate::api::{BotStatus, Contact, ContactPatch};
use crate::triage::bulk::Action;
use crate::tui::model::bulk::{Purpose, Run};
use crate::tui::model::undo::{Item, Pending, State, WINDOW_SECS};
use crate::tui::model::{Known, Model, ToastKind};
use crate::tui::msg::{ReqId, WriteKind};
use crate::tui::text::sanitize_line;

/// The action a form's patch performs, when it is one undo knows (edit and
/// new contact are not).
pub(crate) fn action_of(kind: WriteKind, patch: &ContactPatch) -> Option<Action> {
    match kind {
        WriteKind::Tags => patch.tags.clone().map(Action::SetTags),
        WriteKind::Assign if patch.unassign_user == Some(true) => Some(Action::Unassign),
        WriteKind::Assign => patch.assigned_user.clone().map(Action::Assign),
        WriteKind::Team => patch.team_uuid.clone().map(Action::Team),
        WriteKind::Note => patch.note.clone().map(Action::Note),
        _ => None,
    }
}

/// A single write `id` is going out: remember the contact as it was.
pub(crate) fn will_write(model: &mut Model, id: ReqId, action: Action, before: Contact, bot_before: Option<bool>) {
    model.undo.pending.insert(
        id,
        Pending {
            action,
            before,
            bot_before,
        },
    );
}

/// The single write `id` failed: nothing to undo.
pub(crate) fn write_failed(model: &mut Model, id: ReqId) {
    model.undo.pending.remove(&id);
}

/// The single write `id` succeeded with `after` (already in the list):
/// it becomes an entry, and its toast is said. False when `id` was not
/// one undo follows (the caller says what happened).
pub(crate) fn wrote(model: &mut Model, id: ReqId, after: &Contact) -> bool {
    let Some(p) = model.undo.pending.remove(&id) else {
        return false;
    };
    let item = Item {
        uuid: after.uuid.clone(),
        name: name_of(after, &p.before),
        reverse: p.action.reverse(&p.before, p.bot_before),
        after: after.clone(),
        bot_after: None,
        undone: false,
    };
    record(model, p.action, vec![item]);
    true
}

/// The bot write `id` on `uuid` succeeded: the bot now runs (or not).
pub(crate) fn bot_wrote(model: &mut Model, id: ReqId, uuid: &str, running: bool) -> bool {
    let Some(p) = model.undo.pending.remove(&id) else {
        return false;
    };
    let action = Action::Bot(running);
    let after = model.list.contact(uuid).unwrap_or_else(|| p.before.clone());
    let item = Item {
        uuid: uuid.to_string(),
        name: name_of(&after, &p.before),
        reverse: action.reverse(&p.before, p.bot_before),
        after,
        bot_after: Some(running),
        undone: false,
    };
    record(model, action, vec![item]);
    true
}

fn name_of(after: &Contact, before: &Contact) -> String {
    [&after.name, &before.name, &after.phone_number]
        .into_iter()
        .find(|n| !n.trim().is_empty())
        .cloned()
        .unwrap_or_else(|| "a contact".into())
}

/// A run on many has ended: an action becomes one entry (its successes
/// only); an undo marks what it took back.
pub(crate) fn record_run(model: &mut Model, run: &Run) {
    match run.purpose {
        Purpose::Act => {
            let Some(action) = run.ok.first().map(|(job, _)| job.action.clone()) else {
                return;
            };
            let items = run
                .ok
                .iter()
                .map(|(job, after)| Item {
                    uuid: job.uuid.clone(),
                    name: job.name.clone(),
                    reverse: job.action.reverse(&job.before, job.bot_before),
                    after: after.clone(),
                    bot_after: match job.action {
                        Action::Bot(on) => Some(on),
                        _ => None,
                    },
                    undone: false,
                })
                .collect();
            record(model, action, items);
        }
        Purpose::Undo => {
            bot_panel_follows(model, run);
            let Some(id) = model.undo.undoing.take() else { return };
            let Some(entry) = model.undo.get_mut(id) else { return };
            for item in entry.items.iter_mut() {
                if run.ok.iter().any(|(job, _)| job.uuid == item.uuid) {
                    item.undone = true;
                }
            }
        }
    }
}

/// The bot panel shows the state an undo put back (the list's bot state
/// is kept by the run itself).
fn bot_panel_follows(model: &mut Model, run: &Run) {
    let panel = &mut model.details.bot;
    for (job, _) in &run.ok {
        if let Action::Bot(on) = job.action
            && panel.contact.as_deref() == Some(job.uuid.as_str())
            && let Some(bot) = panel.bot.as_mut()
        {
            bot.status = if on { BotStatus::Started } else { BotStatus::Ended };
        }
    }
}

/// What an action did, in words, with the team's name when known.
fn describe(action: &Action, known: &Known) -> String {
    match action {
        Action::Team(t) => {
            let name = known.team_name(t).filter(|n| !n.is_empty()).unwrap_or(t);
            format!("team set to {name}")
        }
        other => other.done(),
    }
}

/// Adds the entry and says what happened, offering `u` when it can be
/// undone and saying why not when it cannot.
fn record(model: &mut Model, action: Action, items: Vec<Item>) {
    let now = model.now;
    let who = match items.as_slice() {
        [one] => one.name.clone(),
        many => format!("{} contacts", many.len()),
    };
    let what = sanitize_line(&format!("{} ({who})", describe(&action, &model.known)));
    let id = model.undo.push(now, action, what.clone(), items);
    let (cannot, why) = model.undo.get(id).map(|e| e.cannot()).unwrap_or((0, None));
    let text = match model.undo.state(id, &model.list) {
        Some(State::Undoable(_)) => match why {
            Some(why) if cannot > 0 => format!("{what} · {cannot} cannot be undone: {why}"),
            _ => what,
        },
        Some(State::Cannot(why)) => {
            model.undo.offer = None;
            format!("{what} · cannot undo: {why}")
        }
        _ => {
            model.undo.offer = None;
            what
        }
    };
    model.status.push_for(ToastKind::Success, text, now, WINDOW_SECS);
}
