use chrono::{Duration, NaiveDate, TimeZone, Utc};

use super::*;
use crate::index::{HeldMessage, HeldPage};

fn at(d: u32, h: u32, m: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, d, h, m, 0).single().unwrap()
}

fn msg(t: DateTime<Utc>, who: Who) -> HeldMessage {
    HeldMessage {
        at: t,
        who,
        automatic: false,
    }
}

fn page(messages: Vec<HeldMessage>, activity: Option<DateTime<Utc>>) -> HeldPage {
    HeldPage {
        activity,
        last: messages.last().copied(),
        len: messages.len(),
        messages,
        wait: Default::default(),
    }
}

fn row(uuid: &str, created: DateTime<Utc>) -> ReportRow {
    ReportRow {
        uuid: uuid.into(),
        created_at: Some(created),
        activity: Some(created),
        ..ReportRow::default()
    }
}

fn march(first: u32, last: u32) -> Period {
    let d = |n| NaiveDate::from_ymd_opt(2026, 3, n).unwrap();
    Period::days(d(first), d(last)).unwrap()
}

#[test]
fn percentile_is_nearest_rank() {
    let ten: Vec<i64> = (1..=10).collect();
    assert_eq!(percentile(&ten, 50), Some(5));
    assert_eq!(percentile(&ten, 90), Some(9));
    assert_eq!(percentile(&ten, 100), Some(10));
    assert_eq!(percentile(&[7], 90), Some(7));
    assert_eq!(percentile(&[], 50), None);
    assert_eq!(percentile(&[1, 2, 3], 50), Some(2));
    assert_eq!(percentile(&[1, 2, 3], 0), Some(1));
}

#[test]
fn buckets_split_at_their_bounds() {
    let m = Duration::minutes;
    let cases = [
        (Duration::seconds(-30), 0),
        (m(0), 0),
        (m(14) + Duration::seconds(59), 0),
        (m(15), 1),
        (m(59), 1),
        (m(60), 2),
        (m(239), 2),
        (m(240), 3),
        (m(24 * 60 - 1), 3),
        (m(24 * 60), 4),
        (Duration::days(40), 4),
    ];
    for (age, want) in cases {
        assert_eq!(bucket(age), want, "{age}");
    }
}

#[test]
fn human_durations_read_as_people_write_them() {
    assert_eq!(human(None), "-");
    assert_eq!(human(Some(45)), "45s");
    assert_eq!(human(Some(12 * 60)), "12m");
    assert_eq!(human(Some(3 * 3600 + 20 * 60)), "3h 20m");
    assert_eq!(human(Some(2 * 86_400 + 4 * 3600)), "2d 4h");
}

#[test]
fn a_period_of_days_covers_each_day_once() {
    let p = march(1, 3);
    assert_eq!(p.dates().len(), 3);
    assert_eq!(p.to, at(4, 0, 0));
    assert!(Period::days(p.to.date_naive(), p.from.date_naive()).is_none());
    let since = Period::since(at(10, 12, 0), Duration::days(7));
    assert_eq!(since.dates().len(), 8, "a rolling week touches 8 calendar days");
}

#[test]
fn opened_and_closed_are_counted_on_their_day_within_the_period() {
    let mut closed = row("b", at(1, 9, 0));
    closed.closed_at = Some(at(2, 10, 0));
    let rows = vec![
        row("a", at(1, 8, 0)),
        closed,
        row("before", at(1, 0, 0) - Duration::seconds(1)),
        row("after", at(4, 0, 0)),
    ];
    let r = compute(&rows, march(1, 3), at(4, 0, 0), None);
    let all = &r.groups[0];
    assert_eq!(all.group, ALL);
    let per_day: Vec<(u64, u64)> = all.days.iter().map(|d| (d.opened, d.closed)).collect();
    assert_eq!(per_day, vec![(2, 0), (0, 1), (0, 0)]);
    assert_eq!((all.opened, all.closed), (2, 1));
    assert_eq!(all.resolution.median_secs, Some(25 * 3600));
}

