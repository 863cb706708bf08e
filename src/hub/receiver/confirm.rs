//! A delivery is a hint: what the hub cannot vouch for (a contact it does
//! not hold, a change of owner or state, a deletion) is read back from the
//! service before it is stored or announced. Lookups come from the
//! team's request budget, are coalesced per contact (an answer is reused
//! for `REUSE`), and are capped per minute (`UNKNOWN_PER_MINUTE` for
//! contacts the hub does not hold, `ALL_PER_MINUTE` in all): forged
//! deliveries cannot make the hub spend its budget without bound. A
//! lookup refused by a cap says nothing, and nothing is stored: the next
//! reconciliation pass finds what was real.

use axum::http::header;
use serde_json::Value;

pub use crate::hub::confirmer::Answer;
use crate::hub::state::HubState;

/// What a [`phone_key`] starts with.
const PHONE: &str = "phone:";

/// The key a lookup by phone number goes under (a message without its
/// contact names only the customer's number).
pub fn phone_key(number: &str) -> String {
    format!("{PHONE}{number}")
}

/// What the service says about the contact `key` (a uuid, or a
/// [`phone_key`]). `held`: whether the hub holds it (lookups of unknown
/// ones have the tighter cap).
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
    // A contact's own path takes its uuid only; a number has the
    // documented lookup (on the main channel: a webhook names no channel
    // uuid).
    let (path, id) = match key.strip_prefix(PHONE) {
        Some(number) => ("contacts/phone", number),
        None => ("contacts", key),
    };
    let url = format!(
        "{}/{path}/{}",
        st.config.base_url,
        url::form_urlencoded::byte_serialize(id.as_bytes()).collect::<String>()
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
