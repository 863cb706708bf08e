//! A delivery is a hint: what the hub cannot vouch for (a contact it does
//! not hold, a change of owner or state, a deletion) is read back from the
//! service before it is stored or announced. Lookups come from the
//! team's request budget, are coalesced per contact (an answer is reused
//! for [`REUSE`]), and are capped per minute ([`UNKNOWN_PER_MINUTE`] for
//! contacts the hub does not hold, [`ALL_PER_MINUTE`] in all): forged
//! deliveries cannot make the hub spend its budget without bound. A
//! lookup refused by a cap says nothing, and nothing is stored: the next
//! reconciliation pass finds what was real.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::http::header;
use serde_json::{Map, Value};

use crate::hub::state::HubState;

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
    fn reused(&self, key: &str) -> Option<Answer> {
        let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        recent.retain(|_, (at, _)| now.duration_since(*at) < REUSE);
        recent.get(key).map(|(_, a)| a.clone())
    }

    fn keep(&self, key: &str, answer: &Answer) {
        if *answer != Answer::Unknown {
            let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
            recent.insert(key.to_string(), (Instant::now(), answer.clone()));
        }
    }

    /// Whether one more lookup fits this minute's caps (and counts it).
    fn allowed(&self, held: bool) -> bool {
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

/// What the service says about the contact `key` (a uuid, or a phone
/// number for a message without its contact). `held`: whether the hub
/// holds it (lookups of unknown ones have the tighter cap).
pub async fn contact(st: &HubState, key: &str, held: bool) -> Answer {
    if let Some(a) = st.confirm.reused(key) {
        return a;
    }
    if !st.confirm.allowed(held) {
        st.counters
            .lookups_capped
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tracing::info!("a delivery was not confirmed: the lookups' cap for this minute is reached");
        return Answer::Unknown;
    }
    st.budget.take().await;
    st.counters.lookups.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let answer = get(st, key).await;
    st.confirm.keep(key, &answer);
    answer
}

async fn get(st: &HubState, key: &str) -> Answer {
    let url = format!(
        "{}/contacts/{}",
        st.config.base_url,
        url::form_urlencoded::byte_serialize(key.as_bytes()).collect::<String>()
    );
    let resp = st
        .http
        .get(&url)
        .bearer_auth(st.config.api_key.expose())
        .header(header::ACCEPT, "application/json")
        .send()
        .await;
    let Ok(resp) = resp else {
        return Answer::Unknown;
    };
    if resp.status() == reqwest::StatusCode::NOT_FOUND {
        return Answer::Gone;
    }
    if !resp.status().is_success() {
        return Answer::Unknown;
    }
    let Ok(body) = resp.json::<Value>().await else {
        return Answer::Unknown;
    };
    // `{"contact": {...}}`, the reference's `{"contact": [{...}]}`, or the contact.
    let inner = match body.get("contact") {
        Some(Value::Array(items)) => items.first().cloned(),
        Some(obj @ Value::Object(_)) => Some(obj.clone()),
        _ => Some(body),
    };
    match inner {
        Some(Value::Object(map)) if map.get("uuid").and_then(Value::as_str).is_some() => Answer::Exists(map),
        _ => Answer::Unknown,
    }
}
