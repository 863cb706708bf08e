//! The waiting rule on the list: a row whose customer only the bot answered
//! stays waiting, says so, and counts in Waiting; an agent's answer ends it.

use chrono::Duration;

use crate::api::{Message, MessageStatus};
use crate::index::Preview;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::msg::index::IndexMsg;
use crate::tui::update::update;
use crate::tui::view::tests::draw;

fn msg(status: MessageStatus, at: chrono::DateTime<chrono::Utc>, text: &str) -> Message {
    Message {
        uuid: None,
        text: text.into(),
        created_at: Some(at),
        status,
        channel: "whatsapp".into(),
        from: String::new(),
        to: String::new(),
        sent_by: None,
        rich: Default::default(),
    }
}

/// Contact 0's page: the customer wrote 12 minutes before its activity,
/// the bot answered a second later; with `agent`, a person answered after.
fn answered_by(m: &mut Model, agent: bool) {
    let c = contact(0);
    let last = c.activity_at.unwrap();
    let asked = last - Duration::minutes(12);
    let mut page = vec![
        msg(MessageStatus::Received, asked, "where is my order?"),
        msg(
            MessageStatus::Sent,
            asked + Duration::seconds(1),
            "Thanks! An agent will be with you shortly",
        ),
    ];
    if agent {
        page.push(msg(MessageStatus::Sent, last, "On its way"));
    } else {
        page.push(msg(MessageStatus::Received, last - Duration::seconds(1), "hello??"));
        page.push(msg(
            MessageStatus::Sent,
            last,
            "Thanks! An agent will be with you shortly",
        ));
    }
    page.reverse();
    let p = Preview::of(&page, c.last_activity());
    update(m, Msg::Index(IndexMsg::Previews(vec![(c.uuid.clone(), p)])));
    update(m, Msg::Tick(now()));
}

fn row_of(m: &Model, name: &str) -> String {
    let text = format!("{}", draw(m).backend());
    // The list is the left pane: the row is the line whose left part names
    // the contact.
    text.lines()
        .map(|l| l.chars().take(70).collect::<String>())
        .find(|l| l.contains(name) && !l.contains("Waiting"))
        .unwrap_or_default()
}

#[test]
fn a_row_behind_the_bots_answer_still_waits_and_says_so() {
    let mut m = indexed_model(10, 160, 48);
    answered_by(&mut m, false);
    let name = contact(0).name;
    let row = row_of(&m, &name);
    assert!(row.contains("bot replied"), "{row}");
    assert!(row.contains('‹'), "the customer is still owed an answer: {row}");
    let since = contact(0).activity_at.unwrap() - Duration::minutes(12);
    let minutes = (now() - since).num_minutes();
    assert!(
        row.contains(&format!("{minutes}m")),
        "the clock runs from the first unanswered message: {row}"
    );
    assert_eq!(crate::tui::title::waiting(&m), 1);
}

#[test]
fn an_agents_answer_ends_the_wait_on_the_row() {
    let mut m = indexed_model(10, 160, 48);
    answered_by(&mut m, true);
    let row = row_of(&m, &contact(0).name);
    assert!(!row.contains("bot replied"), "{row}");
    assert_eq!(crate::tui::title::waiting(&m), 0);
}
