//! The registry: the one root file where a feature slice plugs in.
//!
//! A slice that has a screen or an overlay of its own, its own requests
//! and its own keymap actions is wired here and nowhere else in the root:
//! its state (a field of [`Slices`]), its message and effect (a variant of
//! [`SliceMsg`] and [`SliceEffect`]), the keys its screen takes, the
//! inbox's actions it answers, what it does as time passes and at start,
//! how its effects run and what it draws above the panes. Adding one means
//! its folder, its `mod` line in `tui/mod.rs`, its rows here, and its keys
//! in `keymap/` (plus, for a view of the work, the view in `triage`).

use crossterm::event::KeyEvent;
use ratatui::Frame;

use crate::tui::effect::Effect;
use crate::tui::keymap::Action;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::shared::layout::Areas;
use crate::tui::theme::Theme;
use crate::tui::update::call::call;
use crate::tui::{reports, snooze};

/// Every registered slice's state.
#[derive(Debug, Default)]
pub struct Slices {
    /// The Reports screen (`S`).
    pub reports: reports::State,
    /// Snoozed conversations and the picker (`z`).
    pub snooze: snooze::State,
}

/// What a registered slice's effects answer.
#[derive(Debug, Clone)]
pub enum SliceMsg {
    Reports(reports::ReportsMsg),
    Snooze(snooze::SnoozeMsg),
}

/// A registered slice's request.
#[derive(Debug, Clone, PartialEq)]
pub enum SliceEffect {
    Reports(reports::ReportsEffect),
    Snooze(snooze::SnoozeEffect),
}

impl SliceEffect {
    /// Whether it talks to the service (the index's background sync waits
    /// while the agent's own requests run); local work does not.
    pub fn network(&self) -> bool {
        match self {
            SliceEffect::Reports(_) | SliceEffect::Snooze(_) => false,
        }
    }
}

fn reports_fx(e: reports::ReportsEffect) -> Effect {
    Effect::Slice(SliceEffect::Reports(e))
}

fn snooze_fx(e: snooze::SnoozeEffect) -> Effect {
    Effect::Slice(SliceEffect::Snooze(e))
}

/// An answer to one of a slice's effects.
pub fn on_msg(model: &mut Model, msg: SliceMsg, fx: &mut Vec<Effect>) {
    match msg {
        SliceMsg::Reports(m) => reports::on_msg(&mut model.slices.reports, m),
        SliceMsg::Snooze(m) => call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::on_msg(
            st, cx, out, m
        )),
    }
}

/// A key while a slice's screen or overlay is open: `true` when it took
/// the key (else the inbox's keys go on).
pub fn key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) -> bool {
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

/// Text pasted while a slice's picker shows: `true` when one took it.
pub fn paste(model: &mut Model, text: &str) -> bool {
    snooze::paste(&mut model.slices.snooze, text)
}

/// One of the inbox's keymap actions that a slice answers: `true` when
/// one did.
pub fn action(model: &mut Model, action: Action, fx: &mut Vec<Effect>) -> bool {
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
pub fn tick(model: &mut Model, fx: &mut Vec<Effect>) {
    call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::tick(
        st, cx, out
    ));
}

/// Once at start, after the config is read: a slice loads what it keeps
/// and adds its views.
pub fn startup(model: &mut Model, fx: &mut Vec<Effect>) {
    if !model.views.all.iter().any(|v| v.is_named(&snooze::view().name)) {
        model.views.push(snooze::view());
    }
    call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::startup(
        st, cx, out
    ));
}

/// Draws the slices' screens above the panes (and under the toast and the
/// status line).
pub fn render(model: &Model, frame: &mut Frame, theme: &Theme, a: &Areas) {
    if model.slices.reports.open {
        let mut r = frame.area();
        // Above the toast, when one shows, so neither covers the other.
        r.height = a.toast.map_or(a.status.y, |t| t.y).saturating_sub(r.y);
        reports::render(&model.slices.reports, &model.vcx(theme), frame, r);
    }
    snooze::render(&model.slices.snooze, &model.vcx(theme), frame, frame.area());
}

/// Runs one of a slice's effects; its answer comes back as a `Msg`.
pub async fn perform(index: Option<crate::index::SharedIndex>, effect: SliceEffect) -> Option<Msg> {
    Some(Msg::Slice(match effect {
        SliceEffect::Reports(e) => SliceMsg::Reports(reports::perform(index, e).await),
        SliceEffect::Snooze(e) => SliceMsg::Snooze(snooze::perform(e).await),
    }))
}
