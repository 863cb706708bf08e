//! `/` with a phone number (or a bsuid) no loaded contact has: the service
//! is asked, the customer it knows is a row of its own, Enter opens it.

use crate::api::ApiError;
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::inbox::contact_list::{LookupJob, LookupKey, SearchJob};
use crate::tui::inbox::{InboxEffect, InboxMsg};
use crate::tui::index_worker::IndexCmd;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::update::update;
use crate::tui::view::tests::draw;

fn screen(m: &Model) -> String {
    let t = draw(m);
    let buf = t.backend().buffer();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}

/// Types `text` after `/`, running each search at once; the lookups asked.
fn search(m: &mut Model, text: &str) -> Vec<LookupJob> {
    update(m, key('/'));
    type_more(m, text)
}

/// Types `text` into the query being typed; the lookups asked.
fn type_more(m: &mut Model, text: &str) -> Vec<LookupJob> {
    let mut asked = Vec::new();
    let mut fx = Vec::new();
    for c in text.chars() {
        fx.extend(update(m, key(c)));
    }
    while let Some(e) = fx.pop() {
        match e {
            Effect::Inbox(InboxEffect::SearchContacts(job)) => fx.extend(run(m, job)),
            Effect::Inbox(InboxEffect::LookUp(job)) => asked.push(job),
            _ => {}
        }
    }
    asked
}

fn run(m: &mut Model, job: SearchJob) -> Vec<Effect> {
    match job.run() {
        Some(done) => update(m, Msg::Inbox(InboxMsg::ContactsSearched(done))),
        None => Vec::new(),
    }
}

fn stranger() -> crate::api::Contact {
    let mut c = contact(900);
    c.name = "Ana Silva".into();
    c.phone_number = "+44 7700 900123".into();
    c
}

#[test]
fn a_number_no_contact_has_is_looked_up_and_enter_opens_the_customer_found() {
    let mut m = indexed_model(20, 80, 24);
    let asked = search(&mut m, "+44 7700-900123");
    let job = asked.last().expect("the service is asked for the number").clone();
    assert_eq!(job.key, LookupKey::Phone("+447700900123".into()));
    assert!(!job.stale(), "the last lookup asked is the one that goes");
    assert!(
        asked[..asked.len() - 1].iter().all(LookupJob::stale),
        "earlier ones stay home"
    );
    assert!(screen(&m).contains("up on the service"), "{}", screen(&m));

    update(
        &mut m,
        Msg::Inbox(InboxMsg::LookedUp {
            id: job.id,
            result: Ok(Box::new(stranger())),
        }),
    );
    let s = screen(&m);
    assert!(s.contains("Ana Silva") && s.contains("found on the service"), "{s}");
    assert!(s.lines().all(|l| l.chars().count() == 80), "the borders hold:\n{s}");

    let fx = update(&mut m, code(crossterm::event::KeyCode::Enter));
    assert!(m.list.view.search.is_none(), "the search closes");
    assert_eq!(m.list.selected_contact().map(|c| c.uuid), Some(stranger().uuid));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Index(IndexCmd::Store(c)) if c.uuid == stranger().uuid)),
        "the index keeps it: {fx:?}"
    );
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Thread(_))),
        "its thread loads at once: {fx:?}"
    );
}

#[test]
fn a_number_a_match_holds_is_not_looked_up() {
    let mut m = indexed_model(20, 80, 24);
    let phone = contact(3).phone_number;
    assert!(search(&mut m, &phone).is_empty(), "the list has it");
    let mut m = indexed_model(20, 80, 24);
    assert!(search(&mut m, "Ana").is_empty(), "a name is not a number");
    let mut m = indexed_model(20, 80, 24);
    assert!(search(&mut m, "12345").is_empty(), "too few digits");
}

#[test]
fn nobody_and_a_failure_say_so_and_a_stale_answer_is_dropped() {
    let mut m = indexed_model(20, 80, 24);
    let job = search(&mut m, "US.1234567890").pop().expect("a bsuid is looked up");
    assert_eq!(job.key, LookupKey::Bsuid("US.1234567890".into()));
    let missing = ApiError::NotFound { what: "contact".into() };
    update(
        &mut m,
        Msg::Inbox(InboxMsg::LookedUp {
            id: job.id,
            result: Err(missing),
        }),
    );
    assert!(
        screen(&m).contains("nobody on the service has bsuid US.1234567890"),
        "{}",
        screen(&m)
    );

    let mut m = indexed_model(20, 80, 24);
    let old = search(&mut m, "7700900123").pop().expect("looked up");
    let new = type_more(&mut m, "4").pop().expect("the longer number is asked again");
    assert!(old.stale());
    update(
        &mut m,
        Msg::Inbox(InboxMsg::LookedUp {
            id: old.id,
            result: Ok(Box::new(stranger())),
        }),
    );
    assert!(
        !screen(&m).contains("Ana Silva"),
        "the older number's answer is dropped"
    );
    let down = ApiError::Server {
        status: 503,
        message: "unavailable".into(),
    };
    update(
        &mut m,
        Msg::Inbox(InboxMsg::LookedUp {
            id: new.id,
            result: Err(down),
        }),
    );
    assert!(screen(&m).contains("could not look"), "{}", screen(&m));
    // Enter with no customer found opens nothing new and keeps the list.
    update(&mut m, code(crossterm::event::KeyCode::Enter));
    assert!(m.list.view.search.is_some());
}

#[test]
fn down_picks_a_match_over_the_customer_found() {
    let mut m = indexed_model(20, 80, 24);
    // Each part matches the loaded numbers (+55119000000N), none of
    // which is this number.
    let job = search(&mut m, "+55 119 0000 11").pop().expect("looked up");
    update(
        &mut m,
        Msg::Inbox(InboxMsg::LookedUp {
            id: job.id,
            result: Ok(Box::new(stranger())),
        }),
    );
    assert!(m.list.visible_len() > 0, "the matches show beside the customer found");
    assert!(screen(&m).contains("Enter opens"), "{}", screen(&m));
    update(&mut m, code(crossterm::event::KeyCode::Down));
    update(&mut m, code(crossterm::event::KeyCode::Enter));
    assert_ne!(m.list.selected_contact().map(|c| c.uuid), Some(stranger().uuid));
    assert!(!screen(&m).contains("Enter opens"), "{}", screen(&m));
}
