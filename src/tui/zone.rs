//! The zone timestamps are shown in. Each timestamp is converted on its own
//! (not with one offset fixed at start-up), so times on both sides of a
//! daylight-saving change show their right hour.

use chrono::{DateTime, FixedOffset, Local, Offset, Utc};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    /// The system's local zone (`TZ` or /etc/localtime), as chrono reads it.
    Local,
    /// One fixed offset (UTC in snapshots).
    Fixed(FixedOffset),
    /// A named zone, so tests see a DST change whatever the host's zone.
    #[cfg(test)]
    Named(chrono_tz::Tz),
}

impl Zone {
    /// `t` in this zone, with the offset in force at `t`.
    pub fn local(self, t: DateTime<Utc>) -> DateTime<FixedOffset> {
        match self {
            Zone::Local => t.with_timezone(&Local).fixed_offset(),
            Zone::Fixed(o) => t.with_timezone(&o),
            #[cfg(test)]
            Zone::Named(tz) => t.with_timezone(&tz).fixed_offset(),
        }
    }
}

/// `t` as shown: in `zone`, or UTC when none is known.
pub fn local(t: DateTime<Utc>, zone: Option<Zone>) -> DateTime<FixedOffset> {
    zone.unwrap_or(Zone::Fixed(Utc.fix())).local(t)
}

#[cfg(test)]
mod tests;