#[test]
fn first_response_runs_from_the_first_customer_message_to_the_first_answer_after_it() {
    let mut answered = row("a", at(2, 9, 0));
    answered.activity = Some(at(2, 9, 30));
    answered.page = Some(page(
        vec![
            msg(at(2, 9, 0), Who::Agent),
            msg(at(2, 9, 5), Who::Customer),
            msg(at(2, 9, 6), Who::Note),
            msg(at(2, 9, 7), Who::Customer),
            msg(at(2, 9, 30), Who::Agent),
        ],
        answered.activity,
    ));
    let mut full = row("full", at(2, 9, 0));
    full.page = Some(page(vec![msg(at(2, 9, 1), Who::Customer); FULL_PAGE], full.activity));
    let no_page = row("none", at(2, 9, 0));
    let r = compute(&[answered, full, no_page], march(1, 3), at(4, 0, 0), None);
    assert_eq!(r.groups[0].first_response.count, 1);
    assert_eq!(r.groups[0].first_response.median_secs, Some(25 * 60));
    assert_eq!(r.unknown.first_response, 2, "a full page and no page are unknown");
    let days: Vec<u64> = r.groups[0].days.iter().map(|d| d.first_response.count).collect();
    assert_eq!(days, [0, 1, 0], "the answer counts on the day the customer asked");
    assert_eq!(r.groups[0].days[1].first_response.median_secs, Some(25 * 60));
}

#[test]
fn waiting_now_counts_open_conversations_whose_customer_wrote_last() {
    let now = at(10, 12, 0);
    let waiting = |uuid: &str, age: Duration| {
        let mut r = row(uuid, now - Duration::days(3));
        r.activity = Some(now - age);
        r.page = Some(page(vec![msg(now - age, Who::Customer)], r.activity));
        r
    };
    let mut answered = waiting("answered", Duration::hours(1));
    answered.page = Some(page(vec![msg(now, Who::Agent)], answered.activity));
    let mut closed = waiting("closed", Duration::hours(1));
    closed.closed_at = Some(now);
    let mut stale = waiting("stale", Duration::hours(1));
    stale.activity = Some(now);
    let rows = vec![
        waiting("a", Duration::minutes(5)),
        waiting("b", Duration::minutes(30)),
        waiting("c", Duration::hours(2)),
        waiting("d", Duration::hours(5)),
        waiting("e", Duration::days(2)),
        waiting("f", Duration::days(9)),
        answered,
        closed,
        stale,
        row("unfetched", now),
    ];
    let r = compute(&rows, Period::since(now, Duration::days(7)), now, None);
    let w = r.groups[0].waiting;
    assert_eq!(w.buckets, [1, 1, 1, 1, 2]);
    assert_eq!(w.buckets.iter().sum::<u64>(), w.total);
    assert_eq!(r.unknown.waiting, 2, "a page older than the activity and no page");
}

#[test]
fn groups_follow_all_named_first_and_a_conversation_counts_in_each_of_its_tags() {
    let mut a = row("a", at(1, 8, 0));
    a.tags = vec!["vip".into(), "billing".into(), "vip".into()];
    a.assignee = Some("zoe@example.com".into());
    let b = row("b", at(1, 9, 0));
    let r = compute(&[a.clone(), b.clone()], march(1, 1), at(2, 0, 0), Some(GroupBy::Tag));
    let names: Vec<(&str, u64)> = r.groups.iter().map(|g| (g.group.as_str(), g.opened)).collect();
    assert_eq!(names, vec![("all", 2), ("billing", 1), ("vip", 1), ("(untagged)", 1)]);
    let r = compute(&[a, b], march(1, 1), at(2, 0, 0), Some(GroupBy::Agent));
    let names: Vec<&str> = r.groups.iter().map(|g| g.group.as_str()).collect();
    assert_eq!(names, vec!["all", "zoe@example.com", "(unassigned)"]);
}
