//! Every view rule, the built-in views, counting and order.

use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};

use super::*;
use crate::api::{Contact, ContactTeam, FieldValue};
use crate::index::{Preview, Who};

mod bulk;
mod durations;
mod undo;
mod unknown;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).single().unwrap()
}

fn ago(d: Duration) -> DateTime<Utc> {
    now() - chrono::Duration::from_std(d).unwrap()
}

const H: Duration = Duration::from_secs(3600);

/// An open contact, active an hour ago, nobody assigned, no last message.
fn facts(uuid: &str) -> Facts {
    Facts {
        uuid: uuid.into(),
        name: format!("Contact {uuid}"),
        phone: "+44 7700 900000".into(),
        source: "messaging_app".into(),
        last_activity: Some(ago(H)),
        ..Default::default()
    }
}

fn wrote(mut f: Facts, who: Who, when: DateTime<Utc>) -> Facts {
    f.last_who = Some(who);
    f.last_at = Some(when);
    f
}

fn m(filter: ViewFilter, f: &Facts) -> bool {
    filter.matches(f, Some("me@example.com"), now())
}

#[test]
fn state_open_closed_any() {
    let open = facts("a");
    let closed = Facts {
        closed: true,
        ..facts("b")
    };
    let only = |state| ViewFilter {
        state,
        ..Default::default()
    };
    assert!(m(only(State::Open), &open) && !m(only(State::Open), &closed));
    assert!(!m(only(State::Closed), &open) && m(only(State::Closed), &closed));
    assert!(m(only(State::Any), &open) && m(only(State::Any), &closed));
    assert_eq!(State::parse(" Closed "), Some(State::Closed));
    assert_eq!(State::parse("shut"), None);
}

#[test]
fn assignee_me_nobody_and_an_email_ignore_case() {
    let mine = Facts {
        assignee: Some("Me@Example.com".into()),
        ..facts("a")
    };
    let theirs = Facts {
        assignee: Some("bo@example.com".into()),
        ..facts("b")
    };
    let nobody = facts("c");
    let who = |a: &str| ViewFilter {
        assignee: Some(Assignee::parse(a)),
        ..Default::default()
    };
    assert!(m(who("me"), &mine) && !m(who("me"), &theirs) && !m(who("me"), &nobody));
    assert!(m(who("nobody"), &nobody) && !m(who("nobody"), &mine));
    assert!(m(who("BO@example.com"), &theirs) && !m(who("bo@example.com"), &mine));
}

#[test]
fn without_an_email_mine_matches_nothing_and_says_why() {
    let mine = Facts {
        assignee: Some("me@example.com".into()),
        ..facts("a")
    };
    let view = find_view("mine", &[]).unwrap();
    assert!(!view.filter.matches(&mine, None, now()));
    let why = view.why_empty(None).unwrap();
    assert!(why.contains("user_email") && why.contains("--email"), "{why}");
    assert_eq!(view.why_empty(Some("me@example.com")), None);
    assert_eq!(find_view("open", &[]).unwrap().why_empty(None), None);
}

#[test]
fn waiting_is_the_customer_writing_last_optionally_for_longer_than() {
    let customer = wrote(facts("a"), Who::Customer, ago(3 * H));
    let answered = wrote(facts("b"), Who::Agent, ago(3 * H));
    let noted = wrote(facts("c"), Who::Note, ago(3 * H));
    let unknown = facts("d");
    let fresh = wrote(facts("e"), Who::Customer, ago(H / 2));
    let waiting = |d| ViewFilter {
        waiting: Some(d),
        ..Default::default()
    };
    assert!(m(waiting(Duration::ZERO), &customer) && m(waiting(Duration::ZERO), &fresh));
    assert!(!m(waiting(Duration::ZERO), &answered) && !m(waiting(Duration::ZERO), &noted));
    assert!(!m(waiting(Duration::ZERO), &unknown));
    assert!(m(waiting(2 * H), &customer) && !m(waiting(2 * H), &fresh));
}

#[test]
fn a_preview_older_than_the_contacts_activity_does_not_say_who_wrote_last() {
    let c = Contact {
        uuid: "a".into(),
        activity_at: Some(ago(H)),
        ..Default::default()
    };
    let preview = |activity| Preview {
        who: Some(Who::Customer),
        text: "hello?".into(),
        at: Some(ago(2 * H)),
        activity,
        wait: Default::default(),
    };
    assert!(Facts::new(&c, Some(&preview(Some(ago(H))))).is_waiting());
    assert!(!Facts::new(&c, Some(&preview(Some(ago(2 * H))))).is_waiting());
    assert!(!Facts::new(&c, None).is_waiting());
}

