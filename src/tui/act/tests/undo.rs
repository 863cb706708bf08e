//! Undo: each action kind's `u` sends what restores the contact, the
//! 10-second window, runs on many, "changed since", and the history.

use chrono::Duration;

use super::*;
use crate::api::{Contact, ContactTeam};
use crate::triage::bulk::{Action as Act, with_tags, without_tags};
use crate::tui::act::UndoState as State;
use crate::tui::act::{Job, Purpose};

/// The write request among `fx` (close, reopen or a form's PATCH).
fn write_of(fx: &[Effect]) -> (u64, String, WriteKind) {
    fx.iter()
        .find_map(|e| match e {
            Effect::Apply { id, uuid, action, .. } => Some((*id, uuid.clone(), WriteKind::of(action))),
            _ => None,
        })
        .expect("a write request")
}

/// The server answers the write among `fx` with `after`.
pub(crate) fn answer(m: &mut Model, fx: &[Effect], after: Contact) {
    let (id, uuid, _kind) = write_of(fx);
    update(
        m,
        Msg::Applied {
            id,
            uuid,
            answer: (Ok(after)).into(),
        },
    );
}

/// The per-contact actions among `fx`.
fn applies(fx: &[Effect]) -> Vec<(u64, String, Act)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Apply { id, uuid, action, .. } => Some((*id, uuid.clone(), action.clone())),
            _ => None,
        })
        .collect()
}

/// What the server does to `c` for `a`.
pub(crate) fn server(c: &Contact, a: &Act) -> Contact {
    let mut c = c.clone();
    match a {
        Act::Close => c.closed_at = Some(now()),
        Act::Reopen => c.closed_at = None,
        Act::Assign(who) => c.assigned_user = Some(who.clone()),
        Act::Unassign => c.assigned_user = None,
        Act::Tag(t) => c.tags = with_tags(&c.tags, t),
        Act::Untag(t) => c.tags = without_tags(&c.tags, t),
        Act::SetTags(t) => c.tags = t.clone(),
        Act::Team(t) => {
            c.team = Some(ContactTeam {
                uuid: Some(t.clone()),
                name: None,
            })
        }
        Act::Note(n) => c.note = Some(n.clone()),
        Act::Bot(_) | Act::Edit { .. } | Act::ConversationNote(_) => {}
    }
    c
}

/// Answers every per-contact action until the run ends (`fail` fails
/// those contacts); every action sent, in order.
fn run_to_end(m: &mut Model, fx: Vec<Effect>, fail: &[String]) -> Vec<(String, Act)> {
    let mut sent = Vec::new();
    let mut todo = applies(&fx);
    while let Some((id, uuid, action)) = todo.pop() {
        sent.push((uuid.clone(), action.clone()));
        let result = if fail.contains(&uuid) {
            Err(ApiError::Transport("down".into()))
        } else {
            Ok(server(&m.list.contact(&uuid).expect("loaded"), &action))
        };
        let more = update(
            m,
            Msg::Applied {
                id,
                uuid,
                answer: result.into(),
            },
        );
        todo.extend(applies(&more));
    }
    sent
}

fn toast(m: &Model) -> String {
    m.status.current().map(|t| t.text.clone()).unwrap_or_default()
}

/// `u` now: the actions it sends.
fn press_u(m: &mut Model) -> Vec<(String, Act)> {
    applies(&update(m, key('u')))
        .into_iter()
        .map(|(_, u, a)| (u, a))
        .collect()
}

fn select(m: &mut Model, row: usize) -> String {
    for _ in 0..row {
        update(m, key('j'));
    }
    m.list.selected_uuid().unwrap()
}

#[test]
fn close_then_u_reopens_and_only_once() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('c'));
    answer(&mut m, &fx, server(&contact(0), &Act::Close));
    assert!(toast(&m).contains("closed (Ana Souza)"), "{}", toast(&m));
    assert!(m.act.undo.offered(m.now).is_some(), "u is offered");
    assert_eq!(press_u(&mut m), vec![(uuid.clone(), Act::Reopen)]);
    let fx = update(&mut m, key('u'));
    assert!(applies(&fx).is_empty(), "one undo at a time");
    let id = m.act.undo.entries[0].id;
    assert_eq!(m.act.undo.state(id, &m.list), Some(State::Undoing));
    // The run's answer lands: open again, the entry is undone.
    let entry = m.act.undo.entries[0].clone();
    let rid = *m.act.bulk.as_ref().unwrap().in_flight.keys().next().unwrap();
    update(
        &mut m,
        Msg::Applied {
            id: rid,
            uuid: uuid.clone(),
            answer: (Ok(contact(0))).into(),
        },
    );
    assert!(m.list.contact(&uuid).unwrap().is_open());
    assert_eq!(m.act.undo.state(entry.id, &m.list), Some(State::Undone));
    assert!(press_u(&mut m).is_empty());
    assert!(toast(&m).contains("nothing to undo"), "{}", toast(&m));
    // Nor twice from the history.
    update(&mut m, key('U'));
    assert!(applies(&update(&mut m, code(KeyCode::Enter))).is_empty());
    assert!(toast(&m).contains("already undone"), "{}", toast(&m));
}

