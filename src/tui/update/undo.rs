//! Undo: every close, reopen, assign, unassign, team, tags, note and bot
//! change of the agent's (one contact or a run on many) becomes an entry
//! of `model.undo`; a toast says what happened, and `u` takes it back for
//! [`WINDOW_SECS`] seconds; the history (`U`) takes back any of the last
//! twenty whose contacts have not changed since. An undo is a run of
//! actions (`bulk::start` with `Purpose::Undo`), one path for one contact
//! or many.

use crossterm::event::KeyEvent;

use crate::tui::effect::Effect;
use crate::tui::keymap::{self, Mode, ModeAction as M};
use crate::tui::model::bulk::Purpose;
use crate::tui::model::undo::KEEP;
use crate::tui::model::{Model, Overlay, ToastKind};

/// `u`: takes back the newest action, within its window.
pub(crate) fn undo_last(model: &mut Model, fx: &mut Vec<Effect>) {
    let now = model.now;
    let Some(id) = model.undo.offered(now) else {
        let history = model.keys.first_key(keymap::Action::History);
        let text = if model.undo.entries.is_empty() || history.is_empty() {
            "nothing to undo".to_string()
        } else {
            format!("nothing to undo now ({history}: the last {KEEP} actions)")
        };
        return model.status.push(ToastKind::Info, text, now);
    };
    undo_entry(model, id, fx);
}

/// Takes back entry `id`, or says why not.
fn undo_entry(model: &mut Model, id: u64, fx: &mut Vec<Effect>) {
    let now = model.now;
    let Some(state) = model.undo.state(id, &model.list) else {
        return;
    };
    let Some(entry) = model.undo.get(id) else { return };
    let what = entry.what.clone();
    if let Some(why) = state.refusal() {
        return model
            .status
            .push(ToastKind::Info, format!("cannot undo {what}: {why}"), now);
    }
    if model.bulk.is_some() {
        return model.status.push(
            ToastKind::Info,
            "another action on many is still running: undo once it ends",
            now,
        );
    }
    let jobs = entry.jobs();
    let (cannot, why) = entry.cannot();
    super::bulk::start(model, Purpose::Undo, &format!("undoing {what}"), jobs, fx);
    if model.bulk.is_none() {
        return;
    }
    model.undo.undoing = Some(id);
    if model.undo.offer.is_some_and(|o| o.entry == id) {
        model.undo.offer = None;
    }
    if let Some(why) = why.filter(|_| cannot > 0) {
        model.status.push(
            ToastKind::Info,
            format!("undoing; {cannot} cannot be undone: {why}"),
            now,
        );
    }
}

/// `U`: the history overlay.
pub(crate) fn open_history(model: &mut Model) {
    model.overlay = Some(Overlay::History { selected: 0 });
}

/// Keys in the history overlay.
pub(crate) fn history_key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    let Some(Overlay::History { selected }) = model.overlay.as_mut() else {
        return;
    };
    let last = model.undo.entries.len().saturating_sub(1);
    let Some(action) = model.keys.mode_action_for(Mode::History, &key) else {
        return;
    };
    match action {
        M::Close => model.overlay = None,
        M::Down => *selected = (*selected + 1).min(last),
        M::Up => *selected = selected.saturating_sub(1),
        M::Top => *selected = 0,
        M::Bottom => *selected = last,
        M::Undo => {
            let at = *selected;
            match model.undo.entries.get(at).map(|e| e.id) {
                Some(id) => undo_entry(model, id, fx),
                None => {
                    let now = model.now;
                    model.status.push(ToastKind::Info, "nothing to undo", now);
                }
            }
        }
        _ => {}
    }
}