#[test]
fn source_team_and_custom_fields() {
    let mut f = facts("a");
    f.team = Some("team-1".into());
    f.custom_fields.insert("Plan".into(), FieldValue::Text("Gold".into()));
    f.custom_fields
        .insert("langs".into(), FieldValue::List(vec!["en".into(), "fr".into()]));
    let with = |g: fn(&mut ViewFilter)| {
        let mut v = ViewFilter::default();
        g(&mut v);
        v
    };
    assert!(m(with(|v| v.source = Some("Messaging_App".into())), &f));
    assert!(!m(with(|v| v.source = Some("whatsapp".into())), &f));
    assert!(m(with(|v| v.team = Some("team-1".into())), &f));
    assert!(!m(with(|v| v.team = Some("team-2".into())), &f));
    assert!(!m(with(|v| v.team = Some("team-1".into())), &facts("b")));
    assert!(m(with(|v| v.fields = vec![("plan".into(), "gold".into())]), &f));
    assert!(m(with(|v| v.fields = vec![("langs".into(), "fr".into())]), &f));
    assert!(!m(with(|v| v.fields = vec![("plan".into(), "silver".into())]), &f));
    assert!(!m(with(|v| v.fields = vec![("tier".into(), "gold".into())]), &f));
}

#[test]
fn tags_all_of_and_any_of_ignore_case() {
    let f = Facts {
        tags: vec!["VIP".into(), "billing".into()],
        ..facts("a")
    };
    let all = |t: &[&str]| ViewFilter {
        tags_all: t.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    let any = |t: &[&str]| ViewFilter {
        tags_any: t.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    assert!(m(all(&["vip", "Billing"]), &f) && !m(all(&["vip", "gold"]), &f));
    assert!(m(any(&["gold", "vip"]), &f) && !m(any(&["gold", "silver"]), &f));
    assert!(m(any(&[]), &f), "no tags_any: no rule");
}

#[test]
fn text_looks_in_name_phone_tags_and_note_ignoring_case() {
    let mut f = facts("a");
    f.name = "Ada Lovelace".into();
    f.phone = "+44 7700 900123".into();
    f.tags = vec!["refund".into()];
    f.note = Some("Prefers Émail".into());
    let text = |t: &str| ViewFilter {
        text: Some(t.into()),
        ..Default::default()
    };
    for hit in ["lovelace", "900123", "REFUND", "émail", "ÉMAIL"] {
        assert!(m(text(hit), &f), "{hit}");
    }
    assert!(!m(text("babbage"), &f));
}

#[test]
fn older_than_looks_at_the_last_activity() {
    let old = Facts {
        last_activity: Some(ago(8 * 24 * H)),
        ..facts("a")
    };
    let recent = facts("b");
    let unknown = Facts {
        last_activity: None,
        ..facts("c")
    };
    let v = ViewFilter {
        older_than: Some(7 * 24 * H),
        ..Default::default()
    };
    assert!(m(v.clone(), &old) && !m(v.clone(), &recent) && !m(v, &unknown));
}

#[test]
fn every_rule_must_hold() {
    let f = Facts {
        tags: vec!["vip".into()],
        ..facts("a")
    };
    let v = ViewFilter {
        state: State::Open,
        tags_any: vec!["vip".into()],
        source: Some("whatsapp".into()),
        ..Default::default()
    };
    assert!(!m(v, &f));
}

/// Open+mine waiting 5h, open+unassigned waiting 1h, open+other answered,
/// closed+mine.
fn sample() -> Vec<Facts> {
    vec![
        wrote(
            Facts {
                assignee: Some("me@example.com".into()),
                ..facts("a")
            },
            Who::Customer,
            ago(5 * H),
        ),
        wrote(facts("b"), Who::Customer, ago(H)),
        wrote(
            Facts {
                assignee: Some("bo@example.com".into()),
                last_activity: Some(ago(H / 4)),
                ..facts("c")
            },
            Who::Agent,
            ago(H / 4),
        ),
        Facts {
            closed: true,
            assignee: Some("me@example.com".into()),
            ..facts("d")
        },
    ]
}

#[test]
fn the_built_in_views_and_their_counts() {
    let views = builtin_views();
    let names: Vec<&str> = views.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["Mine", "Unassigned", "Waiting", "Open", "All"]);
    assert!(views.iter().all(|v| v.short.chars().count() <= SHORT_MAX));
    let facts = sample();
    assert_eq!(
        count_views(&facts, &views, Some("me@example.com"), now()),
        [1, 1, 2, 3, 4]
    );
    assert_eq!(count_views(&facts, &views, None, now()), [0, 1, 2, 3, 4]);
}

#[test]
fn waiting_lists_the_longest_wait_first_and_the_others_by_newest_activity() {
    let facts = sample();
    let order = |name: &str| -> Vec<String> {
        let v = find_view(name, &[]).unwrap();
        select(&facts, &v, Some("me@example.com"), now())
            .into_iter()
            .map(|i| facts[i].uuid.clone())
            .collect()
    };
    assert_eq!(order("waiting"), ["a", "b"]);
    // a and b were both active an hour ago: the larger uuid first, as
    // the index lists equal stamps.
    assert_eq!(order("Open"), ["c", "b", "a"]);
}

#[test]
fn views_are_found_by_name_or_short_name_in_any_case() {
    let mine = View::new("VIP waiting", ViewFilter::default());
    assert_eq!(mine.short, "VIP wait");
    assert!(find_view("UNASSIGN", &[]).is_some_and(|v| v.name == "Unassigned"));
    assert!(find_view("vip WAITING", std::slice::from_ref(&mine)).is_some());
    assert!(find_view("vip wait", std::slice::from_ref(&mine)).is_some());
    assert!(find_view("nope", &[mine]).is_none());
}

#[test]
fn counts_are_abbreviated_for_the_tab_strip() {
    let cases = [
        (0, "0"),
        (999, "999"),
        (1_000, "1k"),
        (1_234, "1.2k"),
        (12_400, "12.4k"),
        (99_999, "100k"),
        (100_000, "100k"),
        (1_500_000, "1.5M"),
    ];
    for (n, s) in cases {
        assert_eq!(abbreviate_count(n), s, "{n}");
    }
}

#[test]
fn facts_come_from_the_contact_and_its_preview() {
    let c = Contact {
        uuid: "u".into(),
        name: "N".into(),
        assigned_user: Some(" ".into()),
        team: Some(ContactTeam {
            uuid: Some("t".into()),
            name: None,
        }),
        closed_at: Some(now()),
        created_at: Some(ago(H)),
        ..Default::default()
    };
    let f = Facts::new(&c, None);
    assert_eq!(
        (f.assignee, f.team.as_deref(), f.closed, f.last_activity),
        (None, Some("t"), true, Some(ago(H)))
    );
}

#[test]
fn a_filter_reads_as_words() {
    let views = builtin_views();
    let words: Vec<String> = views.iter().map(|v| v.filter.describe()).collect();
    assert_eq!(
        words,
        [
            "open, assigned to me",
            "open, unassigned",
            "open, customer waiting",
            "open",
            "everything"
        ]
    );
    let f = ViewFilter {
        waiting: Some(2 * H),
        tags_any: vec!["vip".into(), "gold".into()],
        fields: vec![("plan".into(), "gold".into())],
        older_than: Some(7 * 24 * H),
        ..Default::default()
    };
    assert_eq!(
        f.describe(),
        "customer waiting > 2h, tags vip or gold, plan = gold, idle > 7d"
    );
}

/// A customer who wrote after the close is owed an answer: every face
/// counts the conversation as open and waiting (README "Who is waiting");
/// a message from before the close reopens nothing, nor does an agent's.
#[test]
fn a_customer_writing_after_the_close_counts_it_open_and_waiting() {
    let closed_at = ago(2 * H);
    let closed = Facts {
        closed: true,
        closed_at: Some(closed_at),
        ..facts("c")
    };
    let views = builtin_views();
    let open_view = views.iter().find(|v| v.name == "Open").expect("Open").filter.clone();
    let waiting_view = views
        .iter()
        .find(|v| v.name == "Waiting")
        .expect("Waiting")
        .filter
        .clone();
    let after = wrote(closed.clone(), Who::Customer, ago(H));
    assert!(
        m(open_view.clone(), &after) && m(waiting_view.clone(), &after),
        "wrote after the close"
    );
    let before = wrote(closed.clone(), Who::Customer, ago(3 * H));
    assert!(
        !m(open_view.clone(), &before) && !m(waiting_view.clone(), &before),
        "wrote before it"
    );
    let agent = wrote(closed, Who::Agent, ago(H));
    assert!(!m(open_view, &agent) && !m(waiting_view, &agent), "our side wrote");
}