#[test]
fn reopen_undoes_to_closed() {
    let mut m = model_with(20, 160, 48);
    let uuid = select(&mut m, 4); // closed in the fixtures
    let fx = update(&mut m, key('c'));
    assert!(matches!(write_of(&fx).2, WriteKind::Reopen));
    answer(&mut m, &fx, server(&contact(4), &Act::Reopen));
    assert_eq!(press_u(&mut m), vec![(uuid, Act::Close)]);
}

/// Opens form `k` on the selected contact, types `input`, submits and
/// answers with the server's result; then `u`.
fn form_then_u(m: &mut Model, i: usize, k: char, input: &str) -> Vec<(String, Act)> {
    update(m, key(k));
    type_text(m, input);
    // The tags: one Enter adds the typed one and saves.
    let fx = if k == 't' {
        update(m, code(KeyCode::Enter))
    } else {
        submit(m)
    };
    let (_, _, _, patch) = patch_of(&fx);
    let mut after = contact(i);
    if let Some(t) = patch.tags {
        after.tags = t;
    }
    if let Some(a) = patch.assigned_user {
        after.assigned_user = Some(a);
    }
    if let Some(t) = patch.team_uuid {
        after = server(&after, &Act::Team(t));
    }
    if let Some(n) = patch.note {
        after.note = Some(n);
    }
    answer(m, &fx, after);
    press_u(m)
}

#[test]
fn assign_undoes_to_the_previous_assignee_or_none() {
    let mut m = model_with(20, 160, 48);
    let first = m.list.selected_uuid().unwrap();
    let sent = form_then_u(&mut m, 0, 'a', "boss@example.test");
    assert_eq!(sent, vec![(first, Act::Assign("agent@example.test".into()))]);
    let mut m = model_with(20, 160, 48);
    let second = select(&mut m, 1); // unassigned
    let sent = form_then_u(&mut m, 1, 'a', "boss@example.test");
    assert_eq!(sent, vec![(second, Act::Unassign)]);
}

#[test]
fn tags_replace_undoes_to_the_previous_tags() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    let sent = form_then_u(&mut m, 0, 't', "newtag");
    assert_eq!(sent, vec![(uuid, Act::SetTags(vec!["vip".into()]))]);
}

#[test]
fn note_undoes_to_the_previous_note() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    let sent = form_then_u(&mut m, 0, 'n', "call back");
    assert_eq!(sent, vec![(uuid, Act::Note(String::new()))]);
}

#[test]
fn team_undoes_to_the_previous_team_and_says_why_when_there_was_none() {
    let mut m = model_with(20, 160, 48);
    m.known.add_team("team-1", "Support");
    m.known.add_team("team-2", "Sales");
    let uuid = select(&mut m, 1); // in team-1
    let sent = form_then_u(&mut m, 1, 'T', "Sales");
    assert_eq!(sent, vec![(uuid, Act::Team("team-1".into()))]);

    let mut m = model_with(20, 160, 48);
    m.known.add_team("team-2", "Sales");
    let sent = form_then_u(&mut m, 0, 'T', "Sales");
    assert!(sent.is_empty(), "not offered");
    update(&mut m, key('U'));
    update(&mut m, code(KeyCode::Enter));
    assert!(
        toast(&m).contains("cannot undo: the API cannot clear a team"),
        "{}",
        toast(&m)
    );
    let text = &m.act.undo.entries[0].what;
    assert!(text.contains("team set to Sales"), "{text}");
}

#[test]
fn team_without_a_previous_one_says_so_in_the_toast() {
    let mut m = model_with(20, 160, 48);
    m.known.add_team("team-2", "Sales");
    update(&mut m, key('T'));
    type_text(&mut m, "Sales");
    let fx = submit(&mut m);
    answer(&mut m, &fx, server(&contact(0), &Act::Team("team-2".into())));
    assert_eq!(
        toast(&m),
        "team set to Sales (Ana Souza) · cannot undo: the API cannot clear a team"
    );
    assert!(m.act.undo.offered(m.now).is_none(), "u is not offered");
}

