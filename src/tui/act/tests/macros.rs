//! Macros: a key runs the steps on the selected contact or on every mark,
//! per contact and in order, as one run and one entry of the history that
//! `u` takes back as one step; its key is in help and the palette, `[keys]`
//! rebinds it, and a key another row holds is refused, naming both.

use std::sync::Arc;

use super::*;
use crate::api::Contact;
use crate::triage::bulk::Action as Act;
use crate::tui::keymap::Keymap;

use super::undo::server;

const TRIAGE: &str = r#"
[macros.triage]
key = "E"
label = "Triage to Dana"
steps = ["tag escalated", "assign dana@frontdesk.example", "close"]
"#;

fn macros(text: &str) -> Vec<crate::macros::Macro> {
    let doc: toml::Table = text.parse().unwrap();
    let table = doc["macros"].as_table().unwrap().clone();
    let (macros, warnings) = crate::macros::parse(&table, &now());
    assert!(warnings.is_empty(), "{warnings:?}");
    macros
}

/// A model whose session has the macros of `text` (and `[keys]` entries).
fn with_macros(text: &str, keys: &[crate::config::KeyEntry]) -> (Model, Vec<String>) {
    let mut m = model_with(20, 160, 48);
    let macros = macros(text);
    let (map, problems) = Keymap::resolve_with(keys, &macros);
    m.keys = Arc::new(map);
    m.session.macros = macros;
    (m, problems)
}

fn applies(fx: &[Effect]) -> Vec<(u64, String, Act)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Apply { id, uuid, action, .. } => Some((*id, uuid.clone(), action.clone())),
            _ => None,
        })
        .collect()
}

