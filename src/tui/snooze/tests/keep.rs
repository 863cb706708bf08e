//! Snoozes on disk: a round trip, the file's mode, a damaged file.

use chrono::Duration;

use super::*;
use crate::snooze::Until;
use crate::tui::snooze::fx::perform_in;
use crate::tui::snooze::state::{Entry, Kept};
use crate::tui::snooze::{SnoozeEffect, SnoozeMsg};

fn kept() -> Kept {
    Kept {
        asleep: [(
            "c1".to_string(),
            Entry {
                until: Until::At(now() + Duration::hours(3)),
                since: now(),
                name: "\u{1b}]0;x\u{7}Ana".into(),
                by: None,
            },
        )]
        .into(),
        back: ["c2".to_string()].into(),
    }
}

#[test]
fn what_is_saved_is_what_loads_and_only_the_agent_can_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let save = SnoozeEffect::Save {
        account: "work".into(),
        kept: kept(),
        contacts: ["c1".into(), "c2".into()].into(),
    };
    assert_eq!(perform_in(dir.path(), save), SnoozeMsg::Saved(Ok(())));
    let load = |account: &str| {
        perform_in(
            dir.path(),
            SnoozeEffect::Load {
                account: account.into(),
            },
        )
    };
    assert_eq!(load("work"), SnoozeMsg::Loaded(Ok(kept())));
    assert_eq!(load("other"), SnoozeMsg::Loaded(Ok(Kept::default())), "per account");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let file = crate::tui::snooze::fx::file_in(dir.path(), "work");
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
        let d = file.parent().unwrap();
        assert_eq!(std::fs::metadata(d).unwrap().permissions().mode() & 0o777, 0o700);
    }
}

#[test]
fn a_damaged_file_is_named_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let file = crate::tui::snooze::fx::file_in(dir.path(), "work");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, b"{ not json").unwrap();
    let SnoozeMsg::Loaded(Err(e)) = perform_in(dir.path(), SnoozeEffect::Load { account: "work".into() }) else {
        panic!("a damaged file is an error");
    };
    assert!(e.contains("cannot be read"), "{e}");
    // Started on it: the snooze of this session is not written over it.
    let mut m = indexed_model(10, 120, 30);
    let _ = crate::tui::update::startup(&mut m);
    update(&mut m, Msg::Slice(SliceMsg::Snooze(SnoozeMsg::Loaded(Err(e)))));
    update(&mut m, key('z'));
    let fx = update(&mut m, code(crossterm::event::KeyCode::Enter));
    assert!(saved(&fx).is_none());
    assert_eq!(std::fs::read(&file).unwrap(), b"{ not json");
}

#[test]
fn with_a_hub_configured_every_keeping_goes_to_the_hub_and_without_one_to_the_file() {
    let mut m = indexed_model(10, 120, 30);
    let hub =
        crate::hubclient::HubClient::new("http://127.0.0.1:9", "token", std::time::Duration::from_secs(1)).unwrap();
    m.session.hub = Some(hub);
    m.session.agent = Some("dana".into());
    let fx = crate::tui::update::startup(&mut m);
    let on_hub = |fx: &[Effect]| {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Slice(SliceEffect::Snooze(SnoozeEffect::Hub(on, inner))) => {
                    Some((on.clone(), (**inner).clone()))
                }
                Effect::Slice(SliceEffect::Snooze(other)) => panic!("kept off the hub: {other:?}"),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let loads = on_hub(&fx);
    assert!(matches!(loads.as_slice(), [(on, SnoozeEffect::Load { .. })] if on.me.as_deref() == Some("dana")));
    update(
        &mut m,
        Msg::Slice(SliceMsg::Snooze(SnoozeMsg::Loaded(Ok(Kept::default())))),
    );
    let mut fx = update(&mut m, key('z'));
    fx.extend(update(
        &mut m,
        crate::tui::fixtures::code(crossterm::event::KeyCode::Enter),
    ));
    assert!(
        on_hub(&fx).iter().any(|(_, e)| matches!(e, SnoozeEffect::Save { .. })),
        "{fx:?}"
    );
    // The same with no hub: the file.
    let m = started(Kept::default());
    assert!(m.slices.snooze.hub.is_none());
}

#[test]
fn a_hub_that_could_not_be_read_at_start_is_asked_again_and_says_so_once() {
    let mut m = indexed_model(10, 120, 30);
    let hub =
        crate::hubclient::HubClient::new("http://127.0.0.1:9", "token", std::time::Duration::from_secs(1)).unwrap();
    m.session.hub = Some(hub);
    crate::tui::update::startup(&mut m);
    let loads = |fx: &[Effect]| {
        fx.iter()
            .filter(|e| {
                matches!(e, Effect::Slice(SliceEffect::Snooze(SnoozeEffect::Hub(_, inner)))
                    if matches!(**inner, SnoozeEffect::Load { .. }))
            })
            .count()
    };
    let failed = || Msg::Slice(SliceMsg::Snooze(SnoozeMsg::Loaded(Err("the hub is down".into()))));
    let said = |m: &Model| {
        m.status
            .toasts
            .iter()
            .any(|t| t.text.contains("the hub is down; asking the hub again"))
    };
    update(&mut m, failed());
    assert!(said(&m));
    assert_eq!(loads(&update(&mut m, Msg::Tick(now() + Duration::seconds(1)))), 0);
    assert_eq!(loads(&update(&mut m, Msg::Tick(now() + Duration::seconds(16)))), 1);
    update(&mut m, failed());
    assert!(!said(&m), "said once (the first toast is gone by now)");
    assert_eq!(loads(&update(&mut m, Msg::Tick(now() + Duration::seconds(32)))), 1);
    update(
        &mut m,
        Msg::Slice(SliceMsg::Snooze(SnoozeMsg::Loaded(Ok(Kept::default())))),
    );
    assert!(m.slices.snooze.loaded);
    assert_eq!(loads(&update(&mut m, Msg::Tick(now() + Duration::seconds(60)))), 0);
}
