//! Timestamps as the service writes them: ISO 8601 with `Z`, RFC 3339 with
//! offsets and fractions, and `YYYY-MM-DD HH:MM:SS +ZZZZ` (funnels, custom
//! statuses).

use chrono::{DateTime, FixedOffset, Utc};

/// Parses any of the service's timestamp formats into UTC.
pub fn parse_timestamp(s: &str) -> Option<DateTime<Utc>> {
    let s = s.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t.with_timezone(&Utc));
    }
    for fmt in [
        "%Y-%m-%d %H:%M:%S %z",
        "%Y-%m-%d %H:%M:%S%.f %z",
        "%Y-%m-%dT%H:%M:%S%.f%z",
    ] {
        if let Ok(t) = DateTime::<FixedOffset>::parse_from_str(s, fmt) {
            return Some(t.with_timezone(&Utc));
        }
    }
    // ISO 8601 without a zone: read as UTC.
    for fmt in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f"] {
        if let Ok(t) = chrono::NaiveDateTime::parse_from_str(s, fmt) {
            return Some(t.and_utc());
        }
    }
    None
}

/// serde adapter for an optional timestamp: absent, null, empty or
/// unparseable values all become `None` (a display field must never make a
/// whole response undecodable).
pub mod opt {
    use chrono::{DateTime, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::api::model::time::parse_timestamp;

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DateTime<Utc>>, D::Error> {
        let v = Option::<serde_json::Value>::deserialize(d)?;
        Ok(match v {
            Some(serde_json::Value::String(s)) => parse_timestamp(&s),
            Some(serde_json::Value::Number(n)) => n.as_i64().and_then(|secs| DateTime::from_timestamp(secs, 0)),
            _ => None,
        })
    }

    pub fn serialize<S: Serializer>(t: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
        match t {
            // Fractions of a second are kept as given (none, millis, …).
            Some(t) => s.serialize_str(&t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)),
            None => s.serialize_none(),
        }
    }
}
