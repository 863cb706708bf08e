//! `z`, the picker's keys, and conversations waking up.

use chrono::Duration;
use crossterm::event::KeyCode;

use super::*;
use crate::snooze::Until;
use crate::tui::snooze::{BACK, SNOOZED};

#[test]
fn a_preset_snoozes_the_selected_conversation_out_of_the_work_views() {
    let mut m = started(Default::default());
    let uuid = selected(&m);
    let (open, mine, all) = (count(&m, "Open"), count(&m, "Mine"), count(&m, "All"));
    assert_eq!(held(&m, "Snoozed"), 0);
    update(&mut m, key('z'));
    assert!(m.slices.snooze.picker.is_some(), "z asks until when");
    // ↓ to "tonight", ↑ back to "1 hour", Enter.
    update(&mut m, code(KeyCode::Down));
    update(&mut m, code(KeyCode::Up));
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(m.slices.snooze.picker.is_none());
    let kept = saved(&fx).expect("the snooze is written down");
    assert_eq!(kept.asleep[&uuid].until, Until::At(now() + Duration::hours(1)));
    assert!(m.badges.has(&uuid, SNOOZED.name));
    assert_eq!(count(&m, "Open"), open - 1, "it leaves Open");
    assert_eq!(count(&m, "Mine"), mine - 1, "and Mine");
    assert_eq!(count(&m, "All"), all, "All still has it");
    assert_eq!(held(&m, "Snoozed"), 1);
    let toast = m.status.current().map(|t| t.text.clone()).unwrap_or_default();
    assert!(toast.contains("snoozed") && toast.contains("z wakes it"), "{toast}");
}

#[test]
fn a_typed_time_snoozes_and_a_wrong_one_says_why_and_keeps_the_text() {
    let mut m = started(Default::default());
    let uuid = selected(&m);
    update(&mut m, key('z'));
    type_in(&mut m, "fri 25:00");
    update(&mut m, code(KeyCode::Enter));
    let p = m.slices.snooze.picker.as_ref().expect("the picker stays open");
    assert_eq!(p.text, "fri 25:00", "nothing typed is lost");
    assert!(
        p.error.as_deref().is_some_and(|e| e.contains("25:00")),
        "it says why: {:?}",
        p.error
    );
    for _ in 0..5 {
        update(&mut m, code(KeyCode::Backspace));
    }
    type_in(&mut m, "14:00");
    // q and j are text here: nothing behind the picker acts.
    type_in(&mut m, "qj");
    assert!(!m.quit);
    update(&mut m, code(KeyCode::Backspace));
    update(&mut m, code(KeyCode::Backspace));
    let fx = update(&mut m, code(KeyCode::Enter));
    let until = saved(&fx).unwrap().asleep[&uuid].until;
    // now() is Friday 2026-11-20 15:30 UTC: the next Friday 14:00.
    assert_eq!(until, Until::At(now() + Duration::days(7) - Duration::minutes(90)));
}

#[test]
fn esc_closes_the_picker_and_snoozes_nothing() {
    let mut m = started(Default::default());
    update(&mut m, key('z'));
    type_in(&mut m, "3d");
    let fx = update(&mut m, code(KeyCode::Esc));
    assert!(m.slices.snooze.picker.is_none());
    assert!(saved(&fx).is_none() && m.slices.snooze.asleep.is_empty());
}

#[test]
fn it_comes_back_marked_when_its_time_comes_and_the_mark_goes_once_opened() {
    let mut m = started(Default::default());
    let uuid = selected(&m);
    update(&mut m, key('z'));
    update(&mut m, code(KeyCode::Enter));
    // Another contact is open meanwhile.
    m.thread.contact = Some("elsewhere".into());
    let open = count(&m, "Open");
    update(&mut m, Msg::Tick(now() + Duration::minutes(59)));
    assert!(m.badges.has(&uuid, SNOOZED.name), "not yet");
    let fx = update(&mut m, Msg::Tick(now() + Duration::minutes(61)));
    assert!(!m.badges.has(&uuid, SNOOZED.name) && m.badges.has(&uuid, BACK.name));
    assert_eq!(count(&m, "Open"), open + 1, "back in Open");
    assert!(saved(&fx).unwrap().back.contains(&uuid));
    let toast = m.status.current().map(|t| t.text.clone()).unwrap_or_default();
    assert!(toast.contains("is back (its time came)"), "{toast}");
    m.thread.contact = Some(uuid.clone());
    update(&mut m, Msg::Tick(now() + Duration::minutes(62)));
    assert!(!m.badges.has(&uuid, BACK.name), "opened: no longer marked");
}

