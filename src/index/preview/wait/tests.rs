use chrono::{DateTime, Duration, TimeZone, Utc};

use super::{Behind, Wait, Waiting, waiting};
use crate::api::{Message, MessageStatus};
use crate::index::{Preview, Who};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 27, 9, 0, 0).single().unwrap()
}

fn msg(status: MessageStatus, secs: i64, text: &str) -> Message {
    Message {
        uuid: None,
        text: text.into(),
        created_at: Some(t0() + Duration::seconds(secs)),
        status,
        channel: "whatsapp".into(),
        from: String::new(),
        to: String::new(),
        sent_by: None,
        rich: Default::default(),
    }
}

fn customer(secs: i64) -> Message {
    msg(MessageStatus::Received, secs, "where is my order?")
}

fn bot(secs: i64) -> Message {
    msg(MessageStatus::Sent, secs, "Thanks! An agent will be with you shortly")
}

fn agent(secs: i64) -> Message {
    msg(MessageStatus::Sent, secs, "On its way")
}

fn note(secs: i64) -> Message {
    msg(MessageStatus::Note, secs, "@alex can you look?")
}

/// Newest first, as the service's pages come.
fn page(mut messages: Vec<Message>) -> Preview {
    messages.reverse();
    Preview::of(&messages, None)
}

#[test]
fn a_bots_answer_keeps_the_customer_waiting_from_their_first_unanswered_message() {
    // The customer wrote four times; each time the bot answered at once.
    let p = page(vec![
        customer(0),
        bot(1),
        customer(600),
        bot(601),
        customer(1200),
        bot(1201),
        customer(1800),
        bot(1801),
    ]);
    assert_eq!(p.who, Some(Who::Agent), "the bot's answer is the last message");
    assert!(p.waiting());
    assert_eq!(
        p.waiting_now(),
        Some(Waiting {
            since: Some(t0()),
            behind: Some(Behind::Bot)
        })
    );
}

#[test]
fn a_persons_answer_ends_waiting() {
    let p = page(vec![customer(0), bot(1), agent(300)]);
    assert!(!p.waiting());
    assert_eq!(p.waiting_now(), None);
}

#[test]
fn the_clock_restarts_at_the_first_message_after_a_persons_reply() {
    let p = page(vec![customer(0), agent(300), customer(900), bot(901), customer(1000)]);
    assert_eq!(
        p.waiting_now().and_then(|w| w.since),
        Some(t0() + Duration::seconds(900))
    );
    assert_eq!(p.waiting_now().and_then(|w| w.behind), None, "the customer wrote last");
}

#[test]
fn a_note_does_not_end_waiting() {
    let p = page(vec![customer(0), note(120)]);
    assert_eq!(p.who, Some(Who::Note));
    assert_eq!(
        p.waiting_now(),
        Some(Waiting {
            since: Some(t0()),
            behind: Some(Behind::Note)
        })
    );
}

#[test]
fn a_quick_send_the_hub_names_is_a_persons() {
    let mut quick = agent(2);
    quick.sent_by = Some("alex@example.com".into());
    let p = page(vec![customer(0), quick]);
    assert!(!p.waiting());
}

#[test]
fn a_bot_answering_several_times_in_a_row_is_still_the_bot() {
    let p = page(vec![customer(0), bot(1), bot(3), bot(6)]);
    assert_eq!(p.waiting_now().and_then(|w| w.behind), Some(Behind::Bot));
}

#[test]
fn equal_stamps_keep_the_pages_order() {
    // Newest first: the bot's answer was listed above the customer's message.
    let same = vec![bot(0), customer(0)];
    let p = Preview::of(&same, None);
    assert_eq!(p.waiting_now().and_then(|w| w.behind), Some(Behind::Bot));
}

#[test]
fn no_customer_message_nobody_waits() {
    assert_eq!(Wait::of(&[agent(0), note(5)]), Wait::Answered);
    assert_eq!(Wait::of(&[]), Wait::Answered);
}

#[test]
fn the_stored_form_comes_back_the_same() {
    for w in [
        Wait::FromLast,
        Wait::Answered,
        Wait::Since {
            since: Some(t0()),
            behind: Some(Behind::Bot),
        },
        Wait::Since {
            since: None,
            behind: Some(Behind::Note),
        },
        Wait::Since {
            since: Some(t0()),
            behind: None,
        },
    ] {
        assert_eq!(Wait::from_stored(w.stored().as_deref()), w);
    }
    assert_eq!(Wait::from_stored(Some("garbage")), Wait::FromLast);
}

#[test]
fn from_the_last_message_alone_the_customer_writing_last_waits() {
    assert!(waiting(Wait::FromLast, Some(Who::Customer), Some(t0())).is_some());
    assert!(waiting(Wait::FromLast, Some(Who::Agent), Some(t0())).is_none());
    assert!(waiting(Wait::FromLast, Some(Who::Note), Some(t0())).is_none());
}

/// Through the index, as every face reads it: the stored page, the facts a
/// view sees, the Waiting and Breaching views.
mod faces {
    use super::*;
    use crate::api::Contact;
    use crate::index::Index;
    use crate::triage::{Facts, Subject, breaching_view, builtin_views};

    fn waiting_view() -> crate::triage::View {
        builtin_views().into_iter().find(|v| v.name == "Waiting").unwrap()
    }

    fn stored(messages: Vec<Message>) -> (Facts, Preview) {
        let mut ix = Index::in_memory().unwrap();
        let activity = messages.iter().filter_map(|m| m.created_at).max();
        let c = Contact {
            uuid: "c1".into(),
            name: "Ada".into(),
            source: "whatsapp".into(),
            activity_at: activity,
            ..Default::default()
        };
        ix.upsert_contacts(std::slice::from_ref(&c), t0()).unwrap();
        let mut page = messages;
        page.reverse();
        ix.store_messages("c1", activity, &page).unwrap();
        let preview = ix.previews(&["c1"]).unwrap().remove("c1").unwrap();
        let contact = ix.get("c1").unwrap().unwrap();
        (Facts::new(&contact, Some(&preview)), preview)
    }

    #[test]
    fn a_customer_behind_the_bots_answer_is_in_waiting_and_breaching_from_their_message() {
        let (f, p) = stored(vec![customer(0), bot(1), customer(60), bot(61)]);
        assert_eq!(
            p.waiting_now().and_then(|w| w.behind),
            Some(Behind::Bot),
            "kept in the index"
        );
        assert!(f.is_waiting());
        assert_eq!(f.waiting_since(), Some(t0()));
        let now = t0() + Duration::minutes(45);
        assert!(waiting_view().filter.matches(&f, None, now));
        let breach = breaching_view(std::time::Duration::from_secs(30 * 60));
        assert!(
            breach.filter.matches(&f, None, now),
            "45 minutes since the first unanswered message"
        );
    }

    #[test]
    fn an_agents_answer_takes_it_out_of_waiting() {
        let (f, _) = stored(vec![customer(0), bot(1), agent(240)]);
        assert!(!f.is_waiting());
        assert!(!waiting_view().filter.matches(&f, None, t0() + Duration::minutes(45)));
    }

    #[test]
    fn a_note_leaves_it_in_waiting() {
        let (f, _) = stored(vec![customer(0), note(30)]);
        assert_eq!(f.waiting_since(), Some(t0()));
        assert!(waiting_view().filter.matches(&f, None, t0() + Duration::minutes(5)));
    }
}
