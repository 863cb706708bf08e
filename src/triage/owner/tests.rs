use super::*;

fn contact(assignee: Option<&str>, open: bool) -> Contact {
    Contact {
        uuid: "c1".into(),
        name: "Ada".into(),
        assigned_user: assignee.map(str::to_string),
        closed_at: (!open).then(chrono::Utc::now),
        ..Default::default()
    }
}

const ME: Option<&str> = Some("dana@example.com");

#[test]
fn a_colleague_taking_it_since_is_named() {
    let seen = Seen::of(&contact(None, true));
    let now = contact(Some("alex@example.com"), true);
    let what = changed_since(&seen, &now, &Action::Assign("dana@example.com".into()), ME).unwrap();
    assert_eq!(
        what,
        "alex@example.com took it since you last saw it (it was unassigned)"
    );
    let what = changed_since(&seen, &now, &Action::Close, ME).unwrap();
    assert!(what.contains("alex@example.com took it"), "{what}");
}

#[test]
fn a_close_since_is_named_with_its_owner() {
    let seen = Seen::of(&contact(Some("alex@example.com"), true));
    let now = contact(Some("alex@example.com"), false);
    let what = changed_since(&seen, &now, &Action::Assign("dana@example.com".into()), ME).unwrap();
    assert_eq!(what, "alex@example.com's conversation was closed since you last saw it");
}

#[test]
fn nothing_changed_or_already_done_asks_nothing() {
    let seen = Seen::of(&contact(None, true));
    assert_eq!(changed_since(&seen, &contact(None, true), &Action::Close, ME), None);
    // A colleague closed it too: closing it again overwrites nothing.
    assert_eq!(changed_since(&seen, &contact(None, false), &Action::Close, ME), None);
    // Tags are not about the owner.
    let now = contact(Some("alex@example.com"), true);
    assert_eq!(changed_since(&seen, &now, &Action::Tag(vec!["vip".into()]), ME), None);
}

#[test]
fn being_given_it_or_losing_it_reads_from_the_agents_side() {
    let seen = Seen::of(&contact(Some("dana@example.com"), true));
    let now = contact(Some("alex@example.com"), true);
    let what = changed_since(&seen, &now, &Action::Unassign, ME).unwrap();
    assert_eq!(what, "alex@example.com took it since you last saw it (it was yours)");
    let seen = Seen::of(&contact(None, true));
    let what = changed_since(&seen, &contact(Some("DANA@example.com"), true), &Action::Close, ME).unwrap();
    assert_eq!(what, "it was assigned to you since you last saw it (it was unassigned)");
}

#[test]
fn a_state_never_known_is_no_change_missed() {
    // The list's copy carried no state: the agent never saw it open.
    let mut listed = contact(None, true);
    listed.state_unknown = true;
    let seen = Seen::of(&listed);
    assert_eq!(seen.open, None);
    let closed = contact(None, false);
    assert_eq!(
        changed_since(&seen, &closed, &Action::Assign("dana@example.com".into()), ME),
        None,
        "an unknown state read as open would call this a close by a colleague"
    );
    // Known open, closed since by nobody's conversation: someone did it.
    let seen = Seen::of(&contact(None, true));
    let what = changed_since(&seen, &closed, &Action::Assign("dana@example.com".into()), ME).unwrap();
    assert_eq!(what, "someone closed it since you last saw it");
}
