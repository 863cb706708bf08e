//! Notifications, reopening and wait thresholds through the root's update,
//! as a sync brings a customer's message in.

mod quiet;
mod rules;
mod waits;

use chrono::Duration;

use crate::api::Contact;
use crate::index::{Changes, Preview, Who};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::msg::index::IndexMsg;
use crate::tui::update::update;

const ME: &str = "agent@example.test";

/// A complete index of `n` contacts for the agent, started as the app
/// starts, after `setup` (config) ran. Mine is the current view.
fn started(n: usize, setup: impl FnOnce(&mut Model)) -> Model {
    let mut m = indexed_model(n, 120, 30);
    m.views = crate::tui::inbox::views::Views::new(Vec::new(), Some(ME.into()));
    setup(&mut m);
    crate::tui::update::startup(&mut m);
    update(&mut m, Msg::Tick(now()));
    m
}

/// Contact `i` as a sync pass brings it after a message `ago` before now.
fn with_message(i: usize, ago: Duration) -> Contact {
    let mut c = contact(i);
    c.activity_at = Some(now() - ago);
    c
}

/// A sync pass brings contact `i` a new message by `who` (`text`), written
/// `n` seconds into the last minute, then the index its last message:
/// every effect the two updates asked for.
fn writes_at(m: &mut Model, i: usize, n: i64, who: Who, text: &str) -> Vec<Effect> {
    let c = with_message(i, Duration::seconds(60 - n));
    let activity = c.last_activity();
    let mut fx = update(
        m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![c.clone()],
            removed: Vec::new(),
        })),
    );
    let preview = Preview {
        who: Some(who),
        text: text.into(),
        at: c.activity_at,
        activity,
        wait: Default::default(),
    };
    fx.extend(update(
        m,
        Msg::Index(IndexMsg::Previews(vec![(c.uuid.clone(), preview)])),
    ));
    fx
}

/// [`writes_at`], each message a second after the one before.
fn writes(m: &mut Model, i: usize, who: Who, text: &str) -> Vec<Effect> {
    let n = NEXT.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    writes_at(m, i, n, who, text)
}

thread_local! {
    static NEXT: std::cell::Cell<i64> = const { std::cell::Cell::new(0) };
}

/// The notification bytes `fx` writes to the terminal, if any.
fn notified(fx: &[Effect]) -> Option<String> {
    fx.iter().find_map(|e| match e {
        Effect::Terminal(b) => Some(b.clone()),
        _ => None,
    })
}

fn uuid(i: usize) -> String {
    contact(i).uuid
}

/// How many loaded contacts view `name` holds.
fn held(m: &Model, name: &str) -> Vec<String> {
    let v = m.views.all.iter().find(|v| v.name == name).expect("the view");
    let me = m.views.me.as_deref();
    m.list
        .store
        .iter()
        .filter(|r| {
            v.filter
                .matches(&crate::tui::inbox::views::RowFacts::badged(r, &m.badges), me, m.now)
        })
        .map(|r| r.uuid.to_string())
        .collect()
}

#[test]
fn a_burst_of_messages_in_one_pass_is_one_notification_with_a_count() {
    let mut m = started(10, |_| {});
    m.slices.notify.focused = false;
    // Contacts 0 and 2 are mine; both customers write in the same pass.
    let cs: Vec<Contact> = [0, 2].iter().map(|&i| with_message(i, Duration::seconds(5))).collect();
    let mut fx = update(
        &mut m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: cs.clone(),
            removed: Vec::new(),
        })),
    );
    let previews = cs
        .iter()
        .map(|c| {
            let p = Preview {
                who: Some(Who::Customer),
                text: "hello".into(),
                at: c.activity_at,
                activity: c.last_activity(),
                wait: Default::default(),
            };
            (c.uuid.clone(), p)
        })
        .collect();
    fx.extend(update(&mut m, Msg::Index(IndexMsg::Previews(previews))));
    let shown: Vec<&String> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Terminal(b) => Some(b),
            _ => None,
        })
        .collect();
    assert_eq!(shown.len(), 1, "one notification: {shown:?}");
    assert!(shown[0].contains("2 new in Mine"), "{}", shown[0]);
}
