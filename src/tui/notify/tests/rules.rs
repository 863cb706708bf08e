//! When a new message is announced, and what a reply in a closed
//! conversation does.

use super::*;
use crate::notify::quiet::{Choice, Quiet};
use crate::triage::bulk::Action;
use crate::tui::notify::REOPENED;
use crate::tui::slices::SliceEffect;

/// Contact 2 is mine (even), open; 3 is nobody's; 4 is mine and closed.
#[test]
fn a_customer_message_in_mine_notifies_only_when_unfocused_or_off_screen() {
    let mut m = started(10, |_| {});
    // Focused, and its row is on screen: nothing.
    assert_eq!(notified(&writes(&mut m, 2, Who::Customer, "hello?")), None);
    update(&mut m, Msg::Focus(false));
    let bytes = notified(&writes(&mut m, 2, Who::Customer, "where is my order")).expect("unfocused: notified");
    assert!(bytes.starts_with("\x1b]777;notify;frontdesk: "), "{bytes:?}");
    assert!(bytes.contains("where is my order") && bytes.contains("\x1b]9;") && bytes.ends_with('\x07'));
    // Focused again but scrolled away from the top: off screen.
    let mut m = started(100, |_| {});
    update(&mut m, key('G'));
    assert!(m.list.view.offset > 0, "scrolled down");
    assert!(
        notified(&writes(&mut m, 2, Who::Customer, "hi")).is_some(),
        "off screen: notified"
    );
}

/// A first fill of last messages (or a catch-up) learns of messages
/// written long ago: not news, so nothing rings; a fresh one still does.
#[test]
fn a_message_learned_long_after_it_was_written_is_not_announced() {
    let mut m = started(10, |_| {});
    update(&mut m, Msg::Focus(false));
    // The list first placed it by an older guess (its creation, the
    // list's order); the fill then learns its last message, written hours
    // ago: its row moves, nothing rings.
    for ago in [Duration::days(30), Duration::hours(3)] {
        let c = with_message(2, ago);
        let activity = c.last_activity();
        let mut fx = update(
            &mut m,
            Msg::Index(IndexMsg::Changed(Changes {
                upserted: vec![c.clone()],
                removed: Vec::new(),
            })),
        );
        let preview = Preview {
            who: Some(Who::Customer),
            text: "an old question".into(),
            at: c.activity_at,
            activity,
            wait: Default::default(),
        };
        fx.extend(update(
            &mut m,
            Msg::Index(IndexMsg::Previews(vec![(c.uuid.clone(), preview)])),
        ));
        assert_eq!(notified(&fx), None, "a message {ago} old is not news");
    }
    // A message written a minute ago still rings.
    assert!(notified(&writes(&mut m, 2, Who::Customer, "are you there?")).is_some());
}

#[test]
fn not_for_others_contacts_an_agents_message_while_away_or_turned_off() {
    let mut m = started(10, |_| {});
    update(&mut m, Msg::Focus(false));
    assert_eq!(notified(&writes(&mut m, 3, Who::Customer, "x")), None, "not mine");
    assert_eq!(notified(&writes(&mut m, 2, Who::Agent, "x")), None, "our side wrote");
    m.details.me.available = Some(false);
    assert_eq!(notified(&writes(&mut m, 6, Who::Customer, "x")), None, "away");
    m.details.me.available = Some(true);
    quiet::pick(&mut m, Choice::Off);
    assert_eq!(m.slices.notify.quiet, Quiet::Off);
    assert_eq!(notified(&writes(&mut m, 8, Who::Customer, "x")), None, "turned off");
    quiet::pick(&mut m, Choice::On);
    assert!(notified(&writes(&mut m, 8, Who::Customer, "y")).is_some(), "on again");
}

