//! Notifications snoozed for a while (or off until turned on), kept in the
//! state directory beside the snoozed conversations, so a restart keeps
//! the agent's choice.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, FixedOffset, NaiveTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};

/// Whether notifications may show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "notifications", content = "until", rename_all = "snake_case")]
pub enum Quiet {
    /// They show (the default).
    #[default]
    On,
    /// Snoozed until then; on again after.
    Until(DateTime<Utc>),
    /// Off until the agent turns them on.
    Off,
}

impl Quiet {
    /// Whether they are quiet at `now`.
    pub fn silent(self, now: DateTime<Utc>) -> bool {
        match self {
            Quiet::On => false,
            Quiet::Until(t) => now < t,
            Quiet::Off => true,
        }
    }

    /// What a snooze that ran out is now: `On`.
    pub fn at(self, now: DateTime<Utc>) -> Quiet {
        match self {
            Quiet::Until(t) if now >= t => Quiet::On,
            q => q,
        }
    }
}

/// The choices the status bar's picker offers, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Minutes15,
    Hour,
    Tomorrow9,
    Off,
    On,
}

impl Choice {
    pub const ALL: [Choice; 5] = [
        Choice::Minutes15,
        Choice::Hour,
        Choice::Tomorrow9,
        Choice::Off,
        Choice::On,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Choice::Minutes15 => "for 15 minutes",
            Choice::Hour => "for 1 hour",
            Choice::Tomorrow9 => "until tomorrow 9:00",
            Choice::Off => "off until turned on",
            Choice::On => "on",
        }
    }

    /// The state it sets, `now` being the agent's local time.
    pub fn quiet(self, now: DateTime<FixedOffset>) -> Quiet {
        match self {
            Choice::Minutes15 => Quiet::Until((now + Duration::minutes(15)).with_timezone(&Utc)),
            Choice::Hour => Quiet::Until((now + Duration::hours(1)).with_timezone(&Utc)),
            Choice::Tomorrow9 => {
                let day = now.date_naive() + Duration::days(1);
                let nine = day.and_time(NaiveTime::from_hms_opt(9, 0, 0).unwrap_or_default());
                match now.offset().from_local_datetime(&nine).single() {
                    Some(t) => Quiet::Until(t.with_timezone(&Utc)),
                    None => Quiet::Until((now + Duration::hours(12)).with_timezone(&Utc)),
                }
            }
            Choice::Off => Quiet::Off,
            Choice::On => Quiet::On,
        }
    }
}

/// Where it is kept: `<state dir>/frontdesk/notifications.json`.
pub fn file() -> Option<PathBuf> {
    crate::snooze::store::state_dir().map(|b| file_in(&b))
}

pub fn file_in(base: &Path) -> PathBuf {
    base.join("frontdesk").join("notifications.json")
}

/// What is kept; `On` without a file, and for a file that does not read
/// (it only ever holds this choice: losing it loses nothing else).
pub fn load(path: &Path) -> Quiet {
    std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Keeps `q` (through a temporary file, so a crash leaves the old one).
pub fn save(path: &Path, q: Quiet) -> Result<(), String> {
    let dir = path.parent().ok_or("no folder for the notifications file")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let body = serde_json::to_vec(&q).map_err(|e| e.to_string())?;
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, body).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<FixedOffset> {
        DateTime::parse_from_rfc3339(s).unwrap()
    }

    #[test]
    fn each_choice_sets_its_time_in_the_agents_zone() {
        let now = at("2026-11-27T14:15:00+01:00");
        let until = |c: Choice| match c.quiet(now) {
            Quiet::Until(t) => t.with_timezone(now.offset()).to_rfc3339(),
            q => format!("{q:?}"),
        };
        assert_eq!(until(Choice::Minutes15), "2026-11-27T14:30:00+01:00");
        assert_eq!(until(Choice::Hour), "2026-11-27T15:15:00+01:00");
        assert_eq!(until(Choice::Tomorrow9), "2026-11-28T09:00:00+01:00");
        assert_eq!(Choice::Off.quiet(now), Quiet::Off);
        let q = Choice::Minutes15.quiet(now);
        assert!(q.silent(now.with_timezone(&Utc)));
        let later = (now + Duration::minutes(15)).with_timezone(&Utc);
        assert!(!q.silent(later));
        assert_eq!(q.at(later), Quiet::On);
    }

    #[test]
    fn the_choice_survives_a_restart_and_a_broken_file_means_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = file_in(dir.path());
        assert_eq!(load(&path), Quiet::On, "no file yet");
        let q = Choice::Hour.quiet(at("2026-11-27T14:15:00+01:00"));
        save(&path, q).unwrap();
        assert_eq!(load(&path), q);
        save(&path, Quiet::Off).unwrap();
        assert_eq!(load(&path), Quiet::Off);
        std::fs::write(&path, "{not json").unwrap();
        assert_eq!(load(&path), Quiet::On);
    }
}