/// The bot panel of the selected contact answered `bot`.
fn bot_loaded(m: &mut Model, bot: Result<crate::api::Bot, ApiError>) -> String {
    let uuid = m.list.selected_uuid().unwrap();
    let id = m.details.bot.loading.unwrap();
    update(
        m,
        Msg::Details(crate::tui::details::DetailsMsg::BotLoaded {
            id,
            uuid: uuid.clone(),
            result: bot,
        }),
    );
    uuid
}

fn toggle_bot(m: &mut Model, uuid: &str, now_running: bool) {
    let fx = update(m, key('b'));
    let id = fx
        .iter()
        .find_map(|e| match e {
            Effect::Details(crate::tui::details::DetailsEffect::SetBot { id, .. }) => Some(*id),
            _ => None,
        })
        .expect("a bot request");
    update(
        m,
        Msg::Details(crate::tui::details::DetailsMsg::BotSet {
            id,
            uuid: uuid.to_string(),
            result: Ok(bot(now_running)),
        }),
    );
}

#[test]
fn bot_undoes_to_its_previous_state_and_not_when_unknown() {
    let mut m = model_with(20, 160, 48);
    let uuid = bot_loaded(&mut m, Ok(bot(true)));
    toggle_bot(&mut m, &uuid, false);
    assert!(toast(&m).contains("bot stopped"), "{}", toast(&m));
    let fx = update(&mut m, key('u'));
    assert_eq!(run_to_end(&mut m, fx, &[]), vec![(uuid.clone(), Act::Bot(true))]);
    assert_eq!(m.list.bots.get(&uuid), Some(&true));
    let panel = m.details.bot.bot.as_ref().unwrap();
    assert!(panel.is_running(), "the panel shows the bot running again");

    let mut m = model_with(20, 160, 48);
    let uuid = bot_loaded(&mut m, Err(ApiError::Transport("down".into())));
    toggle_bot(&mut m, &uuid, true);
    assert!(
        toast(&m).contains("cannot undo: the bot's state before is not known"),
        "{}",
        toast(&m)
    );
    assert!(press_u(&mut m).is_empty());
}

#[test]
fn u_works_for_ten_seconds_then_the_history_still_offers_it() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('c'));
    answer(&mut m, &fx, server(&contact(0), &Act::Close));
    update(&mut m, Msg::Tick(now() + Duration::seconds(9)));
    assert!(m.act.undo.offered(m.now).is_some(), "still offered at 9 s");
    update(&mut m, Msg::Tick(now() + Duration::seconds(11)));
    assert!(press_u(&mut m).is_empty());
    assert!(toast(&m).contains("nothing to undo now (U:"), "{}", toast(&m));
    update(&mut m, key('U'));
    assert!(matches!(m.overlay, Some(Overlay::History { .. })));
    let sent = applies(&update(&mut m, code(KeyCode::Enter)));
    assert_eq!(sent.len(), 1);
    assert_eq!((sent[0].1.as_str(), &sent[0].2), (uuid.as_str(), &Act::Reopen));
    update(&mut m, code(KeyCode::Esc));
    assert!(m.overlay.is_none());
}

fn jobs(action: Act, rows: &[usize]) -> Vec<Job> {
    rows.iter()
        .map(|&i| Job {
            uuid: contact(i).uuid,
            name: contact(i).name,
            action: action.clone(),
            before: contact(i),
            bot_before: None,
            guard: None,
        })
        .collect()
}

/// Runs `action` on `rows` as a run on many; `fail` fail.
pub(crate) fn bulk(m: &mut Model, action: Act, rows: &[usize], fail: &[usize]) {
    let mut fx = Vec::new();
    crate::tui::update::bulk::start(m, Purpose::Act, action.doing(), jobs(action, rows), &mut fx);
    let fail: Vec<String> = fail.iter().map(|&i| contact(i).uuid).collect();
    run_to_end(m, fx, &fail);
}

#[test]
fn undo_of_a_run_takes_back_its_successes_only() {
    let mut m = model_with(20, 160, 48);
    bulk(&mut m, Act::Close, &[0, 1, 2], &[1]);
    assert!(m.act.bulk.is_none(), "the run ended");
    assert_eq!(m.act.undo.entries[0].items.len(), 2);
    let mut sent = press_u(&mut m);
    sent.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        sent,
        vec![(contact(0).uuid, Act::Reopen), (contact(2).uuid, Act::Reopen)]
    );
}

