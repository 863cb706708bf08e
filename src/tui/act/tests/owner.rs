//! Ownership (issue 36): an owner or state write asks first, with one key,
//! when a colleague changed the conversation since this agent saw it or
//! is replying to it; `assign_on_reply` takes an Unassigned conversation
//! after the agent's reply, never one a colleague took.

use super::*;
use crate::api::{DeliveryStatus, SentMessage};
use crate::triage::bulk::Action;
use crate::tui::act::{Answer, Guard};
use crate::tui::compose::{ComposeEffect, ComposeMsg};
use crate::tui::shared::colleagues::Doing;

const ME: &str = "me@example.test";

fn setup() -> Model {
    let mut m = model_with(20, 160, 48);
    m.views.me = Some(ME.into());
    m.now = now();
    m
}

/// The single write among `fx`: its id, action and guard.
fn apply(fx: &[Effect]) -> Option<(u64, Action, Option<Guard>)> {
    fx.iter().find_map(|e| match e {
        Effect::Apply { id, action, guard, .. } => Some((*id, action.clone(), guard.as_deref().cloned())),
        _ => None,
    })
}

fn question(m: &Model) -> String {
    match &m.overlay {
        Some(Overlay::Confirm(c)) if c.single.is_some() => c.question.clone(),
        other => panic!("a question, got {other:?}"),
    }
}

/// The service's answer to a checked write: a colleague took it since.
fn taken_by_alex(uuid: &str) -> (crate::api::Contact, Answer) {
    let mut theirs = contact(1);
    theirs.assigned_user = Some("alex@example.test".into());
    let answer = Answer {
        changed: Some("alex@example.test took it since you last saw it (it was unassigned)".into()),
        ..Answer::ok(theirs.clone())
    };
    assert_eq!(theirs.uuid, uuid);
    (theirs, answer)
}

#[test]
fn a_close_checks_what_the_agent_saw_and_a_colleagues_change_is_asked_naming_them() {
    let mut m = setup();
    update(&mut m, key('j')); // Bia: unassigned, open
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('c'));
    let (id, action, guard) = apply(&fx).expect("a close");
    assert_eq!(action, Action::Close);
    let Some(Guard::Owner { seen, me, .. }) = guard else {
        panic!("an owner write carries what the agent saw, got {guard:?}")
    };
    assert_eq!((seen.assignee, seen.open, me.as_deref()), (None, Some(true), Some(ME)));

    let (_, answer) = taken_by_alex(&uuid);
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer,
        },
    );
    assert_eq!(
        question(&m),
        "alex@example.test took it since you last saw it (it was unassigned): close it anyway?"
    );
    let row = m.list.contact(&uuid).unwrap();
    assert!(row.is_open(), "the optimistic close is taken back");
    assert_eq!(
        row.assigned_user.as_deref(),
        Some("alex@example.test"),
        "the row shows who has it"
    );
    assert!(
        !m.status.current().is_some_and(|t| t.text.contains("closed")),
        "no ✓ closed"
    );

    // `n`: nothing is written; the conversation stays as alex left it.
    let fx = update(&mut m, key('n'));
    assert!(apply(&fx).is_none());
    assert!(m.overlay.is_none());
    assert!(m.list.contact(&uuid).unwrap().is_open());

    // Asked again, `y` closes it anyway, without asking the service again.
    let fx = update(&mut m, key('c'));
    let (id, _, _) = apply(&fx).unwrap();
    let (_, answer) = taken_by_alex(&uuid);
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer,
        },
    );
    let fx = update(&mut m, key('y'));
    let (id, action, guard) = apply(&fx).expect("y sends it");
    assert_eq!((action, guard), (Action::Close, None));
    assert!(!m.list.contact(&uuid).unwrap().is_open(), "closed at once");
    let mut closed = contact(1);
    closed.assigned_user = Some("alex@example.test".into());
    closed.closed_at = Some(now());
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer: Ok(closed).into(),
        },
    );
    assert!(m.status.current().unwrap().text.contains("closed"));
}