/// The index brings contact 0 with a message at `at`, written by `who`.
fn message(m: &mut Model, at: chrono::DateTime<chrono::Utc>, who: crate::index::Who) {
    use crate::tui::msg::index::IndexMsg;
    let mut c = contact(0);
    c.activity_at = Some(at);
    let generation = m.list.paging.generation;
    m.sync.loading = Some(generation);
    let uuid = c.uuid.clone();
    let activity = c.last_activity();
    update(
        m,
        Msg::Index(IndexMsg::Loaded {
            generation,
            contacts: vec![c],
            done: false,
        }),
    );
    let p = crate::index::Preview {
        who: Some(who),
        text: "hello".into(),
        at: Some(at),
        activity,
        wait: Default::default(),
    };
    update(m, Msg::Index(IndexMsg::Previews(vec![(uuid, p)])));
}

#[test]
fn the_customer_writing_wakes_it_and_our_own_message_does_not() {
    use crate::index::Who;
    let mut m = started(Default::default());
    let uuid = selected(&m);
    assert_eq!(uuid, contact(0).uuid);
    update(&mut m, key('z'));
    type_in(&mut m, "reply");
    update(&mut m, code(KeyCode::Enter));
    assert!(m.badges.has(&uuid, SNOOZED.name));
    update(&mut m, Msg::Tick(now() + Duration::days(3)));
    assert!(
        m.badges.has(&uuid, SNOOZED.name),
        "until they reply: time alone does not wake it"
    );
    // The bot (or a colleague) answers: still asleep.
    message(&mut m, now() + Duration::days(3), Who::Agent);
    update(&mut m, Msg::Tick(now() + Duration::days(3) + Duration::seconds(1)));
    assert!(m.badges.has(&uuid, SNOOZED.name), "our own message does not wake it");
    // The customer writes.
    message(&mut m, now() + Duration::days(4), Who::Customer);
    update(&mut m, Msg::Tick(now() + Duration::days(4) + Duration::seconds(1)));
    assert!(!m.badges.has(&uuid, SNOOZED.name), "their message wakes it");
    let toast = m.status.current().map(|t| t.text.clone()).unwrap_or_default();
    assert!(toast.contains("is back (they wrote)"), "{toast}");
}

#[test]
fn z_on_a_sleeping_conversation_wakes_it() {
    let mut m = started(Default::default());
    let uuid = selected(&m);
    update(&mut m, key('z'));
    update(&mut m, code(KeyCode::Enter));
    // Snoozed leaves the views the list shows; All keeps it selectable.
    let all = m.views.all.iter().position(|v| v.name == "All").unwrap();
    crate::tui::update::views::switch(&mut m, all, &mut Vec::new());
    crate::tui::update::views::select(&mut m, &uuid, &mut Vec::new());
    let fx = update(&mut m, key('z'));
    assert!(m.slices.snooze.picker.is_none(), "no picker: it wakes");
    assert!(!m.badges.has(&uuid, SNOOZED.name));
    assert!(saved(&fx).unwrap().asleep.is_empty());
}

#[test]
fn kept_snoozes_come_back_at_start_and_what_came_due_meanwhile_wakes() {
    let asleep = |until| super::super::state::Entry {
        until,
        since: now(),
        name: "Somebody".into(),
        by: None,
    };
    let (a, b) = (contact(2).uuid, contact(3).uuid);
    let kept = super::super::state::Kept {
        asleep: [
            (a.clone(), asleep(Until::At(now() + Duration::hours(1)))),
            (b.clone(), asleep(Until::At(now() - Duration::hours(1)))),
        ]
        .into(),
        back: Default::default(),
    };
    let m = started(kept);
    assert!(m.badges.has(&a, SNOOZED.name), "still asleep");
    assert!(m.badges.has(&b, BACK.name), "its time came while frontdesk was closed");
    assert_eq!(held(&m, "Snoozed"), 1);
}

#[test]
fn before_the_kept_ones_are_read_nothing_is_written_over_them() {
    let mut m = indexed_model(10, 120, 30);
    let _ = crate::tui::update::startup(&mut m);
    update(&mut m, key('z'));
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(saved(&fx).is_none(), "the file is not read yet");
    let toast = m.status.current().map(|t| t.text.clone()).unwrap_or_default();
    assert!(toast.contains("this session only"), "{toast}");
    // The kept ones arrive: both are kept, and written once.
    let kept = super::super::state::Kept {
        asleep: [(
            contact(5).uuid,
            super::super::state::Entry {
                until: Until::Reply,
                since: now(),
                name: "x".into(),
                by: None,
            },
        )]
        .into(),
        back: Default::default(),
    };
    let fx = update(&mut m, Msg::Slice(SliceMsg::Snooze(SnoozeMsg::Loaded(Ok(kept)))));
    assert_eq!(saved(&fx).unwrap().asleep.len(), 2);
}
