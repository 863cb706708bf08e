use crate::api::Contact;
use crate::triage::bulk::Action;
use crate::triage::undo::plan_undo;

fn c(assignee: Option<&str>, tags: &[&str]) -> Contact {
    Contact {
        uuid: "c1".into(),
        assigned_user: assignee.map(str::to_string),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        ..Default::default()
    }
}

#[test]
fn undo_reverts_fields_still_as_written_and_names_the_others_with_their_value() {
    let before = c(None, &["vip"]);
    let after = c(Some("me@x.co"), &["vip"]);
    let plan = plan_undo(&Action::Assign("me@x.co".into()), &before, &after, &after);
    assert_eq!(plan.revert, vec![Action::Unassign]);
    let bob = c(Some("bob@x.co"), &["vip"]);
    let plan = plan_undo(&Action::Assign("me@x.co".into()), &before, &after, &bob);
    assert!(plan.revert.is_empty());
    assert_eq!(plan.conflicts[0].field, "assignee");
    assert_eq!(plan.conflicts[0].now, "bob@x.co");

    // Tag by tag: the one still there is taken off, the one a colleague
    // removed already is a conflict.
    let after = c(None, &["vip", "gold", "new"]);
    let now = c(None, &["vip", "gold", "other"]);
    let plan = plan_undo(&Action::Tag(vec!["gold".into(), "new".into()]), &before, &after, &now);
    assert_eq!(plan.revert, vec![Action::Untag(vec!["gold".into()])]);
    assert_eq!(plan.conflicts[0].field, "tag new");
    assert_eq!(plan.conflicts[0].now, "absent");
    // Nothing changed: nothing to do.
    let plan = plan_undo(&Action::Tag(vec!["vip".into()]), &before, &before, &before);
    assert_eq!(plan, Default::default());
}
