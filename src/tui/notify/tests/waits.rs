//! Wait thresholds: where a wait stands, the Breaching view, and the
//! announcement of a conversation passing `breach_after`.

use std::time::Duration as Std;

use super::*;
use crate::triage::{Thresholds, WaitLevel};
use crate::tui::inbox::view::wait_level;

fn t(warn: u64, breach: u64) -> Thresholds {
    Thresholds {
        warn: Some(Std::from_secs(warn * 60)),
        breach: Some(Std::from_secs(breach * 60)),
    }
}

#[test]
fn a_wait_is_calm_then_a_warning_then_a_breach() {
    let at = |mins: i64| Some(now() - Duration::minutes(mins));
    assert_eq!(wait_level(Thresholds::default(), now(), at(500)), WaitLevel::Unrated);
    assert_eq!(wait_level(t(30, 240), now(), at(10)), WaitLevel::Calm);
    assert_eq!(wait_level(t(30, 240), now(), at(31)), WaitLevel::Warn);
    assert_eq!(wait_level(t(30, 240), now(), at(241)), WaitLevel::Breach);
    // A view's own threshold beats the file's.
    let own = Thresholds {
        breach: Some(Std::from_secs(60)),
        warn: None,
    };
    assert_eq!(own.or(t(30, 240)).level(Std::from_secs(120)), WaitLevel::Breach);
}

/// Contacts waiting: 2 (12 h, mine), 3 (20 min); the others answered.
fn waiting_model(breach_after: Option<u64>) -> Model {
    let mut m = started(10, |m| {
        m.views.thresholds = Thresholds {
            warn: Some(Std::from_secs(1800)),
            breach: breach_after.map(|h| Std::from_secs(h * 3600)),
        }
    });
    let mut previews = Vec::new();
    for i in 0..10 {
        let c = m.list.get(&uuid(i)).unwrap().to_contact();
        let (who, at) = match i {
            2 => (Who::Customer, now() - Duration::hours(12)),
            3 => (Who::Customer, now() - Duration::minutes(20)),
            _ => (Who::Agent, now() - Duration::minutes(5)),
        };
        let p = Preview {
            who: Some(who),
            text: "t".into(),
            at: Some(at),
            activity: c.last_activity(),
            wait: Default::default(),
        };
        previews.push((c.uuid.clone(), p));
    }
    update(&mut m, Msg::Index(IndexMsg::Previews(previews)));
    m
}

#[test]
fn breaching_follows_the_built_in_views_and_lists_waits_past_breach_after() {
    let m = waiting_model(Some(4));
    let names: Vec<&str> = m.views.all.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names[..6],
        ["Mine", "Unassigned", "Waiting", "Open", "All", "Breaching"]
    );
    assert_eq!(held(&m, "Breaching"), vec![uuid(2)]);
    assert!(m.views.current().name == "Mine", "the current view stays");
    // Without breach_after there is no Breaching view.
    let m = waiting_model(None);
    assert!(!m.views.all.iter().any(|v| v.name == "Breaching"));
}

#[test]
fn a_conversation_passing_breach_after_is_announced_once() {
    let mut m = waiting_model(Some(1));
    update(&mut m, Msg::Focus(false));
    // The first look learns what was past it already.
    update(&mut m, Msg::Tick(now() + Duration::minutes(1)));
    assert_eq!(m.slices.notify.breached.as_ref().map(|b| b.len()), Some(1));
    // 41 minutes later contact 3 has waited over an hour.
    let fx = update(&mut m, Msg::Tick(now() + Duration::minutes(41)));
    let bytes = notified(&fx).expect("announced");
    assert!(bytes.contains("breach_after"), "{bytes:?}");
    assert_eq!(
        notified(&update(&mut m, Msg::Tick(now() + Duration::minutes(43)))),
        None
    );
}

/// The contacts of `waiting_model`, with a view of the messaging app's
/// contacts (3 waits there; 2 is on instagram) whose own `breach_after`
/// is `own` minutes, and the file's `top` hours.
fn with_own_breach(top: Option<u64>, own: u64) -> Model {
    let mut m = started(10, |m| {
        let mut app = crate::triage::View::new(
            "App",
            crate::triage::ViewFilter {
                source: Some("messaging_app".into()),
                ..Default::default()
            },
        );
        app.thresholds.breach = Some(Std::from_secs(own * 60));
        m.views = crate::tui::inbox::views::Views::new(vec![app], Some(ME.into()));
        m.views.thresholds.breach = top.map(|h| Std::from_secs(h * 3600));
    });
    let mut previews = Vec::new();
    for i in 0..10 {
        let c = m.list.get(&uuid(i)).unwrap().to_contact();
        let (who, at) = match i {
            2 => (Who::Customer, now() - Duration::hours(12)),
            3 => (Who::Customer, now() - Duration::minutes(20)),
            _ => (Who::Agent, now() - Duration::minutes(5)),
        };
        let activity = c.last_activity();
        previews.push((
            c.uuid.clone(),
            Preview {
                who: Some(who),
                text: "t".into(),
                at: Some(at),
                activity,
                wait: Default::default(),
            },
        ));
    }
    update(&mut m, Msg::Index(IndexMsg::Previews(previews)));
    m
}

#[test]
fn a_views_own_breach_after_counts_for_the_contacts_in_it() {
    // 3 waits 20 minutes, past its view's 10: breaching with 2 (past 4 h).
    let m = with_own_breach(Some(4), 10);
    let mut held_now = held(&m, "Breaching");
    held_now.sort();
    assert_eq!(held_now, vec![uuid(2), uuid(3)]);
    // A view's threshold longer than the file's adds nothing.
    assert_eq!(held(&with_own_breach(Some(4), 300), "Breaching"), vec![uuid(2)]);
    // With only the view's, the view is there and holds only its contacts.
    let m = with_own_breach(None, 10);
    assert_eq!(held(&m, "Breaching"), vec![uuid(3)]);
}

#[test]
fn a_conversation_passing_its_views_breach_after_is_announced() {
    let mut m = with_own_breach(None, 30);
    update(&mut m, Msg::Focus(false));
    update(&mut m, Msg::Tick(now() + Duration::minutes(1)));
    assert_eq!(m.slices.notify.breached.as_ref().map(|b| b.len()), Some(0));
    // 11 minutes later contact 3 has waited past the view's 30.
    let fx = update(&mut m, Msg::Tick(now() + Duration::minutes(11)));
    let bytes = notified(&fx).expect("announced");
    assert!(bytes.contains("breach_after"), "{bytes:?}");
}
