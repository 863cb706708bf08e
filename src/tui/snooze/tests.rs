//! Snooze through the root's update (as keys reach it), its picker drawn,
//! and the snoozes kept on disk.

mod keep;
mod shared;
mod undo;
mod update;
mod view;

use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::slices::{SliceEffect, SliceMsg};
use crate::tui::snooze::{SnoozeEffect, SnoozeMsg};
use crate::tui::update::update;

/// A complete index of 10 contacts for the agent, started as the app
/// starts (the Snoozed view added, the kept snoozes asked for), with
/// `kept` as what the disk holds.
fn started(kept: super::state::Kept) -> Model {
    let mut m = indexed_model(10, 120, 30);
    m.views = crate::tui::inbox::views::Views::new(Vec::new(), Some("agent@example.test".into()));
    let fx = crate::tui::update::startup(&mut m);
    let account = fx
        .iter()
        .find_map(|e| match e {
            Effect::Slice(SliceEffect::Snooze(SnoozeEffect::Load { account })) => Some(account.clone()),
            _ => None,
        })
        .expect("start-up reads the kept snoozes");
    assert_eq!(account, "demo account");
    update(&mut m, Msg::Slice(SliceMsg::Snooze(SnoozeMsg::Loaded(Ok(kept)))));
    update(&mut m, Msg::Tick(now()));
    m
}

/// The snoozes written by `fx`, if any.
fn saved(fx: &[Effect]) -> Option<super::state::Kept> {
    fx.iter().find_map(|e| match e {
        Effect::Slice(SliceEffect::Snooze(SnoozeEffect::Save { kept, .. })) => Some(kept.clone()),
        _ => None,
    })
}

/// The count on view `name`'s tab.
fn count(m: &Model, name: &str) -> usize {
    let i = m.views.all.iter().position(|v| v.name == name).unwrap();
    m.views.counts[i].n
}

/// How many loaded contacts view `name` holds (a tab off the strip is
/// not counted until it shows).
fn held(m: &Model, name: &str) -> usize {
    let v = m.views.all.iter().find(|v| v.name == name).unwrap();
    let me = m.views.me.as_deref();
    m.list
        .store
        .iter()
        .filter(|r| {
            let f = crate::tui::inbox::views::RowFacts::badged(r, &m.badges);
            v.filter.matches(&f, me, m.now)
        })
        .count()
}

fn selected(m: &Model) -> String {
    m.list.selected_uuid().unwrap()
}

/// Types `text` into whatever has the keys.
fn type_in(m: &mut Model, text: &str) -> Vec<Effect> {
    text.chars().flat_map(|c| update(m, key(c))).collect()
}
