use super::super::bulk::{Action, with_tags, without_tags};

fn v(tags: &[&str]) -> Vec<String> {
    tags.iter().map(|s| s.to_string()).collect()
}

#[test]
fn tagging_adds_to_the_contacts_tags_and_untagging_removes_only_those() {
    assert_eq!(
        with_tags(&v(&["vip", "billing"]), &v(&["gold", "VIP"])),
        v(&["vip", "billing", "gold"])
    );
    assert_eq!(
        without_tags(&v(&["vip", "billing", "gold"]), &v(&["GOLD", "missing"])),
        v(&["vip", "billing"])
    );
}

#[test]
fn actions_name_themselves_for_progress_and_summaries() {
    assert_eq!((Action::Close.verb(), Action::Close.doing()), ("close", "closing"));
    assert_eq!(Action::Assign("a@b.co".into()).done(), "assigned to a@b.co");
    assert_eq!(Action::Untag(v(&["x", "y"])).done(), "untagged x, y");
}

#[test]
fn each_action_knows_what_takes_it_back() {
    use super::super::bulk::Reverse;
    use crate::api::{Contact, ContactTeam};
    let open = Contact {
        uuid: "c1".into(),
        assigned_user: Some("ann@x.co".into()),
        tags: v(&["vip"]),
        note: Some("call back".into()),
        ..Default::default()
    };
    let closed = Contact {
        closed_at: Some(chrono::Utc::now()),
        ..open.clone()
    };
    assert_eq!(Action::Close.reverse(&open, None), Reverse::Do(Action::Reopen));
    assert_eq!(Action::Close.reverse(&closed, None), Reverse::Nothing);
    assert_eq!(Action::Reopen.reverse(&closed, None), Reverse::Do(Action::Close));
    assert_eq!(
        Action::Assign("bob@x.co".into()).reverse(&open, None),
        Reverse::Do(Action::Assign("ann@x.co".into()))
    );
    let nobody = Contact {
        assigned_user: None,
        ..open.clone()
    };
    assert_eq!(
        Action::Assign("bob@x.co".into()).reverse(&nobody, None),
        Reverse::Do(Action::Unassign)
    );
    assert_eq!(
        Action::Unassign.reverse(&open, None),
        Reverse::Do(Action::Assign("ann@x.co".into()))
    );
    // Only the tags the action really added or removed come back.
    assert_eq!(
        Action::Tag(v(&["VIP", "gold"])).reverse(&open, None),
        Reverse::Do(Action::Untag(v(&["gold"])))
    );
    assert_eq!(
        Action::Untag(v(&["vip", "gold"])).reverse(&open, None),
        Reverse::Do(Action::Tag(v(&["vip"])))
    );
    assert_eq!(
        Action::SetTags(v(&["a"])).reverse(&open, None),
        Reverse::Do(Action::SetTags(v(&["vip"])))
    );
    assert_eq!(
        Action::Note(String::new()).reverse(&open, None),
        Reverse::Do(Action::Note("call back".into()))
    );
    assert_eq!(
        Action::Note("x".into()).reverse(&nobody_note(&open), None),
        Reverse::Do(Action::Note(String::new()))
    );
    assert!(matches!(
        Action::Team("t2".into()).reverse(&open, None),
        Reverse::Cannot(_)
    ));
    let teamed = Contact {
        team: Some(ContactTeam {
            uuid: Some("t1".into()),
            ..Default::default()
        }),
        ..open.clone()
    };
    assert_eq!(
        Action::Team("t2".into()).reverse(&teamed, None),
        Reverse::Do(Action::Team("t1".into()))
    );
    assert_eq!(
        Action::Bot(true).reverse(&open, Some(false)),
        Reverse::Do(Action::Bot(false))
    );
    assert!(matches!(Action::Bot(true).reverse(&open, None), Reverse::Cannot(_)));
}

fn nobody_note(c: &crate::api::Contact) -> crate::api::Contact {
    crate::api::Contact {
        note: None,
        ..c.clone()
    }
}
