//! When a snoozed conversation comes back, as an agent types it: `10m`,
//! `3d`, `1h 30m`, `tonight`, `tomorrow`, `tomorrow 14:00`, `fri 14:00`,
//! `next monday`, `14:00`, or `reply` (until the customer writes).
//!
//! Pure: the time comes in, in the agent's own time zone, so the TUI's
//! update, the CLI and the tests all read the same answers. Where snoozes
//! are kept (shared by the TUI and `frontdesk mcp`) is [`store`].

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc, Weekday};

use crate::triage::{format_duration, parse_duration};

pub mod store;

/// The hour "tomorrow" and a weekday come back at when no time is typed.
pub const MORNING: u32 = 9;
/// The hour "tonight" comes back at.
pub const EVENING: u32 = 19;

/// Until when a conversation sleeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "until", content = "at")]
pub enum Until {
    /// Until this moment (or the customer writes, whichever comes first).
    At(DateTime<Utc>),
    /// Until the customer writes.
    Reply,
}

/// The choices offered before anything is typed: a label and what typing
/// it means.
pub const PRESETS: [(&str, &str); 5] = [
    ("1 hour", "1h"),
    ("tonight", "tonight"),
    ("tomorrow 9:00", "tomorrow"),
    ("next Monday 9:00", "next monday"),
    ("until they reply", "reply"),
];

/// Reads what the agent typed, at `now` in the agent's time zone. The
/// problem comes back as a sentence naming what was typed (made inert).
pub fn parse_until<Tz: TimeZone>(text: &str, now: &DateTime<Tz>) -> Result<Until, String> {
    let t = text.trim().to_lowercase();
    let words: Vec<&str> = t.split_whitespace().collect();
    let shown = || crate::text::sanitize_line(text.trim());
    let tz = now.timezone();
    let today = now.date_naive();
    let at = |date: NaiveDate, time: NaiveTime| -> Result<Until, String> {
        let local = date.and_time(time);
        // A time skipped by a clock change moves on by the change's hour.
        let when = tz
            .from_local_datetime(&local)
            .earliest()
            .or_else(|| tz.from_local_datetime(&(local + Duration::hours(1))).earliest())
            .ok_or_else(|| format!("\"{}\" does not exist in your time zone", shown()))?;
        let when = when.with_timezone(&Utc);
        if when <= now.with_timezone(&Utc) {
            return Err(format!("\"{}\" is already past", shown()));
        }
        Ok(Until::At(when))
    };
    let morning = NaiveTime::from_hms_opt(MORNING, 0, 0).unwrap_or(NaiveTime::MIN);
    match words.as_slice() {
        [] => Err("type when: 1h, tonight, tomorrow, fri 14:00, or reply".into()),
        ["reply"] | ["until", "reply"] | ["until", "they", "reply"] => Ok(Until::Reply),
        ["tonight"] => {
            let evening = NaiveTime::from_hms_opt(EVENING, 0, 0).unwrap_or(NaiveTime::MIN);
            at(today, evening).map_err(|_| "it is already evening: try 2h or tomorrow".into())
        }
        ["tomorrow"] => at(today + Duration::days(1), morning),
        ["tomorrow", time] => at(today + Duration::days(1), clock(time).ok_or_else(|| bad(&shown()))?),
        [time] if clock(time).is_some() => {
            let time = clock(time).unwrap_or(morning);
            at(today, time).or_else(|_| at(today + Duration::days(1), time))
        }
        ["next", day] | [day] if weekday(day).is_some() => {
            let day = weekday(day).ok_or_else(|| bad(&shown()))?;
            at(next_weekday(today, day, false), morning)
        }
        ["next", day, time] | [day, time] if weekday(day).is_some() && clock(time).is_some() => {
            let (day, time) = (weekday(day), clock(time));
            let (Some(day), Some(time)) = (day, time) else {
                return Err(bad(&shown()));
            };
            // "fri 14:00" on a Friday morning is this afternoon; "next" skips a week.
            let this = words[0] != "next";
            at(next_weekday(today, day, this), time).or_else(|_| at(next_weekday(today, day, false), time))
        }
        _ => {
            let d = parse_duration(&t).map_err(|_| bad(&shown()))?;
            if d.is_zero() {
                return Err(bad(&shown()));
            }
            let d = Duration::from_std(d).map_err(|_| bad(&shown()))?;
            let when = now
                .with_timezone(&Utc)
                .checked_add_signed(d)
                .ok_or_else(|| bad(&shown()))?;
            Ok(Until::At(when))
        }
    }
}

