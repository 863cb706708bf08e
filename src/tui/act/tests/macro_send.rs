//! A macro's message: `snippet NAME` filled per contact, `send` sending
//! it through the composer's send once the writes went through, `u`
//! taking back the writes and saying the messages stay sent; a variable
//! with no value refuses that contact, and without `send` the snippet
//! goes in the composer to be read.

use std::sync::Arc;

use super::undo::server;
use super::*;
use crate::api::{DeliveryStatus, FieldValue, SentMessage};
use crate::triage::bulk::Action as Act;
use crate::tui::compose::{ComposeEffect, ComposeMsg};
use crate::tui::keymap::Keymap;

const MACROS: &str = r#"
[macros.escalate]
key = "E"
label = "Escalate"
steps = ["tag escalated", "snippet sorry", "send", "close"]
[macros.plan]
key = "W"
steps = ["snippet plan", "send"]
[macros.draft]
key = "X"
steps = ["tag escalated", "snippet sorry"]
[macros.bye]
key = "Y"
steps = ["send Bye {{contact.first_name}}!"]
"#;

const SNIPPETS: &str = r#"
sorry = "Sorry {{contact.first_name}}, {{agent.name}} has it now."
plan = "Your {{contact.custom.plan}} plan is renewed."
"#;

fn setup() -> Model {
    let mut m = model_with(20, 160, 48);
    let doc: toml::Table = MACROS.parse().unwrap();
    let (macros, warnings) = crate::macros::parse(doc["macros"].as_table().unwrap(), &now());
    assert!(warnings.is_empty(), "{warnings:?}");
    let (map, problems) = Keymap::resolve_with(&[], &macros);
    assert!(problems.is_empty(), "{problems:?}");
    m.keys = Arc::new(map);
    m.session.macros = macros;
    m.compose.snippets = crate::snippets::parse(SNIPPETS).unwrap();
    m.details.me.name = Some("Dana".into());
    m
}

fn applies(fx: &[Effect]) -> Vec<(u64, String, Act)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Apply { id, uuid, action, .. } => Some((*id, uuid.clone(), action.clone())),
            _ => None,
        })
        .collect()
}

/// The sends among `fx`: (request id, contact, text).
fn sends(fx: &[Effect]) -> Vec<(u64, String, String)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Compose(ComposeEffect::Send { id, contact, body }) => {
                Some((*id, contact.clone(), body.content.text.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Answers every write (all go through); the sends made on the way.
fn answer_all(m: &mut Model, first: Vec<Effect>) -> Vec<(u64, String, String)> {
    let mut out = applies(&first);
    let mut sent = sends(&first);
    while !out.is_empty() {
        let (id, uuid, action) = out.remove(0);
        let result = Ok(server(&m.list.contact(&uuid).expect("loaded"), &action));
        let more = update(
            m,
            Msg::Applied {
                id,
                uuid,
                answer: result.into(),
            },
        );
        out.extend(applies(&more));
        sent.extend(sends(&more));
    }
    sent
}

fn toast(m: &Model) -> String {
    m.status.current().map(|t| t.text.clone()).unwrap_or_default()
}

#[test]
fn the_snippet_is_filled_per_contact_and_sent_to_each_marked_one_after_its_writes() {
    let mut m = setup();
    let (a, b) = (contact(0), contact(2));
    m.marks.insert(&a.uuid);
    m.marks.insert(&b.uuid);
    let fx = update(&mut m, key('E'));
    assert!(sends(&fx).is_empty(), "nothing is sent before the writes land");
    let sent = answer_all(&mut m, fx);
    let mut texts: Vec<(String, String)> = sent.iter().map(|(_, u, t)| (u.clone(), t.clone())).collect();
    texts.sort();
    let mut want = vec![
        (a.uuid.clone(), "Sorry Ana, Dana has it now.".to_string()),
        (
            b.uuid.clone(),
            format!("Sorry {}, Dana has it now.", b.name.split_whitespace().next().unwrap()),
        ),
    ];
    want.sort();
    assert_eq!(texts, want, "one send per contact, its own name in it");
    assert!(toast(&m).contains("macro Escalate: 2 done, 2 sent"), "{}", toast(&m));
    // The thread shows them as sending, through the composer's outbox.
    assert_eq!(m.compose.outbox.iter().filter(|o| o.sending.is_some()).count(), 2);
    // The service's answer lands as a composer send's does.
    let (id, contact, _) = sent[0].clone();
    update(
        &mut m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact,
            result: Ok(SentMessage {
                uuid: "msg-1".into(),
                status: DeliveryStatus::Sent,
            }),
        }),
    );
    assert_eq!(m.compose.outbox.iter().filter(|o| o.sending.is_some()).count(), 1);
}

#[test]
fn u_takes_back_the_writes_at_once_and_says_the_message_stays_sent() {
    let mut m = setup();
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('E'));
    let sent = answer_all(&mut m, fx);
    assert_eq!(sent.len(), 1);
    assert!(m.list.contact(&uuid).unwrap().closed_at.is_some());
    assert_eq!(m.act.undo.entries[0].stays.as_deref(), Some("the message stays sent"));
    // No "sending cannot be undone" first: the send is the macro's own.
    let fx = update(&mut m, key('u'));
    let undo = applies(&fx);
    assert!(!undo.is_empty(), "the first u undoes: {}", toast(&m));
    let again = answer_all(&mut m, fx);
    assert!(again.is_empty(), "an undo sends nothing");
    let c = m.list.contact(&uuid).unwrap();
    assert!(c.closed_at.is_none() && !c.tags.contains(&"escalated".to_string()));
    assert!(toast(&m).contains("the message stays sent"), "{}", toast(&m));
}

