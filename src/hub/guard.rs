//! What keeps one agent or a sick service from hurting the team (issue
//! 34): a token bucket per agent for requests through the hub, and what
//! the hub knows of the service's health (`service_status` events).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::time::{Duration, Instant};

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

pub use super::config::RateLimit;

/// The event kind that tells agents the service's state.
pub const SERVICE_STATUS: &str = "service_status";

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// One bucket per agent name.
pub struct Limiter {
    limit: RateLimit,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Limiter {
    pub fn new(limit: RateLimit) -> Limiter {
        Limiter {
            limit: RateLimit {
                rate: if limit.rate.is_finite() && limit.rate > 0.0 {
                    limit.rate
                } else {
                    1.0
                },
                burst: limit.burst.max(1.0),
            },
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// `Ok` when `agent` may make a request now; otherwise the seconds
    /// until it may (for `Retry-After`).
    pub fn take(&self, agent: &str) -> Result<(), u64> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        let b = buckets.entry(agent.to_string()).or_insert(Bucket {
            tokens: self.limit.burst,
            at: now,
        });
        let elapsed = now.duration_since(b.at).as_secs_f64();
        b.tokens = (b.tokens + elapsed * self.limit.rate).min(self.limit.burst);
        b.at = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - b.tokens) / self.limit.rate;
            // At least a second, and never an absurd wait from a tiny rate.
            Err(wait.ceil().clamp(1.0, 3600.0) as u64)
        }
    }
}

/// The service as the hub last saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServiceState {
    Up,
    /// Connect errors, timeouts or 5xx.
    Down,
    /// 429s.
    Limited,
}

impl ServiceState {
    pub fn as_str(self) -> &'static str {
        match self {
            ServiceState::Up => "up",
            ServiceState::Down => "down",
            ServiceState::Limited => "limited",
        }
    }
}

/// What one request to the service came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Answered,
    Unreachable,
    Limited,
}

impl Outcome {
    /// From an HTTP status the service answered.
    pub fn of_status(status: u16) -> Outcome {
        match status {
            429 => Outcome::Limited,
            500..=599 => Outcome::Unreachable,
            _ => Outcome::Answered,
        }
    }
}

struct HealthInner {
    state: ServiceState,
    since: DateTime<Utc>,
    /// Failures of one kind in a row, and when the first was.
    failing: Option<(Outcome, u32, Instant, DateTime<Utc>)>,
    last_seen: Option<Instant>,
}

/// The service's health: `Down`/`Limited` once `threshold` requests in a
/// row failed that way, `Up` at the first answer after.
pub struct Health {
    inner: Mutex<HealthInner>,
    threshold: u32,
}

impl Health {
    pub fn new(threshold: u32) -> Health {
        Health {
            inner: Mutex::new(HealthInner {
                state: ServiceState::Up,
                since: Utc::now(),
                failing: None,
                last_seen: None,
            }),
            threshold: threshold.max(1),
        }
    }

    /// Records one outcome; returns the new state's event data when the
    /// state changed (the caller publishes it).
    pub fn record(&self, outcome: Outcome) -> Option<Value> {
        let mut h = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        h.last_seen = Some(Instant::now());
        let next = match outcome {
            Outcome::Answered => {
                h.failing = None;
                ServiceState::Up
            }
            bad => {
                let (count, first_at) = match h.failing {
                    Some((kind, n, _, at)) if kind == bad => (n + 1, at),
                    _ => (1, Utc::now()),
                };
                h.failing = Some((bad, count, Instant::now(), first_at));
                if count < self.threshold {
                    return None;
                }
                if bad == Outcome::Limited {
                    ServiceState::Limited
                } else {
                    ServiceState::Down
                }
            }
        };
        if next == h.state {
            return None;
        }
        h.since = match (next, h.failing) {
            (ServiceState::Up, _) | (_, None) => Utc::now(),
            (_, Some((_, _, _, first))) => first,
        };
        h.state = next;
        Some(status_json(h.state, h.since))
    }

    /// The state now and since when, as sent on the wire.
    pub fn status(&self) -> Value {
        let h = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        status_json(h.state, h.since)
    }

    pub fn state(&self) -> ServiceState {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner).state
    }

    /// True when nothing was heard from the service for `quiet`, or it is
    /// not up: time for a probe.
    pub fn wants_probe(&self, quiet: Duration) -> bool {
        let h = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        h.state != ServiceState::Up || h.last_seen.is_none_or(|t| t.elapsed() >= quiet)
    }
}

fn status_json(state: ServiceState, since: DateTime<Utc>) -> Value {
    json!({ "state": state.as_str(), "since": since.to_rfc3339_opts(SecondsFormat::Secs, true) })
}

/// The hub's guards, kept in `HubState`.
pub struct Guard {
    pub limiter: Limiter,
    pub health: Health,
}

impl Guard {
    pub fn new(limit: RateLimit, threshold: u32) -> Guard {
        Guard {
            limiter: Limiter::new(limit),
            health: Health::new(threshold),
        }
    }
}

impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guard").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_refuses_past_its_burst_with_a_wait() {
        let l = Limiter::new(RateLimit { rate: 0.5, burst: 2.0 });
        assert!(l.take("dana").is_ok());
        assert!(l.take("dana").is_ok());
        assert_eq!(l.take("dana"), Err(2));
        assert!(l.take("lee").is_ok(), "each agent has its own bucket");
    }

    #[test]
    fn health_turns_down_after_failures_in_a_row_and_up_at_the_first_answer() {
        let h = Health::new(2);
        assert!(h.record(Outcome::Unreachable).is_none());
        let down = h.record(Outcome::Unreachable).expect("down");
        assert_eq!(down["state"], "down");
        assert!(h.record(Outcome::Unreachable).is_none(), "announced once");
        assert_eq!(h.record(Outcome::Answered).expect("up")["state"], "up");
        assert!(h.record(Outcome::Limited).is_none());
        assert_eq!(h.record(Outcome::Limited).expect("limited")["state"], "limited");
    }
}
