//! The assign picker shows each colleague's availability and how many open
//! conversations they hold, and still assigns by email.

use crate::api::TeamMember;
use crate::tui::details::DetailsMsg;
use crate::tui::fixtures::*;
use crate::tui::msg::Msg;
use crate::tui::update::update;
use crate::tui::view::tests::draw;

fn member(email: &str, name: &str, available: bool) -> TeamMember {
    TeamMember {
        email: email.into(),
        name: name.into(),
        available: Some(available),
        ..Default::default()
    }
}

#[test]
fn the_assign_picker_shows_availability_and_open_load() {
    let mut m = indexed_model(30, 160, 48);
    update(
        &mut m,
        Msg::Details(DetailsMsg::TeamMembersLoaded {
            result: Ok(vec![
                member("agent@example.test", "Agnes Agent", true),
                member("alex@example.test", "Alex Away", false),
            ]),
        }),
    );
    let open = m
        .list
        .store
        .iter()
        .filter(|r| r.is_open() && r.assigned_user.as_deref() == Some("agent@example.test"))
        .count();
    assert!(open > 0);
    update(&mut m, key('a'));
    let text = format!("{}", draw(&m).backend());
    assert!(
        text.contains(&format!("Agnes Agent <agent@example.test> · ● available · {open} open")),
        "{text}"
    );
    assert!(
        text.contains("Alex Away <alex@example.test> · ○ away · 0 open"),
        "{text}"
    );
}

#[test]
fn assign_picks_by_email_what_the_picker_shows_with_availability_and_load() {
    use crate::tui::form::{assign_form, assign_patch};
    use crate::tui::keymap::DEFAULT_KEYS;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let down = KeyEvent::new(KeyCode::Down, KeyModifiers::NONE);
    let up = KeyEvent::new(KeyCode::Up, KeyModifiers::NONE);
    let c = contact(1);
    let shown = [
        "Bo Bell <bo@example.com> · ● available · 3 open".to_string(),
        "cy@example.com · ○ away · 0 open".to_string(),
    ];
    let mut f = assign_form(&c, &shown);
    f.handle_key(&DEFAULT_KEYS, down);
    f.handle_key(&DEFAULT_KEYS, down);
    assert_eq!(
        assign_patch(&c, &f).unwrap().assigned_user.as_deref(),
        Some("cy@example.com")
    );
    f.handle_key(&DEFAULT_KEYS, up);
    assert_eq!(
        assign_patch(&c, &f).unwrap().assigned_user.as_deref(),
        Some("bo@example.com")
    );
}
