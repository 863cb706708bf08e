use super::*;

#[test]
fn terminal_checks_name_a_fix_for_each_problem() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    };
    let good = terminal_checks(
        &env(&[("TERM", "xterm-256color"), ("LANG", "en_US.UTF-8")]),
        true,
        Some((120, 40)),
    );
    assert!(good.iter().all(|c| c.verdict == Verdict::Ok), "{good:?}");
    let bad = terminal_checks(&env(&[("TERM", "dumb"), ("LANG", "C")]), true, Some((40, 10)));
    assert_eq!(bad.iter().filter(|c| c.verdict == Verdict::Warn).count(), 3, "{bad:?}");
    assert!(bad.iter().all(|c| c.text.contains("fix:")), "{bad:?}");
}

#[test]
fn clock_skew_from_the_date_header() {
    let now = chrono::DateTime::parse_from_rfc3339("2026-11-22T15:00:00Z")
        .unwrap()
        .to_utc();
    assert_eq!(clock(Some("Sun, 22 Nov 2026 15:00:05 GMT"), now).verdict, Verdict::Ok);
    let c = clock(Some("Sun, 22 Nov 2026 14:55:00 GMT"), now);
    assert_eq!(c.verdict, Verdict::Warn);
    assert!(c.text.contains("300s ahead"), "{}", c.text);
    assert_eq!(clock(None, now).verdict, Verdict::Warn);
}
