//! When and how long to wait before repeating a request.

use std::time::Duration;

use rand::Rng;
use reqwest::header::{HeaderMap, RETRY_AFTER};

/// Retry policy for idempotent requests.
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    /// The wait before the next attempt after `failed` failed attempts:
    /// the server's `Retry-After` when it sent one (capped at `max_delay`),
    /// else `base_delay * 2^(failed-1)` capped at `max_delay`, with jitter
    /// drawn from its upper half so parallel clients spread out.
    pub fn delay(&self, failed: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_delay);
        }
        let factor = 2u32.saturating_pow(failed.saturating_sub(1).min(31));
        let ceiling = self.base_delay.saturating_mul(factor).min(self.max_delay);
        let nanos = u64::try_from(ceiling.as_nanos()).unwrap_or(u64::MAX);
        if nanos == 0 {
            return Duration::ZERO;
        }
        Duration::from_nanos(rand::rng().random_range(nanos / 2..=nanos))
    }
}

/// `Retry-After` as seconds (or an HTTP date).
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = text.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0)));
    }
    let at = chrono::DateTime::parse_from_rfc2822(text).ok()?;
    let wait = at.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(wait.to_std().unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests;