fn bad(shown: &str) -> String {
    format!("\"{shown}\" is not a time: try 10m, 3d, tonight, tomorrow 9:00, fri 14:00 or reply")
}

/// `14:00`, `9:30`, `9` (hours), `2pm`, `9am`.
fn clock(s: &str) -> Option<NaiveTime> {
    let (s, pm) = match (s.strip_suffix("pm"), s.strip_suffix("am")) {
        (Some(h), _) => (h, Some(true)),
        (_, Some(h)) => (h, Some(false)),
        _ => (s, None),
    };
    let (h, m) = match s.split_once(':') {
        Some((h, m)) if m.len() == 2 => (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?),
        Some(_) => return None,
        None if pm.is_some() => (s.parse::<u32>().ok()?, 0),
        None => return None,
    };
    let h = match pm {
        Some(_) if !(1..=12).contains(&h) => return None,
        Some(true) if h != 12 => h + 12,
        Some(false) if h == 12 => 0,
        _ => h,
    };
    NaiveTime::from_hms_opt(h, m, 0)
}

fn weekday(s: &str) -> Option<Weekday> {
    let days = [
        ("monday", Weekday::Mon),
        ("tuesday", Weekday::Tue),
        ("wednesday", Weekday::Wed),
        ("thursday", Weekday::Thu),
        ("friday", Weekday::Fri),
        ("saturday", Weekday::Sat),
        ("sunday", Weekday::Sun),
    ];
    if s.len() < 3 {
        return None;
    }
    days.iter().find(|(name, _)| name.starts_with(s)).map(|&(_, d)| d)
}

/// The next `day` after `today` (or `today` itself when `this_week` and it
/// is that day).
fn next_weekday(today: NaiveDate, day: Weekday, this_week: bool) -> NaiveDate {
    let ahead = (7 + day.num_days_from_monday() as i64 - today.weekday().num_days_from_monday() as i64) % 7;
    let ahead = if ahead == 0 && !this_week { 7 } else { ahead };
    today + Duration::days(ahead)
}

impl Until {
    /// How the agent reads it at `now`: `in 2h 5m (14:05)`, `Mon 09:00`,
    /// `until they reply`.
    pub fn describe<Tz: TimeZone>(&self, now: &DateTime<Tz>) -> String
    where
        Tz::Offset: std::fmt::Display,
    {
        match self {
            Until::Reply => "until they reply".into(),
            Until::At(at) => {
                let local = at.with_timezone(&now.timezone());
                let left = (*at - now.with_timezone(&Utc)).to_std().unwrap_or_default();
                if local.date_naive() == now.date_naive() {
                    format!("in {} ({})", format_duration(left), local.format("%H:%M"))
                } else if left.as_secs() < 7 * 86_400 {
                    format!("{}", local.format("%a %H:%M"))
                } else {
                    format!("{}", local.format("%Y-%m-%d %H:%M"))
                }
            }
        }
    }

    /// Whether the conversation is awake again at `now`, given when the
    /// customer last wrote (`customer_at`) and when it was snoozed.
    pub fn is_over(&self, now: DateTime<Utc>, snoozed_at: DateTime<Utc>, customer_at: Option<DateTime<Utc>>) -> bool {
        let wrote = customer_at.is_some_and(|c| c > snoozed_at);
        match self {
            Until::Reply => wrote,
            Until::At(at) => wrote || now >= *at,
        }
    }
}

#[cfg(test)]
mod tests;
