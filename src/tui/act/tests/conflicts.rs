//! An undo that finds a colleague's edit on the service leaves it.

use super::*;
use crate::triage::bulk::Action as Act;
use crate::tui::act::UndoState as State;
use crate::tui::act::tests::undo::bulk;

/// The undo re-reads each contact (its jobs carry a guard); a contact the
/// service shows changed since comes back as a conflict: it is counted,
/// named with its field in the summary, and not offered again.
#[test]
fn an_undo_that_finds_a_colleagues_edit_leaves_it_and_says_so() {
    let mut m = model_with(20, 160, 48);
    bulk(&mut m, Act::Assign("me@x.co".into()), &[0, 1], &[]);
    let entry = m.act.undo.entries[0].id;
    let fx = update(&mut m, key('u'));
    let mut guarded = Vec::new();
    for e in &fx {
        if let Effect::Apply { id, uuid, guard, .. } = e {
            let Some(crate::tui::act::Guard::Undo { action, after, .. }) = guard.as_deref() else {
                panic!("an undo's write is guarded: {guard:?}")
            };
            assert_eq!(*action, Act::Assign("me@x.co".into()));
            assert_eq!(after.assigned_user.as_deref(), Some("me@x.co"));
            guarded.push((*id, uuid.clone()));
        }
    }
    assert_eq!(guarded.len(), 2);
    for (id, uuid) in guarded {
        let now = m.list.contact(&uuid).unwrap();
        let answer = if uuid == contact(0).uuid {
            let mut theirs = now.clone();
            theirs.assigned_user = Some("bob@x.co".into());
            crate::tui::act::Answer {
                result: Ok(theirs),
                before: None,
                conflicts: vec!["assignee is now bob@x.co (the run left me@x.co)".into()],
                reverted: Some(0),
                skipped: false,
                changed: None,
            }
        } else {
            crate::tui::act::Answer {
                reverted: Some(1),
                ..crate::tui::act::Answer::ok(contact(1))
            }
        };
        update(&mut m, Msg::Applied { id, uuid, answer });
    }
    assert!(
        m.status
            .toasts
            .iter()
            .any(|t| t.text.ends_with("1 done, 1 left as changed since")),
        "{:?}",
        m.status.toasts
    );
    let Some(crate::tui::model::Overlay::Summary(s)) = &m.overlay else {
        panic!("a summary: {:?}", m.overlay)
    };
    assert_eq!(s.heading, "Left as a colleague changed them:");
    assert_eq!(
        s.failures,
        vec![format!(
            "{}: assignee is now bob@x.co (the run left me@x.co)",
            contact(0).name
        )]
    );
    let e = m.act.undo.get(entry).unwrap();
    assert!(e.items.iter().any(|i| i.uuid == contact(1).uuid && i.undone));
    assert!(
        e.items
            .iter()
            .any(|i| i.uuid == contact(0).uuid && !i.conflicts.is_empty())
    );
    assert_eq!(m.act.undo.state(entry, &m.list), Some(State::Undone));
    // Nothing of it is offered again.
    update(&mut m, key('U'));
    assert!(
        update(&mut m, code(crossterm::event::KeyCode::Enter))
            .iter()
            .all(|e| !matches!(e, Effect::Apply { .. }))
    );
}
