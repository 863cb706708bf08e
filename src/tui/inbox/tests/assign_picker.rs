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
