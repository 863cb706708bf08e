//! What the receiver's lookups (`receiver/confirm.rs`) keep between
//! deliveries: answers reused for [`REUSE`], and the per-minute counts the
//! caps read. Part of the hub's state.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

/// An answer about a contact is reused this long.
pub const REUSE: Duration = Duration::from_secs(10);
/// Lookups of contacts the hub does not hold, a minute.
pub const UNKNOWN_PER_MINUTE: u32 = 30;
/// Lookups in all, a minute.
pub const ALL_PER_MINUTE: u32 = 120;
const MINUTE: Duration = Duration::from_secs(60);

/// What the service says about a contact.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// It exists; its raw object as the service answered it.
    Exists(Map<String, Value>),
    /// The service does not know it (404).
    Gone,
    /// No answer (a cap, an error, the service down): nothing is stored.
    Unknown,
}

/// Answers kept for [`REUSE`] and the per-minute counts.
#[derive(Debug)]
pub struct Confirmer {
    recent: Mutex<HashMap<String, (Instant, Answer)>>,
    window: Mutex<(Instant, u32, u32)>,
}

impl Default for Confirmer {
    fn default() -> Self {
        Confirmer {
            recent: Mutex::new(HashMap::new()),
            window: Mutex::new((Instant::now(), 0, 0)),
        }
    }
}

impl Confirmer {
    pub(super) fn reused(&self, key: &str) -> Option<Answer> {
        let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        recent.retain(|_, (at, _)| now.duration_since(*at) < REUSE);
        recent.get(key).map(|(_, a)| a.clone())
    }

    pub(super) fn keep(&self, key: &str, answer: &Answer) {
        if *answer != Answer::Unknown {
            let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
            recent.insert(key.to_string(), (Instant::now(), answer.clone()));
        }
    }

    /// Whether one more lookup fits this minute's caps (and counts it).
    pub(super) fn allowed(&self, held: bool) -> bool {
        let mut w = self.window.lock().unwrap_or_else(PoisonError::into_inner);
        if w.0.elapsed() >= MINUTE {
            *w = (Instant::now(), 0, 0);
        }
        if w.2 >= ALL_PER_MINUTE || (!held && w.1 >= UNKNOWN_PER_MINUTE) {
            return false;
        }
        w.2 += 1;
        if !held {
            w.1 += 1;
        }
        true
    }
}
