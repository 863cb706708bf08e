//! The server's notion of "now". Everything that reads the time (the
//! 24-hour rule, `closedAt`, delivery status, activity, the seed) asks the
//! clock in the server's state, so tests can run on a manual clock they
//! advance themselves instead of sleeping against wall-clock windows.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use chrono::Utc;

/// The system clock (the default) or a manual one shared with a test.
#[derive(Clone, Default)]
pub struct Clock(Option<Arc<AtomicI64>>);

impl Clock {
    /// The wall clock.
    pub fn system() -> Clock {
        Clock(None)
    }

    /// A clock that starts at the current wall-clock time and then moves
    /// only when [`Clock::advance`] is called. Clones share the same time.
    pub fn manual() -> Clock {
        Clock(Some(Arc::new(AtomicI64::new(Utc::now().timestamp_millis()))))
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        match &self.0 {
            Some(t) => t.load(Ordering::SeqCst),
            None => Utc::now().timestamp_millis(),
        }
    }

    /// Move a manual clock forward; the system clock ignores this.
    pub fn advance(&self, by: Duration) {
        if let Some(t) = &self.0 {
            let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
            t.fetch_add(ms, Ordering::SeqCst);
        }
    }

    pub fn is_manual(&self) -> bool {
        self.0.is_some()
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(t) => write!(f, "Clock::Manual({})", t.load(Ordering::SeqCst)),
            None => f.write_str("Clock::System"),
        }
    }
}

#[cfg(test)]
mod tests;
