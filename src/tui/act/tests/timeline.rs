//! The conversation's timeline in the thread (issue 36): dim one-line rows
//! between the messages, by time, made inert; this agent's own writes
//! join it as they are answered.

use chrono::Duration;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::tui::theme::Theme;
use crate::tui::thread::timeline::Event;

fn screen(m: &Model) -> Vec<String> {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| crate::tui::view::view(m, f, &Theme::plain())).unwrap();
    let buf = t.backend().buffer().clone();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect()
}

fn line_of(lines: &[String], text: &str) -> usize {
    lines
        .iter()
        .position(|l| l.contains(text))
        .unwrap_or_else(|| panic!("{text:?} not on screen:\n{}", lines.join("\n")))
}

#[test]
fn a_colleagues_close_shows_between_the_messages_it_came_between() {
    let mut m = model_with(20, 120, 40);
    load_thread(&mut m, 2, None);
    let uuid = m.thread.contact.clone().unwrap();
    let first = m.thread.messages[0].created_at.unwrap();
    let at = first + Duration::minutes(5);
    m.thread.timeline.add(
        &uuid,
        Event {
            at,
            what: "closed".into(),
            by: Some("alex\u{1b}[31m".into()),
            reason: Some("resolved\nfor good".into()),
        },
    );
    // Another contact's event is not this thread's.
    m.thread.timeline.add(
        "someone-else",
        Event {
            at,
            what: "opened".into(),
            by: None,
            reason: None,
        },
    );
    assert!(m.thread.timeline.between(Some(&uuid), None, at).next().is_none());
    m.thread.timeline.add(
        &uuid,
        Event {
            at,
            what: "closed".into(),
            by: Some("alex".into()),
            reason: Some("resolved".into()),
        },
    );
    m.thread.timeline.add(
        &uuid,
        Event {
            at: m.thread.messages[1].created_at.unwrap() + Duration::minutes(1),
            what: "assigned to bea@x.co".into(),
            by: None,
            reason: None,
        },
    );
    let lines = screen(&m);
    let time = crate::tui::zone::local(at, m.session.tz).format("%H:%M").to_string();
    let row = line_of(&lines, &format!("— closed by alex: resolved · {time}"));
    let hello = line_of(&lines, "Hello! I ordered");
    let sure = line_of(&lines, "Sure, let me look");
    assert!(
        hello < row && row < sure,
        "between the two messages:\n{}",
        lines.join("\n")
    );
    assert!(lines.iter().all(|l| !l.contains('\u{1b}')));
    // After the newest message: at the bottom, by someone.
    let assigned = line_of(&lines, "— assigned to bea@x.co by someone");
    assert!(assigned > sure);
}

#[test]
fn this_agents_close_joins_the_timeline_of_the_thread_it_shows() {
    let mut m = model_with(20, 120, 40);
    load_thread(&mut m, 2, None);
    let uuid = m.thread.contact.clone().unwrap();
    let fx = update(&mut m, key('c'));
    let id = close_id(&fx);
    let mut closed = contact(0);
    closed.closed_at = Some(now());
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer: Ok(closed).into(),
        },
    );
    let lines = screen(&m);
    let row = line_of(&lines, "— closed by you");
    assert!(row > line_of(&lines, "Sure, let me look"));
}

#[test]
fn the_hubs_timeline_joins_the_thread_naming_who_did_what() {
    let mut m = model_with(20, 120, 40);
    load_thread(&mut m, 2, None);
    m.session.agent = Some("dana".into());
    let uuid = m.thread.contact.clone().unwrap();
    let first = m.thread.messages[0].created_at.unwrap();
    let at = |min: i64| (first + Duration::minutes(min)).to_rfc3339();
    let event = |min: i64, agent: Option<&str>, what: &str, reason: Option<&str>| crate::hubclient::TimelineEvent {
        at: at(min),
        agent: agent.map(str::to_string),
        what: what.into(),
        reason: reason.map(str::to_string),
    };
    let events = vec![
        event(2, Some("alex"), "assigned to bea@x.co", None),
        event(3, Some("dana"), "closed", None),
        event(4, None, "closed", Some("spam\u{7}")),
    ];
    // Another thread's answer is dropped.
    update(
        &mut m,
        Msg::Runs(crate::tui::act::RunsMsg::Timeline {
            contact: "another".into(),
            result: Ok(events.clone()),
        }),
    );
    assert!(!screen(&m).iter().any(|l| l.contains("— assigned")));
    update(
        &mut m,
        Msg::Runs(crate::tui::act::RunsMsg::Timeline {
            contact: uuid,
            result: Ok(events),
        }),
    );
    let lines = screen(&m);
    let assigned = line_of(&lines, "— assigned to bea@x.co by alex");
    let mine = line_of(&lines, "— closed by you");
    let theirs = line_of(&lines, "— closed by someone: spam");
    assert!(assigned < mine && mine < theirs && theirs < line_of(&lines, "Sure, let me look"));
}

#[test]
fn through_a_hub_the_timeline_is_read_when_the_conversation_changes_on_the_stream() {
    use crate::hubclient::{ConversationChange, HubClient, HubEvent};
    use crate::tui::msg::index::{HubNote, IndexMsg};
    let mut m = model_with(20, 120, 40);
    load_thread(&mut m, 2, None);
    m.session.hub = Some(HubClient::new("http://127.0.0.1:9", "token", std::time::Duration::from_secs(1)).unwrap());
    let uuid = m.thread.contact.clone().unwrap();
    let closed = |contact: &str| {
        Msg::Index(IndexMsg::Hub(HubNote::Event(Box::new(HubEvent::ConversationClosed(
            ConversationChange {
                contact: contact.into(),
                agent: Some("alex".into()),
                at: Some(now()),
            },
        )))))
    };
    let asked = |fx: &[Effect]| -> Vec<String> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Runs(crate::tui::act::RunsEffect::Timeline { contact, .. }) => Some(contact.clone()),
                _ => None,
            })
            .collect()
    };
    assert_eq!(asked(&update(&mut m, closed(&uuid))), vec![uuid.clone()]);
    assert!(
        asked(&update(&mut m, closed("another"))).is_empty(),
        "not the thread shown"
    );
}
