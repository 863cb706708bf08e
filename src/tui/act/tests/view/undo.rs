//! The undo toast and the history overlay (`U`), at both sizes.

use chrono::Duration;
use insta::assert_snapshot;

use super::{draw, rich};
use crate::api::Contact;
use crate::triage::bulk::{Action, Reverse};
use crate::tui::act::Item;
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::update::update;

/// `c` on the selected contact, and the server says it is closed.
pub(crate) fn close_selected(m: &mut Model) {
    let fx = update(m, key('c'));
    let (id, uuid) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Apply {
                id,
                uuid,
                action: crate::triage::bulk::Action::Close,
                ..
            } => Some((*id, uuid.clone())),
            _ => None,
        })
        .expect("a close");
    let mut after = m.list.contact(&uuid).unwrap();
    after.closed_at = Some(now());
    update(
        m,
        Msg::Applied {
            id,
            uuid,
            answer: (Ok(after)).into(),
        },
    );
}

#[test]
fn the_undo_toast_offers_u() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = rich(w, h);
        close_selected(&mut m);
        let text = format!("{}", draw(&m).backend());
        assert!(
            text.contains("closed (Ana Souza)") && text.contains(" u undo "),
            "{text}"
        );
        assert_snapshot!(format!("undo_toast_{w}x{h}"), draw(&m).backend());
        // Past its window the offer goes with the toast.
        update(&mut m, Msg::Tick(now() + Duration::seconds(11)));
        assert!(!format!("{}", draw(&m).backend()).contains("u undo"));
    }
}

/// An entry on contacts `rows` whose rows now are `now` (as the list has
/// them) and were `after` when the action ended.
fn item(m: &Model, i: usize, action: Action, reverse: Reverse, after: impl Fn(Contact) -> Contact) -> Item {
    let c = m.list.contact(&contact(i).uuid).unwrap();
    Item {
        uuid: c.uuid.clone(),
        name: c.name.clone(),
        action,
        reverse,
        before: c.clone(),
        after: after(c),
        bot_after: None,
        undone: false,
        conflicts: Vec::new(),
    }
}

/// A history of five actions in every state, the newest selected.
fn with_history(w: u16, h: u16) -> Model {
    let mut m = rich(w, h);
    let at = |mins| now() - Duration::minutes(mins);
    // Someone changed the note since.
    let note = item(
        &m,
        2,
        Action::Note("call back".into()),
        Reverse::Do(Action::Note(String::new())),
        |mut c| {
            c.note = Some("call back".into());
            c
        },
    );
    let mut changed = note.after.clone();
    changed.note = Some("someone else's note".into());
    m.list.store.replace(changed);
    m.act.undo.push(
        at(40),
        Action::Note("call back".into()),
        "note set (李小龙 Bruce)".into(),
        vec![note],
    );
    // Undone already (a hostile name, sanitized when recorded).
    let mut red = item(&m, 1, Action::Close, Reverse::Do(Action::Reopen), |c| c);
    red.undone = true;
    let what = format!("closed ({})", crate::text::sanitize_line(&red.name));
    m.act.undo.push(at(30), Action::Close, what, vec![red]);
    // The API cannot clear a team.
    let team = item(
        &m,
        0,
        Action::Team("team-2".into()),
        Reverse::Cannot("the API cannot clear a team"),
        |c| c,
    );
    m.act.undo.push(
        at(20),
        Action::Team("team-2".into()),
        "team set to Sales (Ana Souza)".into(),
        vec![team],
    );
    // A run on many: tags added on three.
    let tagged: Vec<Item> = [5, 6, 7]
        .into_iter()
        .map(|i| {
            item(
                &m,
                i,
                Action::Tag(vec!["vip".into()]),
                Reverse::Do(Action::Untag(vec!["vip".into()])),
                |c| c,
            )
        })
        .collect();
    m.act.undo.push(
        at(5),
        Action::Tag(vec!["vip".into()]),
        "tagged vip (3 contacts)".into(),
        tagged,
    );
    close_selected(&mut m);
    update(&mut m, key('U'));
    m
}

#[test]
fn the_history_overlay() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = with_history(w, h);
        let text = format!("{}", draw(&m).backend());
        for want in [
            "can undo",
            "undone",
            "cannot undo",
            "changed since",
            "Enter undoes it on 1 contact",
        ] {
            assert!(text.contains(want), "{want} in\n{text}");
        }
        assert_snapshot!(format!("history_{w}x{h}"), draw(&m).backend());
        // The selected entry's reason shows at the foot.
        for _ in 0..4 {
            update(&mut m, key('j'));
        }
        let text = format!("{}", draw(&m).backend());
        assert!(text.contains("changed since: 李小龙 Bruce"), "{text}");
    }
}

#[test]
fn an_empty_history_says_what_shows_there() {
    let mut m = rich(80, 24);
    update(&mut m, key('U'));
    assert_snapshot!("history_empty_80x24", draw(&m).backend());
}