#[test]
fn an_assignment_a_colleague_overtook_is_asked_and_the_form_goes() {
    let mut m = setup();
    update(&mut m, key('j'));
    let uuid = m.list.selected_uuid().unwrap();
    update(&mut m, key('a'));
    type_text(&mut m, ME);
    let fx = submit(&mut m);
    let (id, action, guard) = apply(&fx).expect("an assignment");
    assert_eq!(action, Action::Assign(ME.into()));
    assert!(matches!(guard, Some(Guard::Owner { .. })), "{guard:?}");
    let (_, answer) = taken_by_alex(&uuid);
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer,
        },
    );
    assert_eq!(
        question(&m),
        "alex@example.test took it since you last saw it (it was unassigned): assign it to you anyway?"
    );
    assert_eq!(m.act.undo.offered(now()), None, "nothing written: nothing to undo");
    let fx = update(&mut m, key('y'));
    assert_eq!(
        apply(&fx).map(|(_, a, g)| (a, g)),
        Some((Action::Assign(ME.into()), None))
    );
}

#[test]
fn closing_or_assigning_while_a_colleague_replies_or_just_replied_asks_first() {
    let mut m = setup();
    update(&mut m, key('j'));
    let uuid = m.list.selected_uuid().unwrap();
    m.colleagues.me = Some("me".into());
    m.colleagues.set(
        "dana",
        &uuid,
        Some(Doing::Composing),
        now() + chrono::Duration::seconds(30),
    );
    let fx = update(&mut m, key('c'));
    assert!(apply(&fx).is_none(), "nothing is sent before a yes");
    assert_eq!(question(&m), "dana is replying now: close it anyway?");
    assert!(m.list.contact(&uuid).unwrap().is_open(), "not closed on screen either");
    let fx = update(&mut m, key('y'));
    let (_, action, guard) = apply(&fx).expect("y closes it");
    assert_eq!(action, Action::Close);
    assert!(matches!(guard, Some(Guard::Owner { .. })), "still checked: {guard:?}");

    // A reply 30 s ago asks before assigning it away.
    let mut m = setup();
    update(&mut m, key('j'));
    m.colleagues.sent("farah", &uuid, now() - chrono::Duration::seconds(30));
    update(&mut m, key('a'));
    type_text(&mut m, "boss@example.test");
    let fx = submit(&mut m);
    assert!(apply(&fx).is_none());
    assert_eq!(
        question(&m),
        "farah replied 30 s ago: assign it to boss@example.test anyway?"
    );
    let fx = update(&mut m, key('y'));
    assert_eq!(
        apply(&fx).map(|(_, a, _)| a),
        Some(Action::Assign("boss@example.test".into()))
    );
}

/// Replies to the selected contact; the service accepts it.
fn reply(m: &mut Model) -> Vec<Effect> {
    let uuid = m.list.selected_uuid().unwrap();
    update(m, key('R'));
    type_text(m, "On its way");
    let id = submit(m)
        .iter()
        .find_map(|e| match e {
            Effect::Compose(ComposeEffect::Send { id, .. }) => Some(*id),
            _ => None,
        })
        .expect("a send");
    update(
        m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact: uuid,
            result: Ok(SentMessage {
                uuid: "msg-1".into(),
                status: DeliveryStatus::Enqueued,
            }),
        }),
    )
}

