//! The registry: where a feature slice plugs into the root, in two files.
//!
//! This one holds what the root's types name and what needs no model: a
//! slice's state (a field of [`Slices`]), its message and effect (a variant
//! of [`SliceMsg`] and [`SliceEffect`]), how its effects run, what a paste
//! does to its picker, and what it draws above the panes. It imports only
//! the slices and `shared`, so the model, `Msg` and `Effect` can name it
//! without a circle. `update/slices.rs` holds the rest: routing its
//! messages, the keys its screen takes, the inbox's actions it answers,
//! the tick and start-up. Adding a slice means its folder, its `mod` line
//! in `tui/mod.rs`, its rows in these two files, and its keys in `keymap/`.

use ratatui::Frame;

use crate::tui::shared::ViewCx;
use crate::tui::shared::layout::Areas;
use crate::tui::{hub, notify, reports, snooze};

/// Every registered slice's state.
#[derive(Debug, Default)]
pub struct Slices {
    /// The Reports screen (`S`).
    pub reports: reports::State,
    /// Snoozed conversations and the picker (`z`).
    pub snooze: snooze::State,
    /// Notifications (`B` snoozes them) and replies to closed conversations.
    pub notify: notify::State,
    /// This agent's presence as told to the team's hub.
    pub hub: hub::State,
}

/// What a registered slice's effects answer.
#[derive(Debug, Clone)]
pub enum SliceMsg {
    Reports(reports::ReportsMsg),
    Snooze(snooze::SnoozeMsg),
    Notify(notify::NotifyMsg),
}

/// A registered slice's request.
#[derive(Debug, Clone, PartialEq)]
pub enum SliceEffect {
    Reports(reports::ReportsEffect),
    Snooze(snooze::SnoozeEffect),
    Notify(notify::NotifyEffect),
}

impl SliceEffect {
    /// Whether it talks to the service (the index's background sync waits
    /// while the agent's own requests run); local work does not.
    pub fn network(&self) -> bool {
        match self {
            SliceEffect::Reports(_) | SliceEffect::Snooze(_) | SliceEffect::Notify(_) => false,
        }
    }
}

/// Runs one of a slice's effects; its answer comes back as a `SliceMsg`.
pub async fn perform(index: Option<crate::index::SharedIndex>, effect: SliceEffect) -> SliceMsg {
    match effect {
        SliceEffect::Reports(e) => SliceMsg::Reports(reports::perform(index, e).await),
        SliceEffect::Snooze(e) => SliceMsg::Snooze(snooze::perform(e).await),
        SliceEffect::Notify(e) => SliceMsg::Notify(notify::perform(e).await),
    }
}

/// Text pasted while a slice's picker shows: `true` when one took it.
pub fn paste(slices: &mut Slices, text: &str) -> bool {
    snooze::paste(&mut slices.snooze, text)
}

/// Draws the slices' screens above the panes (and under the toast and the
/// status line); `a` is where the panes are.
pub fn render(slices: &Slices, vcx: &ViewCx, frame: &mut Frame, a: &Areas) {
    if slices.reports.open {
        let mut r = frame.area();
        // Above the toast, when one shows, so neither covers the other.
        r.height = a.toast.map_or(a.status.y, |t| t.y).saturating_sub(r.y);
        reports::render(&slices.reports, vcx, frame, r);
    }
    snooze::render(&slices.snooze, vcx, frame, frame.area());
    notify::render(&slices.notify, vcx, frame, frame.area());
}
