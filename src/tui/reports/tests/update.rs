//! The Reports screen's transitions, through the root's update.

use crossterm::event::KeyCode;

use super::{now, report};
use crate::report::GroupBy;
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::{Model, Overlay};
use crate::tui::msg::Msg;
use crate::tui::reports::{ReportsEffect, ReportsMsg};
use crate::tui::update::update;

/// The one report computation among `fx`: (id, days, grouping).
fn asked(fx: &[Effect]) -> (u64, i64, Option<GroupBy>) {
    let asks: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Slice(crate::tui::slices::SliceEffect::Reports(ReportsEffect::Compute {
                id, days, by, ..
            })) => Some((*id, *days, *by)),
            _ => None,
        })
        .collect();
    assert_eq!(asks.len(), 1, "{fx:?}");
    asks[0]
}

fn opened() -> (Model, u64) {
    let mut m = model_with(5, 80, 24);
    m.now = now();
    let fx = update(&mut m, key('S'));
    assert!(m.slices.reports.open);
    let (id, days, by) = asked(&fx);
    assert_eq!((days, by), (7, None), "a week of all conversations first");
    (m, id)
}

fn answer(m: &mut Model, id: u64, days: i64, by: Option<GroupBy>) {
    update(
        m,
        Msg::Slice(crate::tui::slices::SliceMsg::Reports(ReportsMsg::Computed {
            id,
            result: Ok(report(days, by)),
        })),
    );
}

#[test]
fn s_opens_the_screen_and_the_period_and_grouping_keys_recompute() {
    let (mut m, id) = opened();
    answer(&mut m, id, 7, None);
    assert!(m.slices.reports.loading.is_none());
    assert_eq!(m.slices.reports.report.as_ref().map(|r| r.groups.len()), Some(1));

    let (id, days, by) = asked(&update(&mut m, key('p')));
    assert_eq!((days, by), (14, None));
    answer(&mut m, id, 14, None);

    let (id, days, by) = asked(&update(&mut m, key('g')));
    assert_eq!((days, by), (14, Some(GroupBy::Agent)));
    answer(&mut m, id, 14, Some(GroupBy::Agent));
    let names: Vec<&str> = m
        .slices
        .reports
        .report
        .as_ref()
        .unwrap()
        .groups
        .iter()
        .map(|g| g.group.as_str())
        .collect();
    assert_eq!(names, ["all", "ann@example.com", "bo@example.com"]);

    update(&mut m, key('j'));
    update(&mut m, key('j'));
    update(&mut m, key('j'));
    assert_eq!(m.slices.reports.group, 2, "j stops at the last group");
    update(&mut m, key('k'));
    assert_eq!(m.slices.reports.group, 1);

    let (_, days, _) = asked(&update(&mut m, key('p')));
    assert_eq!(days, 30);
    let (_, _, by) = asked(&update(&mut m, key('g')));
    assert_eq!(by, Some(GroupBy::Team));
    assert_eq!(m.slices.reports.group, 0, "a new grouping starts at all");
}

#[test]
fn an_answer_for_an_older_setting_is_dropped() {
    let (mut m, first) = opened();
    let (second, _, _) = asked(&update(&mut m, key('p')));
    answer(&mut m, first, 7, None);
    assert!(
        m.slices.reports.report.is_none(),
        "the 7-day answer came after p asked for 14"
    );
    assert_eq!(m.slices.reports.loading, Some(second));
    answer(&mut m, second, 14, None);
    assert_eq!(
        m.slices.reports.report.as_ref().map(|r| r.period.to - r.period.from),
        Some(chrono::Duration::days(14))
    );
}

#[test]
fn inbox_keys_do_not_act_behind_the_screen_but_help_and_quit_do() {
    let (mut m, id) = opened();
    answer(&mut m, id, 7, None);
    let before = m.list.selected_row().map(|r| (r.uuid.clone(), r.closed_at));
    for c in ['c', 'x', 'e', 'a', ' '] {
        let fx = update(&mut m, key(c));
        assert!(fx.is_empty(), "{c} acted behind the screen: {fx:?}");
    }
    assert_eq!(m.list.selected_row().map(|r| (r.uuid.clone(), r.closed_at)), before);
    assert!(m.marks.is_empty());
    update(&mut m, key('?'));
    assert!(matches!(m.overlay, Some(Overlay::Help { .. })), "{:?}", m.overlay);
    m.overlay = None;
    update(&mut m, code(KeyCode::Esc));
    assert!(!m.slices.reports.open, "Esc closes the screen");
    update(&mut m, key('S'));
    update(&mut m, key('q'));
    assert!(!m.slices.reports.open && !m.quit, "q closes the screen, not the app");
    update(&mut m, key('S'));
    update(&mut m, key('S'));
    assert!(!m.slices.reports.open, "S closes it again");
}

#[test]
fn a_failure_is_said_inertly_and_the_next_computation_clears_it() {
    let (mut m, id) = opened();
    update(
        &mut m,
        Msg::Slice(crate::tui::slices::SliceMsg::Reports(ReportsMsg::Computed {
            id,
            result: Err("cannot read the index: \u{1b}]0;pwned\u{7}".into()),
        })),
    );
    let e = m.slices.reports.error.clone().unwrap();
    assert!(!e.contains('\u{1b}') && !e.contains('\u{7}'), "{e:?}");
    let (_, days, _) = asked(&update(&mut m, key('p')));
    assert_eq!(days, 14);
    assert!(
        m.slices.reports.error.is_none(),
        "a new computation clears the old failure"
    );
}
