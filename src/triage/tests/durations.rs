use std::time::Duration;

use super::super::{format_duration, parse_duration};

#[test]
fn durations_parse_as_agents_write_them() {
    assert_eq!(parse_duration("30m"), Ok(Duration::from_secs(1800)));
    assert_eq!(parse_duration(" 2h "), Ok(Duration::from_secs(7200)));
    assert_eq!(parse_duration("7d"), Ok(Duration::from_secs(7 * 86_400)));
    assert_eq!(parse_duration("1h 30m"), Ok(Duration::from_secs(5400)));
}

#[test]
fn a_bad_duration_says_what_to_write() {
    for bad in ["", "7", "soon", "2 fortnights"] {
        let e = parse_duration(bad).unwrap_err();
        assert!(e.contains("30m, 2h or 7d"), "{bad}: {e}");
    }
    assert!(parse_duration("7").unwrap_err().contains("no unit"));
}

#[test]
fn durations_show_their_two_largest_units() {
    let cases = [
        (40, "40s"),
        (300, "5m"),
        (7200, "2h"),
        (7500, "2h 5m"),
        (86_400, "1d"),
        (3 * 86_400 + 4 * 3600 + 60, "3d 4h"),
    ];
    for (secs, s) in cases {
        assert_eq!(format_duration(Duration::from_secs(secs)), s);
    }
}
