//! Times as the index stores them.

use chrono::{DateTime, SecondsFormat, Utc};

/// A stamp as stored: fixed-width RFC 3339 in UTC, so text order is time
/// order.
pub(crate) fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

pub(crate) fn parse_stamp(s: Option<String>) -> Option<DateTime<Utc>> {
    s.and_then(|s| DateTime::parse_from_rfc3339(&s).ok())
        .map(|t| t.with_timezone(&Utc))
}
