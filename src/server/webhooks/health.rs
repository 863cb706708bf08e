//! What the connection checks found.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// What the checks found so far.
#[derive(Debug, Default)]
pub struct Health {
    /// Checks sent since the server started.
    sent: AtomicU64,
    /// The last check's verdict (`None` before the first).
    healthy: Mutex<Option<bool>>,
}

impl Health {
    pub fn sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    pub fn healthy(&self) -> Option<bool> {
        *self.healthy.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn record(&self, ok: bool) {
        self.sent.fetch_add(1, Ordering::Relaxed);
        *self.healthy.lock().unwrap_or_else(|e| e.into_inner()) = Some(ok);
    }
}
