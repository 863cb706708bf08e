//! The request budget background work shares, and the agent's own
//! requests it yields to.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

/// Foreground requests in flight (the agent's own), which background work
/// waits for: the agent's actions always go first. Clones share the count.
#[derive(Debug, Clone, Default)]
pub struct Foreground(Arc<AtomicUsize>);

/// Held while a foreground request runs.
#[derive(Debug)]
pub struct ForegroundGuard(Arc<AtomicUsize>);

impl Foreground {
    /// Marks a foreground request in flight until the guard drops.
    pub fn enter(&self) -> ForegroundGuard {
        self.0.fetch_add(1, Ordering::SeqCst);
        ForegroundGuard(self.0.clone())
    }

    pub fn busy(&self) -> bool {
        self.0.load(Ordering::SeqCst) > 0
    }
}

impl Drop for ForegroundGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Background work waits for foreground requests at most this long before
/// going on anyway (a stuck request must not stop syncing for good).
const FOREGROUND_WAIT: Duration = Duration::from_secs(3);

#[derive(Debug)]
struct Bucket {
    rate: f64,
    /// The pace asked for; 429s lower `rate` to no less than an eighth of it.
    ceiling: f64,
    tokens: f64,
    last: Instant,
    /// No request before this (set by a 429).
    paused_until: Option<Instant>,
}

/// A token bucket: at most `rate` requests per second on average, bursts of
/// up to one second's worth. Clones share one bucket, so every background
/// task of a process spends from the same budget.
#[derive(Debug, Clone)]
pub struct Budget {
    bucket: Arc<Mutex<Bucket>>,
    foreground: Option<Foreground>,
}

impl Budget {
    /// `rate` requests per second; zero, negative or not finite: no limit.
    pub fn new(rate: f64) -> Budget {
        Budget {
            bucket: Arc::new(Mutex::new(Bucket {
                rate,
                ceiling: rate,
                tokens: rate.max(1.0),
                last: Instant::now(),
                paused_until: None,
            })),
            foreground: None,
        }
    }

    /// The same budget, yielding to the requests `foreground` counts.
    pub fn yielding_to(mut self, foreground: Foreground) -> Budget {
        self.foreground = Some(foreground);
        self
    }

    fn bucket(&self) -> std::sync::MutexGuard<'_, Bucket> {
        self.bucket.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until a request may go out, and spends a token on it.
    pub async fn take(&self) {
        if let Some(fg) = &self.foreground {
            let give_up = Instant::now() + FOREGROUND_WAIT;
            while fg.busy() && Instant::now() < give_up {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        loop {
            let wait = {
                let mut b = self.bucket();
                let now = Instant::now();
                match b.paused_until {
                    Some(until) if until > now => Some(until - now),
                    _ => {
                        b.paused_until = None;
                        if b.unlimited() {
                            None
                        } else {
                            let capacity = b.rate.max(1.0);
                            b.tokens = (b.tokens + now.duration_since(b.last).as_secs_f64() * b.rate).min(capacity);
                            b.last = now;
                            if b.tokens >= 1.0 {
                                b.tokens -= 1.0;
                                None
                            } else {
                                Some(Duration::from_secs_f64((1.0 - b.tokens) / b.rate))
                            }
                        }
                    }
                }
            };
            match wait {
                None => return,
                Some(d) => tokio::time::sleep(d).await,
            }
        }
    }

    /// After a 429: no request for `wait` (one second when the server did
    /// not say), and half the pace from now on (never below an eighth of
    /// the asked pace, nor one request every two seconds, so a few 429s
    /// cannot leave a sync crawling).
    pub fn back_off(&self, wait: Option<Duration>) {
        let wait = wait.unwrap_or(Duration::from_secs(1)).min(Duration::from_secs(60));
        let mut b = self.bucket();
        b.paused_until = Some(Instant::now() + wait);
        if !b.unlimited() {
            // Never below an eighth of the asked pace nor one request every
            // two seconds, and never faster than asked.
            let floor = (b.ceiling / 8.0).max(0.5).min(b.ceiling);
            b.rate = (b.rate / 2.0).max(floor);
            b.tokens = b.tokens.min(1.0);
        }
    }

    /// After another passing failure (a 5xx, a timeout): no request for
    /// `wait`, the pace unchanged; only a 429 speaks of the pace.
    pub fn pause(&self, wait: Duration) {
        self.bucket().paused_until = Some(Instant::now() + wait);
    }

    /// The current pace, requests per second (infinite: no limit).
    pub fn rate(&self) -> f64 {
        let b = self.bucket();
        if b.unlimited() { f64::INFINITY } else { b.rate }
    }

    /// How long until the next request may go out after a 429 (`None`: not
    /// paused).
    pub fn paused_for(&self) -> Option<Duration> {
        let b = self.bucket();
        b.paused_until.and_then(|u| u.checked_duration_since(Instant::now()))
    }
}

impl Bucket {
    fn unlimited(&self) -> bool {
        !(self.rate.is_finite() && self.rate > 0.0)
    }
}
