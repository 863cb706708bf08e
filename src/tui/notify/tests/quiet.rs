//! Snoozing notifications from the status bar (`B`), and bursts grouped
//! across sync passes.

use super::*;
use crate::notify::quiet::{Choice, Quiet};
use crate::tui::slices::SliceEffect;
use crossterm::event::KeyCode;

/// `B`, then the picker's Down to `c`, then Enter: every effect asked for.
pub(super) fn pick(m: &mut Model, c: Choice) -> Vec<Effect> {
    let mut fx = update(m, key('B'));
    assert!(m.slices.notify.picker.is_some(), "B opens the picker");
    let at = Choice::ALL.iter().position(|x| *x == c).expect("a choice");
    for _ in 0..at {
        fx.extend(update(m, code(KeyCode::Down)));
    }
    fx.extend(update(m, code(KeyCode::Enter)));
    assert!(m.slices.notify.picker.is_none(), "Enter closes it");
    fx
}

/// The status bar's text as drawn.
fn status_bar(m: &Model) -> String {
    let t = crate::tui::view::tests::draw(m);
    let buf = t.backend().buffer();
    (0..m.width)
        .map(|x| buf[(x, m.height - 1)].symbol().to_string())
        .collect()
}

#[test]
fn b_snoozes_notifications_the_status_bar_says_until_when_and_they_come_back() {
    let mut m = started(10, |m| m.session.tz = None);
    update(&mut m, Msg::Focus(false));
    let fx = pick(&mut m, Choice::Minutes15);
    let until = now() + Duration::minutes(15);
    assert_eq!(m.slices.notify.quiet, Quiet::Until(until));
    let bar = status_bar(&m);
    let hhmm = until.format("%H:%M").to_string();
    // (A wide cell is followed by a blank one in the buffer.)
    assert!(bar.contains('🔕') && bar.contains(&format!(" until {hhmm} │")), "{bar}");
    // Not kept anywhere in a test model (no path): no write asked for.
    assert!(!fx.iter().any(|e| matches!(e, Effect::Slice(SliceEffect::Notify(_)))));
    assert_eq!(notified(&writes(&mut m, 2, Who::Customer, "x")), None, "snoozed");
    // The clock passes the snooze: the bar's mark goes, and they show.
    update(&mut m, Msg::Tick(until + Duration::seconds(1)));
    assert_eq!(m.slices.notify.quiet, Quiet::On);
    assert!(!status_bar(&m).contains('🔕'), "{}", status_bar(&m));
    let c = {
        let mut c = contact(4);
        c.activity_at = Some(until);
        c
    };
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
        text: "back".into(),
        at: c.activity_at,
        activity,
        wait: Default::default(),
    };
    let fx = update(&mut m, Msg::Index(IndexMsg::Previews(vec![(c.uuid.clone(), preview)])));
    assert!(notified(&fx).is_some(), "on again after the snooze");
}

#[test]
fn the_snooze_is_kept_for_the_next_start_and_esc_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = crate::notify::quiet::file_in(dir.path());
    let mut m = started(10, |m| m.slices.notify.kept = Some(path.clone()));
    update(&mut m, key('B'));
    update(&mut m, code(KeyCode::Esc));
    assert_eq!((m.slices.notify.picker, m.slices.notify.quiet), (None, Quiet::On));
    let fx = pick(&mut m, Choice::Tomorrow9);
    let keep = fx
        .into_iter()
        .find_map(|e| match e {
            Effect::Slice(SliceEffect::Notify(k @ crate::tui::notify::NotifyEffect::Keep { .. })) => Some(k),
            _ => None,
        })
        .expect("the choice is kept");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let answer = rt.block_on(crate::tui::notify::perform(keep));
    assert_eq!(answer, crate::tui::notify::NotifyMsg(Ok(())));
    // The next start reads it.
    assert_eq!(crate::notify::quiet::load(&path), m.slices.notify.quiet);
    assert!(matches!(m.slices.notify.quiet, Quiet::Until(t) if t > now() + Duration::hours(1)));
}

/// Contact `i` as a pass brings it with a customer's message at `at`,
/// then its last message: the notification bytes the two updates wrote.
fn customer_at(m: &mut Model, i: usize, at: chrono::DateTime<chrono::Utc>) -> Vec<String> {
    let mut fx = update(m, Msg::Tick(at));
    let mut c = contact(i);
    c.activity_at = Some(at);
    let activity = c.last_activity();
    fx.extend(update(
        m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![c.clone()],
            removed: Vec::new(),
        })),
    ));
    let preview = Preview {
        who: Some(Who::Customer),
        text: "any news?".into(),
        at: Some(at),
        activity,
        wait: Default::default(),
    };
    fx.extend(update(
        m,
        Msg::Index(IndexMsg::Previews(vec![(c.uuid.clone(), preview)])),
    ));
    fx.into_iter()
        .filter_map(|e| match e {
            Effect::Terminal(b) => Some(b),
            _ => None,
        })
        .collect()
}

#[test]
fn a_149_message_shift_from_one_view_is_a_handful_of_notifications_with_counts() {
    // 40 customers of mine (the even contacts) write 149 messages over 20
    // minutes, one a pass.
    let mut m = started(80, |_| {});
    update(&mut m, Msg::Focus(false));
    let mut shown = Vec::new();
    let step = Duration::minutes(20).num_milliseconds() / 149;
    for k in 0..149i64 {
        let at = now() + Duration::milliseconds(step * (k + 1));
        shown.extend(customer_at(&mut m, 2 * (k as usize % 40), at));
    }
    // The window after the last message ends too.
    update(&mut m, Msg::Tick(now() + Duration::minutes(20)));
    shown.extend(
        update(&mut m, Msg::Tick(now() + Duration::minutes(26)))
            .into_iter()
            .filter_map(|e| match e {
                Effect::Terminal(b) => Some(b),
                _ => None,
            }),
    );
    // The first at once, then one per 5-minute window: 5 in all.
    assert_eq!(shown.len(), 5, "{shown:#?}");
    assert!(shown[0].contains("any news?"), "the first as it is: {}", shown[0]);
    let counts: Vec<usize> = shown[1..]
        .iter()
        .map(|s| {
            let t = s.split("frontdesk: ").nth(1).unwrap_or_default();
            assert!(t.contains(" new in Mine"), "{t}");
            t.split(' ').next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(
        counts.iter().sum::<usize>(),
        148,
        "every message counted once: {counts:?}"
    );
}
