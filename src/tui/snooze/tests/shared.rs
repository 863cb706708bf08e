//! The kept file written by another process while the app runs
//! (`frontdesk mcp`, another frontdesk): the clock finds it changed, its
//! snoozes badge their rows, its wakes wake, and the app's own writes keep
//! what the other wrote.

use chrono::Duration;
use crossterm::event::KeyCode;

use super::*;
use crate::snooze::Until;
use crate::snooze::store::{self, Entry, file_in};
use crate::tui::snooze::SNOOZED;
use crate::tui::snooze::fx::perform_in;

/// The effects' file checks, run against `dir`, answered into `m`.
fn answer(m: &mut Model, dir: &std::path::Path, fx: Vec<Effect>) -> Vec<Effect> {
    let mut more = Vec::new();
    for e in fx {
        if let Effect::Slice(SliceEffect::Snooze(e)) = e {
            let msg = perform_in(dir, e);
            more.extend(update(m, Msg::Slice(SliceMsg::Snooze(msg))));
        }
    }
    more
}

/// The assistant snoozes `uuid` in the file, as `frontdesk mcp` does.
fn assistant_snoozes(dir: &std::path::Path, uuid: &str) {
    store::update(&file_in(dir, "demo account"), |k| {
        k.asleep.insert(
            uuid.to_string(),
            Entry {
                until: Until::At(now() + Duration::hours(2)),
                since: now(),
                name: "From the file".into(),
                by: Some("assistant".into()),
            },
        );
    })
    .unwrap();
}

#[test]
fn a_snooze_written_by_another_process_shows_after_the_tick() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = started(Default::default());
    let uuid = contact(4).uuid;
    assert!(!m.badges.has(&uuid, SNOOZED.name));
    // The first look reads the file as it is (nothing yet).
    let fx = update(&mut m, Msg::Tick(now() + Duration::seconds(1)));
    answer(&mut m, dir.path(), fx);

    assistant_snoozes(dir.path(), &uuid);
    // Before the next look is due, nothing is read.
    let fx = update(&mut m, Msg::Tick(now() + Duration::seconds(2)));
    assert!(answer(&mut m, dir.path(), fx).is_empty());
    assert!(!m.badges.has(&uuid, SNOOZED.name));
    let fx = update(&mut m, Msg::Tick(now() + Duration::seconds(5)));
    answer(&mut m, dir.path(), fx);
    assert!(m.badges.has(&uuid, SNOOZED.name), "the row says asleep");
    assert_eq!(held(&m, "Snoozed"), 1);
    let toast = m.status.current().map(|t| t.text.clone()).unwrap_or_default();
    assert!(
        toast.contains("assistant snoozed") && toast.contains(&contact(4).name),
        "{toast}"
    );

    // The agent snoozes another here: the file keeps both.
    let mine = selected(&m);
    update(&mut m, key('z'));
    let fx = update(&mut m, code(KeyCode::Enter));
    answer(&mut m, dir.path(), fx);
    let kept = store::load(&file_in(dir.path(), "demo account")).unwrap();
    assert!(
        kept.asleep.contains_key(&uuid) && kept.asleep.contains_key(&mine),
        "{kept:?}"
    );

    // The other process wakes it: it wakes here too.
    store::update(&file_in(dir.path(), "demo account"), |k| k.asleep.remove(&uuid)).unwrap();
    let fx = update(&mut m, Msg::Tick(now() + Duration::seconds(9)));
    answer(&mut m, dir.path(), fx);
    assert!(!m.badges.has(&uuid, SNOOZED.name));
    assert!(m.badges.has(&mine, SNOOZED.name), "ours still sleeps");
}

#[test]
fn a_file_read_while_our_write_is_under_way_is_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = started(Default::default());
    let mine = selected(&m);
    update(&mut m, key('z'));
    let theirs = contact(4).uuid;
    assistant_snoozes(dir.path(), &theirs);
    // The write is asked for, not done yet; a look reads the file without it.
    let written = update(&mut m, code(KeyCode::Enter));
    let look = update(&mut m, Msg::Tick(now() + Duration::seconds(5)));
    answer(&mut m, dir.path(), look);
    assert!(
        m.badges.has(&mine, SNOOZED.name),
        "the file without our write does not wake it"
    );
    answer(&mut m, dir.path(), written);
    let fx = update(&mut m, Msg::Tick(now() + Duration::seconds(10)));
    answer(&mut m, dir.path(), fx);
    assert!(m.badges.has(&mine, SNOOZED.name));
    assert!(m.badges.has(&theirs, SNOOZED.name), "read again, with both");
}
