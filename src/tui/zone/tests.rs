use chrono::TimeZone;

use super::*;

#[test]
fn each_timestamp_gets_the_offset_in_force_at_its_time() {
    // Europe/Berlin moves from +01:00 to +02:00 at 01:00 UTC on 2026-03-29.
    let zone = Some(Zone::Named(chrono_tz::Europe::Berlin));
    let before = Utc.with_ymd_and_hms(2026, 3, 29, 0, 30, 0).unwrap();
    let after = Utc.with_ymd_and_hms(2026, 3, 29, 2, 30, 0).unwrap();
    let shown = |t| crate::tui::widgets::stamp(Some(t), zone).unwrap();
    assert_eq!(shown(before), "2026-03-29 01:30");
    assert_eq!(shown(after), "2026-03-29 04:30");
    assert_eq!(
        local(after, None).format("%H:%M").to_string(),
        "02:30",
        "UTC when unknown"
    );
}