/// Answers every write until none is left (`fails` picks the ones that
/// fail); what was sent, in the order it went out.
fn answer_all(m: &mut Model, first: Vec<Effect>, fails: &dyn Fn(&str, &Act) -> bool) -> Vec<(String, Act)> {
    let mut out = applies(&first);
    let mut sent = Vec::new();
    while !out.is_empty() {
        let (id, uuid, action) = out.remove(0);
        // One request per contact at a time.
        assert!(!out.iter().any(|(_, u, _)| *u == uuid), "two requests out for {uuid}");
        sent.push((uuid.clone(), action.clone()));
        let result = if fails(&uuid, &action) {
            Err(ApiError::Server {
                status: 500,
                message: "boom".into(),
            })
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
        out.extend(applies(&more));
    }
    sent
}

fn steps(uuid: &str) -> Vec<(String, Act)> {
    vec![
        (uuid.to_string(), Act::Tag(vec!["escalated".into()])),
        (uuid.to_string(), Act::Assign("dana@frontdesk.example".into())),
        (uuid.to_string(), Act::Close),
    ]
}

/// The sent actions of `uuid`, in order.
fn of(sent: &[(String, Act)], uuid: &str) -> Vec<(String, Act)> {
    sent.iter().filter(|(u, _)| u == uuid).cloned().collect()
}

fn toast(m: &Model) -> String {
    m.status.current().map(|t| t.text.clone()).unwrap_or_default()
}

/// The fields a macro changes, to compare before and after an undo.
fn fields(c: &Contact) -> (Vec<String>, Option<String>, bool) {
    let mut tags = c.tags.clone();
    tags.sort();
    (tags, c.assigned_user.clone(), c.closed_at.is_some())
}

#[test]
fn a_macro_on_one_contact_runs_its_steps_in_order_and_u_takes_them_all_back() {
    let (mut m, problems) = with_macros(TRIAGE, &[]);
    assert!(problems.is_empty(), "{problems:?}");
    let uuid = m.list.selected_uuid().unwrap();
    let before = fields(&m.list.contact(&uuid).unwrap());
    let fx = update(&mut m, key('E'));
    assert_eq!(applies(&fx).len(), 1, "one step out at a time");
    let sent = answer_all(&mut m, fx, &|_, _| false);
    assert_eq!(sent, steps(&uuid));
    let after = m.list.contact(&uuid).unwrap();
    assert_eq!(
        fields(&after),
        (
            vec!["escalated".to_string(), "vip".to_string()],
            Some("dana@frontdesk.example".into()),
            true
        )
    );
    // One entry, named by the macro.
    assert_eq!(m.act.undo.entries.len(), 1);
    let entry = &m.act.undo.entries[0];
    assert_eq!((entry.items.len(), entry.contacts()), (3, 1));
    assert!(entry.what.contains("ran Triage to Dana (Ana Souza)"), "{}", entry.what);
    assert_eq!(toast(&m), "macro Triage to Dana: 1 done");
    // `u`: the last step first, each guarded by what it did.
    let fx = update(&mut m, key('u'));
    let undo = answer_all(&mut m, fx, &|_, _| false);
    assert_eq!(
        undo,
        vec![
            (uuid.clone(), Act::Reopen),
            (uuid.clone(), Act::Assign("agent@example.test".into())),
            (uuid.clone(), Act::Untag(vec!["escalated".into()])),
        ]
    );
    assert_eq!(fields(&m.list.contact(&uuid).unwrap()), before);
    assert!(m.act.undo.entries[0].items.iter().all(|i| i.undone));
    assert_eq!(m.act.undo.entries.len(), 1, "the undo is not an entry of its own");
}

#[test]
fn the_undo_jobs_carry_each_steps_own_guard() {
    let (mut m, _) = with_macros(TRIAGE, &[]);
    let fx = update(&mut m, key('E'));
    answer_all(&mut m, fx, &|_, _| false);
    let jobs = m.act.undo.entries[0].jobs();
    let guarded: Vec<Act> = jobs
        .iter()
        .map(|j| match j.guard.as_deref() {
            Some(crate::tui::act::Guard::Undo { action, .. }) => action.clone(),
            other => panic!("not an undo guard: {other:?}"),
        })
        .collect();
    assert_eq!(
        guarded,
        vec![
            Act::Close,
            Act::Assign("dana@frontdesk.example".into()),
            Act::Tag(vec!["escalated".into()])
        ]
    );
}

#[test]
fn on_marks_it_runs_per_contact_and_u_undoes_every_step_on_every_contact() {
    let (mut m, _) = with_macros(TRIAGE, &[]);
    let marked: Vec<String> = (0..3).map(|i| contact(i).uuid).collect();
    let before: Vec<_> = marked.iter().map(|u| fields(&m.list.contact(u).unwrap())).collect();
    for u in &marked {
        m.marks.insert(u);
    }
    let fx = update(&mut m, key('E'));
    let first: Vec<String> = applies(&fx).into_iter().map(|a| a.1).collect();
    assert_eq!(first, marked, "each contact's first step goes out together");
    let sent = answer_all(&mut m, fx, &|_, _| false);
    for u in &marked {
        assert_eq!(of(&sent, u), steps(u), "{u}'s steps in order");
    }
    assert!(m.marks.is_empty(), "done contacts lose their marks");
    assert_eq!(m.act.undo.entries.len(), 1);
    assert_eq!(m.act.undo.entries[0].contacts(), 3);
    assert!(m.act.undo.entries[0].what.contains("(3 contacts)"));
    let fx = update(&mut m, key('u'));
    let undo = answer_all(&mut m, fx, &|_, _| false);
    assert_eq!(undo.len(), 9);
    for (u, was) in marked.iter().zip(&before) {
        assert_eq!(of(&undo, u)[0].1, Act::Reopen, "{u}: the close is taken back first");
        assert_eq!(&fields(&m.list.contact(u).unwrap()), was, "{u} is as before");
    }
}

#[test]
fn a_partly_failed_macro_says_what_failed_and_skips_that_contacts_later_steps() {
    let (mut m, _) = with_macros(TRIAGE, &[]);
    let (a, b) = (contact(0).uuid, contact(2).uuid);
    m.marks.insert(&a);
    m.marks.insert(&b);
    let fx = update(&mut m, key('E'));
    let sent = answer_all(&mut m, fx, &|u, act| u == b && matches!(act, Act::Assign(_)));
    assert_eq!(of(&sent, &a), steps(&a));
    assert_eq!(
        of(&sent, &b),
        steps(&b)[..2].to_vec(),
        "no close after the failed assign"
    );
    let Some(Overlay::Summary(s)) = &m.overlay else {
        panic!("a summary, got {:?}", m.overlay)
    };
    assert!(s.counts.starts_with("1 done · 1 failed"), "{}", s.counts);
    assert!(s.title.starts_with("Macro Triage to Dana"), "{}", s.title);
    let lines = s.failures.join("\n");
    assert!(lines.contains("李小龙 Bruce (assign): "), "{lines}");
    assert!(
        lines.contains("李小龙 Bruce (close): not run: an earlier step failed"),
        "{lines}"
    );
    assert_eq!(m.marks.iter().cloned().collect::<Vec<_>>(), vec![b.clone()]);
    // The entry holds what went through: u takes back Bruce's tag too.
    update(&mut m, code(KeyCode::Esc));
    let fx = update(&mut m, key('u'));
    let undo = answer_all(&mut m, fx, &|_, _| false);
    assert_eq!(of(&undo, &a).len(), 3);
    assert_eq!(of(&undo, &b), vec![(b.clone(), Act::Untag(vec!["escalated".into()]))]);
}

#[test]
fn a_macro_with_an_unknown_team_or_snippet_is_refused_whole() {
    let text = r#"
[macros.billing]
key = "E"
steps = ["tag escalated", "team Billing"]
[macros.thanks]
key = "X"
steps = ["close", "snippet nosuch", "send"]
"#;
    let (mut m, _) = with_macros(text, &[]);
    assert!(applies(&update(&mut m, key('E'))).is_empty());
    assert!(
        toast(&m).contains("no team named Billing; nothing was done"),
        "{}",
        toast(&m)
    );
    assert!(applies(&update(&mut m, key('X'))).is_empty());
    assert!(
        toast(&m).contains("no snippet named nosuch; nothing was done"),
        "{}",
        toast(&m)
    );
    // With the team known by name, it is set by its uuid.
    m.known.teams.push(("team-9".into(), "Billing".into()));
    let fx = update(&mut m, key('E'));
    let sent = answer_all(&mut m, fx, &|_, _| false);
    assert_eq!(sent.last().map(|s| s.1.clone()), Some(Act::Team("team-9".into())));
}

#[test]
fn a_snooze_step_follows_the_writes() {
    let text = r#"
[macros.later]
key = "E"
steps = ["tag escalated", "snooze 2h"]
"#;
    let (mut m, _) = with_macros(text, &[]);
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('E'));
    assert!(
        !m.slices.snooze.asleep.contains_key(&uuid),
        "not before the writes land"
    );
    answer_all(&mut m, fx, &|_, _| false);
    assert!(m.slices.snooze.asleep.contains_key(&uuid), "snoozed once they did");
}

