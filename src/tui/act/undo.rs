//! Undo: every close, reopen, assign, unassign, team, tags, note and bot
//! change of the agent's (one contact or a run on many) becomes an entry
//! of the history; a toast says what happened, and `u` takes it back for
//! [`WINDOW_SECS`] seconds; the history (`U`) takes back any of the last
//! twenty whose contacts have not changed since. An undo is the reverse
//! run of actions (`Purpose::Undo`), one path for one contact or many.

use crate::tui::keymap;
use crate::tui::shared::{Cx, Out, ToastKind};

use super::bulk::start;
use super::fx::ActEffect;
use super::history::KEEP;
#[cfg(doc)]
use super::history::WINDOW_SECS;
use super::run::{Purpose, Run};
use super::state::Act;

/// `u`: takes back the newest action, within its window. The run, when
/// it is over at once. Right after something that cannot be undone (a
/// message sent), it says so first and names what a second `u` undoes.
pub fn undo_last(st: &mut Act, cx: &Cx, out: &mut Out<ActEffect>) -> Option<Run> {
    if let Some(what) = st.undo.take_barrier(cx.now) {
        let offered = st.undo.offered(cx.now).and_then(|id| st.undo.get(id));
        let undo = cx.keys.first_key(keymap::Action::Undo);
        let text = match offered {
            Some(e) if !undo.is_empty() => format!("{what} cannot be undone; {undo} again undoes: {}", e.what),
            _ => format!("{what} cannot be undone"),
        };
        out.toast(ToastKind::Info, text);
        return None;
    }
    let Some(id) = st.undo.offered(cx.now) else {
        let history = cx.keys.first_key(keymap::Action::History);
        let text = if st.undo.entries.is_empty() || history.is_empty() {
            "nothing to undo".to_string()
        } else {
            format!("nothing to undo now ({history}: the last {KEEP} actions)")
        };
        out.toast(ToastKind::Info, text);
        return None;
    };
    undo_entry(st, cx, out, id)
}

/// Takes back entry `id`, or says why not.
pub fn undo_entry(st: &mut Act, cx: &Cx, out: &mut Out<ActEffect>, id: u64) -> Option<Run> {
    let state = st.undo.state(id, cx.contacts)?;
    let entry = st.undo.get(id)?;
    let what = entry.what.clone();
    if let Some(why) = state.refusal() {
        out.toast(ToastKind::Info, format!("cannot undo {what}: {why}"));
        return None;
    }
    if st.bulk.is_some() {
        out.toast(
            ToastKind::Info,
            "another action on many is still running: undo once it ends",
        );
        return None;
    }
    let jobs = entry.jobs();
    let (cannot, why) = entry.cannot();
    let stays = entry.stays.clone();
    let mut over = start(st, cx, out, Purpose::Undo, &format!("undoing {what}"), jobs);
    // A macro's message is not taken back: its end says so.
    if let Some(run) = st.bulk.as_mut().or(over.as_mut()) {
        run.note = stays;
    }
    if st.bulk.is_none() {
        return over;
    }
    st.undo.undoing = Some(id);
    if st.undo.offer.is_some_and(|o| o.entry == id) {
        st.undo.offer = None;
    }
    if let Some(why) = why.filter(|_| cannot > 0) {
        out.toast(ToastKind::Info, format!("undoing; {cannot} cannot be undone: {why}"));
    }
    over
}