#[test]
fn a_variable_with_no_value_refuses_that_contact_whole_and_says_why() {
    let mut m = setup();
    let (a, b) = (contact(0), contact(2));
    let mut with_plan = b.clone();
    with_plan
        .custom_fields
        .insert("plan".into(), FieldValue::Text("Gold".into()));
    m.list.store.replace(with_plan);
    m.marks.insert(&a.uuid);
    m.marks.insert(&b.uuid);
    let fx = update(&mut m, key('W'));
    let sent = sends(&fx);
    assert_eq!(
        sent.iter().map(|(_, u, t)| (u.clone(), t.clone())).collect::<Vec<_>>(),
        vec![(b.uuid.clone(), "Your Gold plan is renewed.".to_string())],
        "only the contact with a plan gets it"
    );
    let t = toast(&m);
    assert!(
        t.contains(&format!(
            "1 sent, 1 not sent: no {{{{contact.custom.plan}}}} ({})",
            a.name
        )),
        "{t}"
    );
    assert!(m.marks.contains(&a.uuid), "the refused contact stays marked");
    // Alone, nothing is done at all.
    m.marks.clear();
    m.marks.insert(&a.uuid);
    let fx = update(&mut m, key('W'));
    assert!(sends(&fx).is_empty());
    assert!(
        toast(&m).ends_with(&format!("nothing done: no {{{{contact.custom.plan}}}} ({})", a.name)),
        "{}",
        toast(&m)
    );
}

#[test]
fn without_send_the_snippet_goes_in_the_composer_for_the_one_contact() {
    let mut m = setup();
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('X'));
    let sent = answer_all(&mut m, fx);
    assert!(sent.is_empty(), "nothing is sent");
    assert_eq!(m.compose.open.as_deref(), Some(uuid.as_str()));
    assert_eq!(m.compose.draft(&uuid), "Sorry Ana, Dana has it now.");
    // On two contacts it is refused before anything is done.
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key('y'));
    m.marks.insert(&contact(0).uuid);
    m.marks.insert(&contact(2).uuid);
    let fx = update(&mut m, key('X'));
    assert!(applies(&fx).is_empty());
    assert!(toast(&m).contains("run it on one contact"), "{}", toast(&m));
}

#[test]
fn send_text_fills_its_variables_and_goes_at_once_without_writes() {
    let mut m = setup();
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('Y'));
    assert_eq!(
        sends(&fx).into_iter().map(|(_, u, t)| (u, t)).collect::<Vec<_>>(),
        vec![(uuid, "Bye Ana!".to_string())]
    );
    assert!(toast(&m).contains("macro bye: 1 sent"), "{}", toast(&m));
}

#[test]
fn help_and_the_palette_say_which_macros_send() {
    let m = setup();
    let row = |name: &str| {
        m.keys
            .rows()
            .iter()
            .find(|r| r.name == name)
            .map(|r| r.help.clone())
            .unwrap()
    };
    assert_eq!(row("macro.escalate"), "Escalate (sends)");
    assert_eq!(row("macro.draft"), "draft");
}

#[test]
fn a_macro_send_that_fails_names_its_contact() {
    let mut m = setup();
    let (a, b) = (contact(0), contact(2));
    m.marks.insert(&a.uuid);
    m.marks.insert(&b.uuid);
    let fx = update(&mut m, key('Y'));
    let sent = sends(&fx);
    assert_eq!(sent.len(), 2);
    let (id, to, _) = sent.into_iter().find(|(_, u, _)| *u == b.uuid).unwrap();
    update(
        &mut m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact: to,
            result: Err(ApiError::Server {
                status: 500,
                message: "boom".into(),
            }),
        }),
    );
    let t = toast(&m);
    assert!(t.starts_with(&format!("{}: could not send", b.name)), "{t}");
}

#[test]
fn a_macro_send_asks_first_when_a_colleague_is_answering_or_just_answered() {
    let mut m = setup();
    let uuid = m.list.selected_uuid().unwrap();
    m.colleagues.me = Some("bea".into());
    m.colleagues.set(
        "dana",
        &uuid,
        Some(crate::tui::shared::colleagues::Doing::Composing),
        now() + chrono::Duration::seconds(30),
    );
    m.now = now();
    let fx = update(&mut m, key('Y'));
    assert!(sends(&fx).is_empty(), "nothing is sent before a yes");
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("a question, got {:?}", m.overlay)
    };
    assert_eq!(
        c.question,
        "dana is replying now (Ana Souza): run bye, sending a message anyway?"
    );
    // No: nothing goes.
    let fx = update(&mut m, key('n'));
    assert!(sends(&fx).is_empty() && m.overlay.is_none());
    // Yes: it goes, asked once.
    update(&mut m, key('Y'));
    let fx = update(&mut m, key('y'));
    assert_eq!(sends(&fx).len(), 1, "sent after the yes");
    assert!(m.overlay.is_none());

    // A colleague's reply a minute ago asks too; one long past does not.
    let mut m = setup();
    m.now = now();
    m.colleagues.sent("dana", &uuid, now() - chrono::Duration::seconds(60));
    update(&mut m, key('Y'));
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("a question, got {:?}", m.overlay)
    };
    assert!(
        c.question.starts_with("dana replied 1 min ago (Ana Souza)"),
        "{}",
        c.question
    );
    let mut m = setup();
    m.now = now();
    m.colleagues.sent("dana", &uuid, now() - chrono::Duration::minutes(10));
    let fx = update(&mut m, key('Y'));
    assert_eq!(sends(&fx).len(), 1, "no question");
}
