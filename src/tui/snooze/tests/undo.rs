//! `u` right after a snooze takes it back; after a newer write, or once
//! its window passed, `u` is not the snooze's.

use chrono::Duration;
use crossterm::event::KeyCode;

use super::*;
use crate::tui::snooze::{BACK, SNOOZED};

fn snooze_selected(m: &mut Model) -> String {
    let uuid = selected(m);
    update(m, key('z'));
    update(m, code(KeyCode::Enter));
    assert!(m.badges.has(&uuid, SNOOZED.name));
    uuid
}

#[test]
fn u_right_after_a_snooze_takes_it_back_and_keeps_that() {
    let mut m = started(Default::default());
    let open = count(&m, "Open");
    let uuid = snooze_selected(&mut m);
    assert_eq!(count(&m, "Open"), open - 1);
    let fx = update(&mut m, key('u'));
    assert!(!m.badges.has(&uuid, SNOOZED.name), "awake again");
    assert!(!m.badges.has(&uuid, BACK.name), "not marked back: it never left");
    assert_eq!(count(&m, "Open"), open, "back in Open");
    let kept = saved(&fx).expect("the undo is written down");
    assert!(!kept.asleep.contains_key(&uuid));
    let toast = m.status.current().map(|t| t.text.clone()).unwrap_or_default();
    assert!(toast.starts_with("snooze undone: "), "{toast}");
    assert!(fx.iter().all(|e| !matches!(e, Effect::Apply { .. })), "no write undone");
}

#[test]
fn u_is_not_the_snoozes_after_its_window_or_a_newer_write() {
    let mut m = started(Default::default());
    let uuid = snooze_selected(&mut m);
    update(&mut m, Msg::Tick(now() + Duration::seconds(11)));
    update(&mut m, key('u'));
    assert!(m.badges.has(&uuid, SNOOZED.name), "11 s later it stays asleep");

    // A close after the snooze: `u` takes back the close, not the snooze.
    let mut m = started(Default::default());
    let uuid = snooze_selected(&mut m);
    update(&mut m, Msg::Tick(now() + Duration::seconds(1)));
    update(&mut m, key('j'));
    let closed = m.list.selected_contact().unwrap();
    let fx = update(&mut m, key('c'));
    let (id, cuuid) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Apply { id, uuid, .. } => Some((*id, uuid.clone())),
            _ => None,
        })
        .expect("a close");
    let mut after = closed.clone();
    after.closed_at = Some(now());
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: cuuid,
            answer: crate::tui::act::Answer::ok(after),
        },
    );
    let fx = update(&mut m, key('u'));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Apply { uuid, .. } if *uuid == closed.uuid)),
        "u reopens the closed one"
    );
    assert!(m.badges.has(&uuid, SNOOZED.name), "the snooze stays");
}
