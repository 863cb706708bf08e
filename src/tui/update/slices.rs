//! The registry's routing (see `tui/slices.rs`): a registered slice's
//! messages, the keys its screen takes, the inbox's actions it answers,
//! the tick and start-up, each called through `call!` with its `Cx`.

use crossterm::event::KeyEvent;

use super::call::call;
use crate::tui::effect::Effect;
use crate::tui::keymap::Action;
use crate::tui::model::Model;
use crate::tui::slices::{SliceEffect, SliceMsg};
use crate::tui::{reports, snooze};

fn reports_fx(e: reports::ReportsEffect) -> Effect {
    Effect::Slice(SliceEffect::Reports(e))
}

fn snooze_fx(e: snooze::SnoozeEffect) -> Effect {
    Effect::Slice(SliceEffect::Snooze(e))
}

/// An answer to one of a slice's effects.
pub(crate) fn on_msg(model: &mut Model, msg: SliceMsg, fx: &mut Vec<Effect>) {
    match msg {
        SliceMsg::Reports(m) => reports::on_msg(&mut model.slices.reports, m),
        SliceMsg::Snooze(m) => call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::on_msg(
            st, cx, out, m
        )),
    }
}

/// A key while a slice's screen or picker is open: `true` when it took the
/// key (else the inbox's keys go on).
pub(crate) fn key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) -> bool {
    if model.slices.snooze.picker.is_some() {
        return call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::key(
            st, cx, out, key
        ));
    }
    if model.slices.reports.open {
        return call!(model, fx, slices.reports, reports_fx, |st, cx, out| reports::key(
            st, cx, out, key
        ));
    }
    false
}

/// One of the inbox's keymap actions that a slice answers: `true` when
/// one did.
pub(crate) fn action(model: &mut Model, action: Action, fx: &mut Vec<Effect>) -> bool {
    match action {
        Action::Reports => call!(model, fx, slices.reports, reports_fx, |st, cx, out| reports::open(
            st, cx, out
        )),
        Action::Snooze => call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::open(
            st, cx, out
        )),
        _ => return false,
    }
    true
}

/// Time passed (every `Msg::Tick`): a slice's timers come due.
pub(crate) fn tick(model: &mut Model, fx: &mut Vec<Effect>) {
    // The composer (not a registered slice) looks whether another process
    // wrote a draft.
    if model.compose.kept.check_due(model.now) {
        call!(model, fx, compose, Effect::Compose, |st, cx, out| {
            crate::tui::compose::tick(st, cx, out)
        });
    }
    // Nothing asleep or marked, and no look at the kept file due: no
    // context to build on every tick.
    let snooze = &model.slices.snooze;
    if snooze.is_idle() && !snooze.check_due(model.now) {
        return;
    }
    call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::tick(
        st, cx, out
    ));
}

/// Once at start, after the config is read: a slice loads what it keeps
/// and adds its views.
pub(crate) fn startup(model: &mut Model, fx: &mut Vec<Effect>) {
    if !model.views.all.iter().any(|v| v.is_named(&snooze::view().name)) {
        model.views.push(snooze::view());
    }
    call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::startup(
        st, cx, out
    ));
}

/// A macro's `snooze WHEN` on `uuid` (the snooze slice keeps it); why not.
pub(crate) fn snooze_until(
    model: &mut Model,
    uuid: &str,
    name: &str,
    when: &str,
    fx: &mut Vec<Effect>,
) -> Result<(), String> {
    call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::snooze_until(
        st, cx, out, uuid, name, when
    ))
}
