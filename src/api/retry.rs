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
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn delay_backs_off_with_jitter_and_honours_retry_after() {
        let p = RetryPolicy {
            max_attempts: 5,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(1000),
        };
        for _ in 0..50 {
            let d1 = p.delay(1, None);
            assert!(
                d1 >= Duration::from_millis(50) && d1 <= Duration::from_millis(100),
                "{d1:?}"
            );
            let d3 = p.delay(3, None);
            assert!(
                d3 >= Duration::from_millis(200) && d3 <= Duration::from_millis(400),
                "{d3:?}"
            );
            let d9 = p.delay(9, None);
            assert!(
                d9 >= Duration::from_millis(500) && d9 <= Duration::from_millis(1000),
                "{d9:?}"
            );
        }
        assert_eq!(p.delay(1, Some(Duration::from_millis(700))), Duration::from_millis(700));
        assert_eq!(p.delay(1, Some(Duration::from_secs(30))), Duration::from_millis(1000));
        assert!(p.delay(40, None) <= Duration::from_millis(1000));
    }

    #[test]
    fn retry_after_parses_seconds_and_dates() {
        let mut h = HeaderMap::new();
        assert_eq!(retry_after(&h), None);
        h.insert(RETRY_AFTER, HeaderValue::from_static("3"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(3)));
        h.insert(RETRY_AFTER, HeaderValue::from_static("0.5"));
        assert_eq!(retry_after(&h), Some(Duration::from_millis(500)));
        h.insert(RETRY_AFTER, HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"));
        assert_eq!(retry_after(&h), Some(Duration::ZERO));
        h.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&h), None);
    }
}
