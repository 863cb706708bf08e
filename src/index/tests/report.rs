//! What a report reads of the index.

use super::*;
use crate::api::ContactTeam;

fn said(status: MessageStatus, secs: i64) -> Message {
    Message {
        created_at: Some(at(secs)),
        status,
        ..message("hello")
    }
}

#[test]
fn report_rows_give_groups_and_the_page_oldest_first_only_for_recent_conversations() {
    let mut ix = Index::in_memory().unwrap();
    let mut recent = contact("recent", "Ada", "+1", 1_000);
    recent.tags = vec!["vip".into()];
    recent.assigned_user = Some("zoe@example.com".into());
    recent.team = Some(ContactTeam {
        uuid: Some("t1".into()),
        name: Some("Support".into()),
    });
    let mut old = contact("old", "Bob", "+2", 10);
    old.team = Some(ContactTeam {
        uuid: Some("t2".into()),
        name: None,
    });
    ix.upsert_contacts(&[recent.clone(), old.clone()], at(2_000)).unwrap();
    // Pages come newest first.
    let page = vec![said(MessageStatus::Sent, 1_000), said(MessageStatus::Received, 900)];
    ix.store_messages("recent", recent.last_activity(), &page).unwrap();
    // Its page is as old as its activity (a newer message would be newer
    // activity).
    let old_page = vec![said(MessageStatus::Sent, 10), said(MessageStatus::Received, 5)];
    ix.store_messages("old", old.last_activity(), &old_page).unwrap();
    let rows = ix.report_rows(at(500)).unwrap();
    let recent_row = rows.iter().find(|r| r.uuid == "recent").unwrap();
    assert_eq!(recent_row.team.as_deref(), Some("Support"));
    assert_eq!(recent_row.assignee.as_deref(), Some("zoe@example.com"));
    assert_eq!(recent_row.tags, ["vip"]);
    let p = recent_row.page.as_ref().unwrap();
    let who: Vec<Who> = p.messages.iter().map(|m| m.who).collect();
    assert_eq!(who, [Who::Customer, Who::Agent]);
    assert_eq!(p.len, 2);
    assert_eq!(p.last.map(|l| l.who), Some(Who::Agent));
    let old_row = rows.iter().find(|r| r.uuid == "old").unwrap();
    assert_eq!(old_row.team.as_deref(), Some("t2"), "no name: the uuid");
    let p = old_row.page.as_ref().unwrap();
    assert!(p.messages.is_empty(), "not active since: its messages are not decoded");
    assert_eq!(
        p.last.map(|l| l.who),
        Some(Who::Agent),
        "the last message is known all the same"
    );
}

#[test]
fn a_bots_answer_is_not_the_first_response_the_persons_after_it_is() {
    let mut ix = Index::in_memory().unwrap();
    let c = contact("c", "Ada", "+1", 1_000);
    ix.upsert_contacts(std::slice::from_ref(&c), at(2_000)).unwrap();
    // Newest first: the customer at 100, the bot 2 s later, a person at 700.
    let page = vec![
        said(MessageStatus::Sent, 700),
        said(MessageStatus::Sent, 102),
        said(MessageStatus::Received, 100),
    ];
    ix.store_messages("c", c.last_activity(), &page).unwrap();
    let rows = ix.report_rows(at(0)).unwrap();
    let auto: Vec<bool> = rows[0]
        .page
        .as_ref()
        .unwrap()
        .messages
        .iter()
        .map(|m| m.automatic)
        .collect();
    assert_eq!(auto, [false, true, false]);
    let period = crate::report::Period {
        from: at(0),
        to: at(5_000),
    };
    let report = crate::report::compute(&rows, period, at(5_000), None);
    let first = report.groups[0].first_response;
    assert_eq!(first.count, 1);
    assert_eq!(first.median_secs, Some(600), "the person's answer, not the bot's 2 s");
}
