use chrono::{FixedOffset, TimeZone, Utc};
use chrono_tz::Europe::Paris;

use super::*;

/// Wednesday 25 November 2026, 10:30 in Paris (UTC+1).
fn now() -> DateTime<chrono_tz::Tz> {
    Paris.with_ymd_and_hms(2026, 11, 25, 10, 30, 0).single().unwrap()
}

fn local(until: Until) -> String {
    match until {
        Until::At(at) => at.with_timezone(&Paris).format("%a %Y-%m-%d %H:%M").to_string(),
        Until::Reply => "reply".into(),
    }
}

fn parsed(text: &str) -> String {
    local(parse_until(text, &now()).unwrap_or_else(|e| panic!("{text:?}: {e}")))
}

#[test]
fn durations_count_from_now() {
    assert_eq!(parsed("10m"), "Wed 2026-11-25 10:40");
    assert_eq!(parsed("1h 30m"), "Wed 2026-11-25 12:00");
    assert_eq!(parsed("3d"), "Sat 2026-11-28 10:30");
    assert_eq!(parsed(" 2H "), "Wed 2026-11-25 12:30");
}

#[test]
fn words_land_on_the_agents_clock() {
    assert_eq!(parsed("tonight"), "Wed 2026-11-25 19:00");
    assert_eq!(parsed("tomorrow"), "Thu 2026-11-26 09:00");
    assert_eq!(parsed("tomorrow 14:00"), "Thu 2026-11-26 14:00");
    assert_eq!(parsed("tomorrow 2pm"), "Thu 2026-11-26 14:00");
    assert_eq!(parsed("14:00"), "Wed 2026-11-25 14:00");
    // A time already past today is tomorrow's.
    assert_eq!(parsed("9:15"), "Thu 2026-11-26 09:15");
    assert_eq!(parsed("until reply"), "reply");
    assert_eq!(parsed("reply"), "reply");
}

#[test]
fn weekdays_are_the_next_one() {
    assert_eq!(parsed("next monday"), "Mon 2026-11-30 09:00");
    assert_eq!(parsed("mon"), "Mon 2026-11-30 09:00");
    assert_eq!(parsed("fri 14:00"), "Fri 2026-11-27 14:00");
    // Today's weekday: later today with a time, next week without one.
    assert_eq!(parsed("wed 16:00"), "Wed 2026-11-25 16:00");
    assert_eq!(parsed("wed 8:00"), "Wed 2026-12-02 08:00");
    assert_eq!(parsed("wednesday"), "Wed 2026-12-02 09:00");
    assert_eq!(parsed("next wed 16:00"), "Wed 2026-12-02 16:00");
}

#[test]
fn every_preset_parses_to_the_future() {
    for (label, typed) in PRESETS {
        let until = parse_until(typed, &now()).unwrap_or_else(|e| panic!("{label}: {e}"));
        if let Until::At(at) = until {
            assert!(at > now().with_timezone(&Utc), "{label}");
        }
    }
}

#[test]
fn nonsense_and_the_past_are_refused_with_a_sentence() {
    for bad in [
        "",
        "soon",
        "10",
        "0m",
        "25:00",
        "fri 25:00",
        "13pm",
        "tomorrow noonish",
        "mo",
    ] {
        let e = parse_until(bad, &now()).unwrap_err();
        assert!(!e.is_empty(), "{bad:?}");
    }
    let late = Paris.with_ymd_and_hms(2026, 11, 25, 21, 0, 0).single().unwrap();
    assert!(parse_until("tonight", &late).unwrap_err().contains("already evening"));
    // Typed text comes back inert.
    let e = parse_until("\u{1b}[2Jsoon", &now()).unwrap_err();
    assert!(!e.contains('\u{1b}'), "{e:?}");
}

#[test]
fn a_time_skipped_by_the_clock_change_moves_on_an_hour() {
    // 29 March 2026, 02:30 does not exist in Paris.
    let before = Paris.with_ymd_and_hms(2026, 3, 28, 12, 0, 0).single().unwrap();
    let until = parse_until("tomorrow 2:30", &before).unwrap();
    assert_eq!(local(until), "Sun 2026-03-29 03:30");
}

#[test]
fn describe_reads_like_a_clock() {
    let n = now();
    assert_eq!(parse_until("2h 5m", &n).unwrap().describe(&n), "in 2h 5m (12:35)");
    assert_eq!(parse_until("fri 14:00", &n).unwrap().describe(&n), "Fri 14:00");
    assert_eq!(Until::Reply.describe(&n), "until they reply");
    let fixed = FixedOffset::east_opt(0)
        .unwrap()
        .with_ymd_and_hms(2026, 1, 1, 0, 0, 0)
        .unwrap();
    let far = parse_until("30d", &fixed).unwrap();
    assert_eq!(far.describe(&fixed), "2026-01-31 00:00");
}

#[test]
fn a_snooze_ends_at_its_time_or_when_the_customer_writes() {
    let at = Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap();
    let snoozed = Utc.with_ymd_and_hms(2026, 11, 25, 10, 0, 0).unwrap();
    let until = Until::At(at);
    assert!(!until.is_over(at - Duration::minutes(1), snoozed, None));
    assert!(until.is_over(at, snoozed, None));
    // The customer's message from before the snooze does not wake it.
    assert!(!until.is_over(snoozed, snoozed, Some(snoozed - Duration::minutes(5))));
    assert!(until.is_over(snoozed, snoozed, Some(snoozed + Duration::minutes(5))));
    assert!(!Until::Reply.is_over(at, snoozed, None));
    assert!(Until::Reply.is_over(at, snoozed, Some(snoozed + Duration::seconds(1))));
}
