//! The root's side of undo (`act/undo.rs`): `u` and the history overlay
//! (`U`), whose keys it routes to the act slice.

use crossterm::event::KeyEvent;

use crate::tui::act;
use crate::tui::effect::Effect;
use crate::tui::keymap::{Mode, ModeAction as M};
use crate::tui::model::{Model, Overlay, ToastKind};

use super::call::call;

/// `u`: takes back the newest action, within its window.
pub(crate) fn undo_last(model: &mut Model, fx: &mut Vec<Effect>) {
    let over = call!(model, fx, act, Effect::from, |st, cx, out| act::undo_last(st, cx, out));
    super::bulk::ended(model, over, fx);
}

/// Takes back entry `id`, or says why not.
fn undo_entry(model: &mut Model, id: u64, fx: &mut Vec<Effect>) {
    let over = call!(model, fx, act, Effect::from, |st, cx, out| act::undo_entry(
        st, cx, out, id
    ));
    super::bulk::ended(model, over, fx);
}

/// `U`: the history overlay. The runs of the CLI and of an assistant are
/// read from the run history file and join it when they arrive.
pub(crate) fn open_history(model: &mut Model, fx: &mut Vec<Effect>) {
    model.overlay = Some(Overlay::History { selected: 0 });
    if let Some(load) = act::load_runs(&model.session) {
        fx.push(Effect::Runs(load));
    }
}

/// The run history file answered: its runs join the history (the
/// selected entry stays selected).
pub(crate) fn runs(model: &mut Model, msg: act::RunsMsg) {
    let now = model.now;
    match msg {
        act::RunsMsg::Loaded(Ok(records)) => {
            // The newest stays selected; an entry the agent moved to stays
            // selected as runs join above it.
            let at = match &model.overlay {
                Some(Overlay::History { selected }) if *selected > 0 => {
                    model.act.undo.entries.get(*selected).map(|e| e.id)
                }
                _ => None,
            };
            act::merge_runs(&mut model.act.undo, &records);
            if let (Some(id), Some(Overlay::History { selected })) = (at, model.overlay.as_mut()) {
                *selected = model.act.undo.entries.iter().position(|e| e.id == id).unwrap_or(0);
            }
        }
        act::RunsMsg::Loaded(Err(e)) => {
            let text = format!("could not read the run history: {}", crate::text::sanitize_line(&e));
            model.status.push(ToastKind::Error, text, now);
        }
        act::RunsMsg::Timeline { contact, result } => super::owner::hub_timeline(model, &contact, result),
        act::RunsMsg::Kept(Ok(())) => {}
        act::RunsMsg::Kept(Err(e)) => {
            let text = format!(
                "the undo was not written to the run history: {}",
                crate::text::sanitize_line(&e)
            );
            model.status.push(ToastKind::Error, text, now);
        }
    }
}

/// Keys in the history overlay.
pub(crate) fn history_key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    let Some(Overlay::History { selected }) = model.overlay.as_mut() else {
        return;
    };
    let last = model.act.undo.entries.len().saturating_sub(1);
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
            match model.act.undo.entries.get(at).map(|e| e.id) {
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
