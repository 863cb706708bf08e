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