#[test]
fn a_view_marked_notify_watches_its_contacts_and_each_message_notifies_once() {
    let mut vip = crate::triage::View::new(
        "VIP",
        crate::triage::ViewFilter {
            tags_all: vec!["billing".into()],
            ..Default::default()
        },
    );
    vip.notify = true;
    let mut m = started(10, |m| {
        m.views = crate::tui::inbox::views::Views::new(vec![vip], Some(ME.into()));
        m.slices.notify.command = vec!["notify-send".into()];
    });
    update(&mut m, Msg::Focus(false));
    // Contact 1 (billing) is nobody's, but in VIP.
    let fx = writes_at(&mut m, 1, 50, Who::Customer, "refund");
    assert!(notified(&fx).is_some());
    let run = fx.iter().find_map(|e| match e {
        Effect::Slice(SliceEffect::Notify(crate::tui::notify::NotifyEffect::Run { argv, contact, text })) => {
            Some((argv.clone(), contact.clone(), text.clone()))
        }
        _ => None,
    });
    let (argv, _, text) = run.expect("notify_command runs");
    assert_eq!((argv, text.as_str()), (vec!["notify-send".to_string()], "refund"));
    // The same message again (another pass, the preview again): once.
    m.list.store.replace(contact(1));
    assert_eq!(notified(&writes_at(&mut m, 1, 50, Who::Customer, "refund")), None);
}

#[test]
fn a_reply_in_a_closed_conversation_reopens_it_locally_into_waiting() {
    let mut m = started(10, |_| {});
    let four = uuid(4);
    assert!(!held(&m, "Waiting").contains(&four));
    let fx = writes(&mut m, 4, Who::Customer, "still broken");
    assert!(m.badges.has(&four, REOPENED.name));
    assert!(REOPENED.label.chars().count() <= 6);
    assert!(held(&m, "Waiting").contains(&four), "it waits again");
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Apply { .. })),
        "without reopen_on_reply nothing is written"
    );
    // Its thread opened: the badge goes.
    m.thread.contact = Some(four.clone());
    update(&mut m, Msg::Tick(now()));
    assert!(!m.badges.has(&four, REOPENED.name));
}

#[test]
fn with_reopen_on_reply_it_is_reopened_through_the_write_pipeline() {
    let mut m = started(10, |m| m.slices.notify.reopen_on_reply = true);
    let four = uuid(4);
    let fx = writes(&mut m, 4, Who::Customer, "still broken");
    let reopen = fx.iter().find_map(|e| match e {
        Effect::Apply { uuid, action, .. } => Some((uuid.clone(), action.clone())),
        _ => None,
    });
    assert_eq!(reopen, Some((four.clone(), Action::Reopen)));
    assert!(m.badges.has(&four, REOPENED.name), "our own write keeps the badge");
    assert!(m.list.get(&four).unwrap().is_open(), "shown open at once");
    // An agent's message in a closed conversation reopens nothing.
    let fx = writes(&mut m, 9, Who::Agent, "bye");
    assert!(!fx.iter().any(|e| matches!(e, Effect::Apply { .. })));
}

/// A closed conversation whose activity is learned late (the list's
/// order moved it, a hub's walk) while its last message is the customer's
/// from before the close: no reply came, so it is not reopened and stays
/// out of Open and Waiting (issue 36: after a shift both TUIs read Open
/// 10 over, every one of them a closed conversation badged "reopen").
#[test]
fn a_customers_message_from_before_the_close_does_not_reopen_it() {
    let mut m = started(10, |_| {});
    let four = uuid(4);
    let open_before = held(&m, "Open").len();
    // Closed two hours ago; its activity is learned now, its last message
    // is the customer's from three hours ago.
    let mut c = contact(4);
    c.activity_at = Some(now() - Duration::seconds(5));
    let activity = c.last_activity();
    update(
        &mut m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![c.clone()],
            removed: Vec::new(),
        })),
    );
    let preview = Preview {
        who: Some(Who::Customer),
        text: "is it shipped?".into(),
        at: Some(now() - Duration::hours(3)),
        activity,
        wait: Default::default(),
    };
    let fx = update(&mut m, Msg::Index(IndexMsg::Previews(vec![(four.clone(), preview)])));
    assert!(!m.badges.has(&four, REOPENED.name), "no reply came after the close");
    assert_eq!(held(&m, "Open").len(), open_before, "Open unchanged");
    assert!(!held(&m, "Waiting").contains(&four));
    assert_eq!(notified(&fx), None);
}