#[test]
fn assign_on_reply_takes_an_unassigned_conversation_after_the_send_through_the_checked_write() {
    let mut m = setup();
    m.session.assign_on_reply = true;
    update(&mut m, key('j')); // Bia: unassigned
    let uuid = m.list.selected_uuid().unwrap();
    let fx = reply(&mut m);
    let (id, action, guard) = apply(&fx).expect("the reply assigns it");
    assert_eq!(action, Action::Assign(ME.into()));
    let Some(Guard::Owner { seen, .. }) = guard else {
        panic!("checked: {guard:?}")
    };
    assert_eq!(seen.assignee, None);
    let mut mine = contact(1);
    mine.assigned_user = Some(ME.into());
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer: Ok(mine).into(),
        },
    );
    assert_eq!(m.list.contact(&uuid).unwrap().assigned_user.as_deref(), Some(ME));
    assert!(
        m.status
            .current()
            .unwrap()
            .text
            .contains("assigned to you (you replied)")
    );

    // A colleague took it meanwhile: it stays theirs, and nothing asks.
    let mut m = setup();
    m.session.assign_on_reply = true;
    update(&mut m, key('j'));
    let fx = reply(&mut m);
    let (id, _, _) = apply(&fx).unwrap();
    let (_, answer) = taken_by_alex(&uuid);
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer,
        },
    );
    assert!(!matches!(m.overlay, Some(Overlay::Confirm(_))), "not asked");
    assert_eq!(
        m.list.contact(&uuid).unwrap().assigned_user.as_deref(),
        Some("alex@example.test")
    );
    assert!(
        m.status
            .current()
            .unwrap()
            .text
            .contains("not assigned to you on reply")
    );
}

#[test]
fn assign_on_reply_leaves_an_owned_conversation_and_can_be_turned_off() {
    // Ana is agent@example.test's: a reply does not take it.
    let mut m = setup();
    m.session.assign_on_reply = true;
    let fx = reply(&mut m);
    assert!(apply(&fx).is_none());
    // Off: an Unassigned one stays so.
    let mut m = setup();
    update(&mut m, key('j'));
    let fx = reply(&mut m);
    assert!(apply(&fx).is_none());
}

#[test]
fn closing_marked_conversations_one_of_which_a_colleague_answers_asks_first() {
    let mut m = setup();
    let (ana, bia) = (contact(0).uuid, contact(1).uuid);
    m.marks.insert(&ana);
    m.marks.insert(&bia);
    m.colleagues.set(
        "dana",
        &bia,
        Some(Doing::Composing),
        now() + chrono::Duration::seconds(30),
    );
    let fx = update(&mut m, key('c'));
    assert!(apply(&fx).is_none(), "nothing is sent before a yes");
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("a question, got {:?}", m.overlay)
    };
    assert!(
        c.question.starts_with("dana is replying now (") && c.question.ends_with("Close 2 conversations?"),
        "{}",
        c.question
    );
    let fx = update(&mut m, key('y'));
    assert!(apply(&fx).is_some(), "y runs it");
}

/// The question says when the colleague acted, from the hub's timeline:
/// the newest change of the owner or the state, by whom, how long ago.
#[test]
fn the_question_says_when_the_colleague_acted() {
    use crate::hubclient::TimelineEvent;
    let ev = |at: &str, agent: Option<&str>, what: &str| TimelineEvent {
        at: at.into(),
        agent: agent.map(str::to_string),
        what: what.into(),
        reason: None,
    };
    let now = chrono::DateTime::parse_from_rfc3339("2026-11-20T10:01:00Z")
        .unwrap()
        .to_utc();
    let events = vec![
        ev("2026-11-20T09:00:00Z", Some("dana"), "closed"),
        ev("2026-11-20T10:00:20Z", Some("bea"), "assigned to bea@example.com"),
        ev("2026-11-20T10:00:50Z", Some("bea"), "tags set to vip"),
    ];
    assert_eq!(
        crate::tui::act::last_owner_change(&events, now).as_deref(),
        Some("bea assigned to bea@example.com 40 s ago")
    );
    let elsewhere = vec![ev("2026-11-20T08:01:00Z", None, "closed\x1b[2J")];
    let said = crate::tui::act::last_owner_change(&elsewhere, now).expect("said");
    assert!(
        said.starts_with("someone closed") && said.ends_with(" 2 h ago"),
        "{said}"
    );
    assert!(!said.contains('\x1b'), "the hub's text is made inert: {said:?}");
    assert_eq!(
        crate::tui::act::last_owner_change(&[ev("x", None, "tags set")], now),
        None
    );
}
