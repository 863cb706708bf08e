//! Opening the screen, its keys, and the computed report arriving.

use crossterm::event::KeyEvent;

use super::fx::ReportsEffect;
use super::msg::ReportsMsg;
use super::state::{Reports, SPANS};
use crate::tui::keymap::{Action, Mode, ModeAction as M};
use crate::tui::shared::{Cx, Out};

type O<'a> = Out<'a, ReportsEffect>;

/// Shows the screen and computes its report.
pub fn open(st: &mut Reports, cx: &Cx, out: &mut O) {
    st.open = true;
    compute(st, cx, out);
}

/// Asks for the report of the period and grouping now set; the last one
/// stays on screen until it arrives.
fn compute(st: &mut Reports, cx: &Cx, out: &mut O) {
    let id = out.id();
    st.loading = Some(id);
    st.error = None;
    out.fx(ReportsEffect::Compute {
        id,
        days: st.days(),
        by: st.by,
        now: cx.now,
        hub: cx.session.hub.clone().map(super::fx::Team),
    });
}

/// A key while the screen is open. `false`: not the screen's (help, the
/// palette and redraw go on to the inbox's keys); every other key is
/// taken, so nothing behind the screen acts on a contact unseen. Changing
/// the period or grouping computes the report again (so does `p` round to
/// the same period).
pub fn key(st: &mut Reports, cx: &Cx, out: &mut O, key: KeyEvent) -> bool {
    let Some(action) = cx.keys.mode_action_for(Mode::Reports, &key) else {
        return match cx.keys.action_for(&key) {
            // As in help: the inbox's cancel and quit close the screen,
            // and so does the key that opened it.
            Some(Action::Cancel | Action::Quit | Action::Reports) => {
                st.open = false;
                true
            }
            Some(Action::Help | Action::Palette | Action::Redraw) => false,
            _ => true,
        };
    };
    let groups = st.report.as_ref().map_or(1, |r| r.groups.len().max(1));
    match action {
        M::Down => st.group = (st.group + 1).min(groups - 1),
        M::Up => st.group = st.group.saturating_sub(1),
        M::NextPeriod => {
            st.span = (st.span + 1) % SPANS.len();
            compute(st, cx, out);
        }
        M::NextGrouping => {
            st.by = Reports::next_by(st.by);
            st.group = 0;
            compute(st, cx, out);
        }
        _ => {}
    }
    true
}

/// The computed report (or why there is none). A stale answer (the period
/// or grouping changed since) is dropped.
pub fn on_msg(st: &mut Reports, msg: ReportsMsg) {
    let ReportsMsg::Computed { id, result } = msg;
    if st.loading != Some(id) {
        return;
    }
    st.loading = None;
    match result {
        Ok(report) => {
            st.group = st.group.min(report.groups.len().saturating_sub(1));
            st.report = Some(report);
        }
        Err(e) => st.error = Some(crate::text::sanitize_line(&e)),
    }
}