#[test]
fn macro_keys_are_in_help_and_the_palette_and_the_palette_runs_them() {
    let (mut m, _) = with_macros(TRIAGE, &[]);
    let help = crate::tui::overlays::help_rows(&m.keys);
    assert!(help.iter().any(|r| matches!(r,
        crate::tui::overlays::HelpRow::Key { label, help, name }
            if label == "E" && help == "Triage to Dana" && name == "macro.triage")));
    update(&mut m, key(':'));
    type_text(&mut m, "macro.triage");
    let fx = update(&mut m, code(KeyCode::Enter));
    assert_eq!(
        applies(&fx).first().map(|a| a.2.clone()),
        Some(Act::Tag(vec!["escalated".into()]))
    );
}

#[test]
fn keys_rebinds_a_macro_and_a_taken_key_is_refused_naming_both() {
    let entry = crate::config::KeyEntry {
        action: "macro.triage".into(),
        keys: vec!["X".into()],
        at: "config.toml line 9".into(),
    };
    let (mut m, problems) = with_macros(TRIAGE, &[entry]);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(applies(&update(&mut m, key('E'))).is_empty(), "E no longer runs it");
    assert_eq!(applies(&update(&mut m, key('X'))).len(), 1);

    let taken = TRIAGE.replace("key = \"E\"", "key = \"c\"");
    let (mut m, problems) = with_macros(&taken, &[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("macro.triage") && problems[0].contains("already bound to close"),
        "{}",
        problems[0]
    );
    // `c` still closes; the macro is in the palette, keyless.
    assert_eq!(
        applies(&update(&mut m, key('c'))).first().map(|a| a.2.clone()),
        Some(Act::Close)
    );
    assert!(
        m.keys
            .rows()
            .iter()
            .any(|r| r.name == "macro.triage" && r.keys.is_empty())
    );
}
