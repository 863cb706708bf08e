//! The two small statistics a report is made of: percentiles of a set of
//! durations and the age buckets of waiting conversations.

use chrono::Duration;
use serde::{Deserialize, Serialize};

/// The nearest-rank percentile `p` (0-100) of `sorted` (ascending): the
/// smallest value at least `p`% of the values are at or below. The median
/// is `p = 50` (the lower middle of an even count). `None` when empty.
pub fn percentile(sorted: &[i64], p: u32) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let n = sorted.len();
    let rank = (n * p.min(100) as usize).div_ceil(100).max(1);
    sorted.get(rank - 1).copied()
}

/// Median and p90 of a set of durations, in seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// How many durations were measured.
    pub count: u64,
    pub median_secs: Option<i64>,
    pub p90_secs: Option<i64>,
}

impl Timing {
    /// The timing of `secs` (any order).
    pub fn of(mut secs: Vec<i64>) -> Timing {
        secs.sort_unstable();
        Timing {
            count: secs.len() as u64,
            median_secs: percentile(&secs, 50),
            p90_secs: percentile(&secs, 90),
        }
    }
}

/// The upper bounds of the waiting buckets (the last one has none).
pub const BUCKET_LABELS: [&str; 5] = ["< 15 min", "< 1 h", "< 4 h", "< 1 day", "older"];

/// Which bucket a wait of `age` falls in (0: under 15 minutes … 4: a day
/// or more). A negative age (a clock ahead of ours) is the youngest.
pub fn bucket(age: Duration) -> usize {
    let m = age.num_minutes();
    match m {
        _ if m < 15 => 0,
        _ if m < 60 => 1,
        _ if m < 4 * 60 => 2,
        _ if m < 24 * 60 => 3,
        _ => 4,
    }
}

/// Conversations waiting now, by age.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    pub total: u64,
    /// Counts in the order of [`BUCKET_LABELS`].
    pub buckets: [u64; 5],
}

impl Waiting {
    pub fn add(&mut self, age: Duration) {
        self.total += 1;
        self.buckets[bucket(age)] += 1;
    }
}

/// A duration for a table cell: `45s`, `12m`, `3h 20m`, `2d 4h`; `-`
/// when unknown.
pub fn human(secs: Option<i64>) -> String {
    let Some(s) = secs else {
        return "-".into();
    };
    let s = s.max(0);
    let (d, h, m) = (s / 86_400, s % 86_400 / 3_600, s % 3_600 / 60);
    if d > 0 {
        format!("{d}d {h}h")
    } else if h > 0 {
        format!("{h}h {m}m")
    } else if m > 0 {
        format!("{m}m")
    } else {
        format!("{s}s")
    }
}
