//! The status bar's line about the agent: availability and custom status,
//! compact, fitting 80 columns with the rest of the bar.

use super::*;

/// The status bar: the screen's last line.
fn bar(m: &Model) -> String {
    let t = draw(m);
    let buf = t.backend().buffer();
    let y = buf.area.height - 1;
    (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
}

#[test]
fn the_bar_shows_availability_and_custom_status_at_80_columns() {
    let mut m = rich(80, 24);
    let line = bar(&m);
    assert!(line.contains("demo account │ ● available · 🍔"), "{line}");
    assert!(line.contains("Lunch │ 20 loaded"), "{line}");
    assert!(bar(&m).ends_with("? help "), "{}", bar(&m));
    m.details.me.available = Some(false);
    m.details.me.custom_status = Some(("cs2".into(), "Out with the \u{1b}[31mkids until Monday 9:00".into()));
    let line = bar(&m);
    assert!(line.contains("│ ○ away · Out with the ␛[… │"), "{line}");
    assert!(line.ends_with("? help "), "the hint still fits: {line}");
    // Not known (no change made yet, no team list said it): nothing.
    m.details.me.available = None;
    m.details.me.custom_status = None;
    assert!(bar(&m).contains("demo account │ 20 loaded"), "{}", bar(&m));
}
