//! Durations as an agent types them: `30m`, `2h`, `7d`, `1h 30m`.

use std::time::Duration;

/// Parses a duration such as `30m`, `2h`, `7d` or `1h 30m` (humantime's
/// units: s, m, h, d, w). A bare number is refused: its unit would be a
/// guess. The problem comes back as a sentence.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("an empty duration: write one like 30m, 2h or 7d".into());
    }
    if t.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!(
            "\"{}\" has no unit: write one like 30m, 2h or 7d",
            crate::text::sanitize_line(t)
        ));
    }
    humantime::parse_duration(t).map_err(|e| {
        format!(
            "\"{}\" is not a duration ({e}): write one like 30m, 2h or 7d",
            crate::text::sanitize_line(t)
        )
    })
}

/// A duration the way an agent reads it: its two largest units
/// (`3d 4h`, `2h 5m`, `40s`).
pub fn format_duration(d: Duration) -> String {
    let secs = d.as_secs();
    let (days, hours, mins, s) = (secs / 86_400, secs / 3600 % 24, secs / 60 % 60, secs % 60);
    match (days, hours, mins) {
        (0, 0, 0) => format!("{s}s"),
        (0, 0, m) => format!("{m}m"),
        (0, h, 0) => format!("{h}h"),
        (0, h, m) => format!("{h}h {m}m"),
        (d, 0, _) => format!("{d}d"),
        (d, h, _) => format!("{d}d {h}h"),
    }
}