#[test]
fn unassign_on_many_undoes_to_each_ones_assignee() {
    let mut m = model_with(20, 160, 48);
    bulk(&mut m, Act::Unassign, &[0, 2], &[]);
    let fx = update(&mut m, key('u'));
    let sent = run_to_end(&mut m, fx, &[]);
    assert_eq!(sent.len(), 2);
    assert!(sent.iter().all(|(_, a)| *a == Act::Assign("agent@example.test".into())));
    for i in [0, 2] {
        let row = m.list.contact(&contact(i).uuid).unwrap();
        assert_eq!(row.assigned_user.as_deref(), Some("agent@example.test"));
    }
    assert_eq!(m.act.undo.state(m.act.undo.entries[0].id, &m.list), Some(State::Undone));
}

#[test]
fn a_run_where_some_cannot_be_undone_undoes_the_rest_and_says_how_many() {
    let mut m = model_with(20, 160, 48);
    bulk(&mut m, Act::Team("team-2".into()), &[0, 1, 2], &[]);
    let text = &m.act.undo.entries[0].what;
    assert!(text.contains("(3 contacts)"), "{text}");
    let shown = m.status.toasts.iter().map(|t| t.text.clone()).collect::<Vec<_>>();
    assert!(
        shown
            .iter()
            .any(|t| t.contains("2 cannot be undone: the API cannot clear a team")),
        "{shown:?}"
    );
    assert_eq!(press_u(&mut m), vec![(contact(1).uuid, Act::Team("team-1".into()))]);
}

#[test]
fn a_contact_changed_since_refuses_the_undo_and_says_so() {
    let mut m = model_with(20, 160, 48);
    let fx = update(&mut m, key('c'));
    answer(&mut m, &fx, server(&contact(0), &Act::Close));
    // Someone else reopens it; the refresh brings the row in.
    m.list.store.replace(contact(0));
    assert!(press_u(&mut m).is_empty());
    assert!(toast(&m).contains("changed since: Ana Souza"), "{}", toast(&m));
    let id = m.act.undo.entries[0].id;
    assert_eq!(m.act.undo.state(id, &m.list), Some(State::Changed("Ana Souza".into())));
    // A change in a field the action did not touch does not block it.
    let mut m = model_with(20, 160, 48);
    let fx = update(&mut m, key('c'));
    let closed = server(&contact(0), &Act::Close);
    answer(&mut m, &fx, closed.clone());
    m.list.store.replace(server(&closed, &Act::Tag(vec!["new".into()])));
    assert_eq!(press_u(&mut m).len(), 1);
}

#[test]
fn the_history_keeps_the_last_twenty_newest_first_and_undoes_the_selected() {
    let mut m = model_with(30, 160, 48);
    for i in 0..25 {
        if i > 0 {
            update(&mut m, key('j'));
        }
        let c = m.list.selected_contact().unwrap();
        let fx = update(&mut m, key('c'));
        let kind = if c.is_open() { Act::Close } else { Act::Reopen };
        answer(&mut m, &fx, server(&c, &kind));
    }
    assert_eq!(m.act.undo.entries.len(), 20);
    assert_eq!(m.act.undo.entries[0].items[0].uuid, contact(24).uuid);
    assert_eq!(m.act.undo.entries[19].items[0].uuid, contact(5).uuid);
    update(&mut m, key('U'));
    update(&mut m, key('j'));
    update(&mut m, key('j'));
    let sent = applies(&update(&mut m, key('u')));
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].1, contact(22).uuid, "the selected entry");
}

#[test]
fn u_with_nothing_done_says_so() {
    let mut m = model_with(20, 160, 48);
    assert!(press_u(&mut m).is_empty());
    assert_eq!(toast(&m), "nothing to undo");
}

#[test]
fn an_undo_that_partly_fails_can_be_finished_from_the_history() {
    let mut m = model_with(20, 160, 48);
    bulk(&mut m, Act::Close, &[0, 1, 2], &[]);
    let fx = update(&mut m, key('u'));
    let sent = run_to_end(&mut m, fx, &[contact(1).uuid]);
    assert_eq!(sent.len(), 3);
    let id = m.act.undo.entries[0].id;
    assert_eq!(m.act.undo.state(id, &m.list), Some(State::Undoable(1)), "one is left");
    update(&mut m, key('U'));
    let fx = update(&mut m, code(KeyCode::Enter));
    let sent = run_to_end(&mut m, fx, &[]);
    assert_eq!(sent, vec![(contact(1).uuid, Act::Reopen)]);
    assert_eq!(m.act.undo.state(id, &m.list), Some(State::Undone));
    assert!(m.list.contact(&contact(1).uuid).unwrap().is_open());
}
