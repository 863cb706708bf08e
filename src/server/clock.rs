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
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_advanced_and_clones_share_it() {
        let c = Clock::manual();
        let t0 = c.now_ms();
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(c.now_ms(), t0);
        let shared = c.clone();
        shared.advance(Duration::from_millis(2500));
        assert_eq!(c.now_ms(), t0 + 2500);
    }

    #[test]
    fn the_system_clock_ignores_advance() {
        let c = Clock::system();
        let t0 = c.now_ms();
        c.advance(Duration::from_secs(3600));
        assert!(c.now_ms() - t0 < 3_600_000);
    }
}
