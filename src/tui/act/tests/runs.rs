//! Runs made elsewhere (the CLI, an assistant) joining the history.

use chrono::Duration;

use super::*;
use crate::triage::bulk::Action;
use crate::triage::history::{Entry, Record};
use crate::tui::act::{RunsMsg, UndoState};

fn record(id: &str, mins_ago: i64, what: &str, uuids: &[usize], undo_of: Option<&str>) -> Record {
    Record {
        id: id.into(),
        at: now() - Duration::minutes(mins_ago),
        base_url: "b".into(),
        profile: "p".into(),
        action: Action::Close,
        what: what.into(),
        total: uuids.len(),
        interrupted: false,
        undo_of: undo_of.map(String::from),
        contacts: uuids
            .iter()
            .map(|&i| {
                let before = contact(i);
                let mut after = before.clone();
                after.closed_at = Some(now());
                Entry {
                    uuid: before.uuid.clone(),
                    name: before.name.clone(),
                    outcome: "applied".into(),
                    error: None,
                    before: Some(before),
                    after: Some(after),
                }
            })
            .collect(),
    }
}

#[test]
fn runs_join_the_history_by_time_once_and_an_undone_one_says_so() {
    let mut m = model_with(20, 160, 48);
    // One of the agent's own, a minute ago.
    let fx = update(&mut m, key('c'));
    super::undo::answer(&mut m, &fx, super::undo::server(&contact(0), &Action::Close));
    m.act.undo.entries[0].at = now() - Duration::minutes(1);
    let records = vec![
        record("r1", 10, "view Open", &[1, 2], None),
        record("r2", 0, "by assistant (frontdesk mcp)", &[3], None),
        record("r1-undo", 5, "undone", &[1, 2], Some("r1")),
    ];
    for _ in 0..2 {
        update(&mut m, Msg::Runs(RunsMsg::Loaded(Ok(records.clone()))));
    }
    let e = &m.act.undo.entries;
    assert_eq!(e.len(), 3, "each run once, the undo none of its own");
    assert!(e[0].what.contains("by assistant (frontdesk mcp)"), "{}", e[0].what);
    assert!(e[0].what.contains(&contact(3).name), "{}", e[0].what);
    assert_eq!(e[1].run, None, "the agent's own, by time");
    assert_eq!(e[2].what, "closed (2 contacts) · CLI run r1");
    assert_eq!(m.act.undo.state(e[2].id, &m.list), Some(UndoState::Undone));
    assert_eq!(m.act.undo.state(e[0].id, &m.list), Some(UndoState::Undoable(1)));
    // `u` still offers the agent's own newest, never a run from elsewhere.
    assert_eq!(m.act.undo.offered(now()), Some(e[1].id));
}

#[test]
fn a_history_file_that_cannot_be_read_is_said() {
    let mut m = model_with(20, 80, 24);
    update(
        &mut m,
        Msg::Runs(RunsMsg::Loaded(Err("/x/history.jsonl: denied\u{1b}[2J".into()))),
    );
    let t = m.status.current().unwrap().text.clone();
    assert!(
        t.starts_with("could not read the run history: /x/history.jsonl: denied"),
        "{t}"
    );
    assert!(!t.contains('\u{1b}'));
}
