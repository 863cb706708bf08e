//! `GET /v1/contacts` answered from the hub's index, so agents' list
//! walks send nothing to the service. The wire shape is the service's
//! (api.md: `{contacts, meta: {page, pages, next}}`, 20 a page, newest
//! activity first); the cursors are the hub's own, opaque to agents like
//! the service's. A list the index cannot answer (filters, field types,
//! a service cursor, an index that never finished a walk) is forwarded.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value, json};

use super::state::HubState;
use super::wire;
use crate::api::MAX_CONTACT_PAGE;
use crate::index::IndexAccess;

/// Contacts a page, as the service.
pub const PER_PAGE: usize = 20;
/// Every cursor the hub hands out starts so; others are the service's.
const PREFIX: &str = "hub1.";

/// Where a request asks to start.
#[derive(Debug, Clone, PartialEq, Eq)]
enum At {
    Page(u32),
    /// After the contact with this activity (as stored) and uuid.
    After(Option<String>, String),
}

fn encode(activity: Option<&str>, uuid: &str) -> String {
    let raw = json!([activity, uuid]).to_string();
    format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(raw))
}

fn decode(cursor: &str) -> Option<(Option<String>, String)> {
    let raw = URL_SAFE_NO_PAD.decode(cursor.strip_prefix(PREFIX)?).ok()?;
    serde_json::from_slice(&raw).ok()
}

/// What the query asks for, when the index can answer it; `Err` with a
/// 400 for a hub cursor that does not decode.
fn parse(query: Option<&str>) -> Option<Result<At, Response>> {
    let mut at = At::Page(1);
    let mut after = None;
    for (k, v) in url::form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        match (&*k, &*v) {
            (_, "") | ("include_field_types", "false") => {}
            ("page", n) => at = At::Page(n.parse().ok().filter(|n| (1..=MAX_CONTACT_PAGE).contains(n))?),
            ("after", c) if c.starts_with(PREFIX) => after = Some(c.to_string()),
            // Filters, field types, a service cursor: the service answers.
            _ => return None,
        }
    }
    Some(match after {
        None => Ok(at),
        Some(c) => match decode(&c) {
            Some((activity, uuid)) => Ok(At::After(activity, uuid)),
            None => Err(wire::error(StatusCode::BAD_REQUEST, "Invalid pagination cursor").into_response()),
        },
    })
}

/// The answer to `GET /contacts?query` from the index, or `None` to
/// forward it.
pub fn answer(st: &HubState, query: Option<&str>) -> Option<Response> {
    let at = match parse(query)? {
        Ok(at) => at,
        Err(resp) => return Some(resp),
    };
    let mut index = st.index.clone();
    let read = index.with(|ix| -> Result<Option<(Vec<_>, u64)>, crate::index::IndexError> {
        if ix.sync_state()?.full_walk_finished_at.is_none() {
            return Ok(None);
        }
        let rows = match &at {
            At::Page(n) => ix.page_by_activity(None, (*n as usize - 1) * PER_PAGE, PER_PAGE + 1)?,
            At::After(a, u) => ix.page_by_activity(Some((a.as_deref(), u)), 0, PER_PAGE + 1)?,
        };
        Ok(Some((rows, ix.count()?)))
    });
    let (mut rows, total) = match read {
        Ok(Some(v)) => v,
        Ok(None) => return None,
        Err(e) => {
            tracing::warn!("a contact page could not be read from the index, forwarded: {e}");
            return None;
        }
    };
    let more = rows.len() > PER_PAGE;
    rows.truncate(PER_PAGE);
    let next = match rows.last() {
        Some((c, activity)) if more => Value::String(encode(activity.as_deref(), &c.uuid)),
        _ => Value::Null,
    };
    let mut meta = Map::new();
    if let At::Page(n) = at {
        meta.insert("page".into(), json!(n));
        meta.insert("pages".into(), json!(total.div_ceil(PER_PAGE as u64)));
    }
    meta.insert("next".into(), next);
    let contacts: Vec<Value> = rows
        .into_iter()
        .filter_map(|(c, _)| serde_json::to_value(c).ok())
        .collect();
    Some(Json(json!({ "contacts": contacts, "meta": meta })).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_the_rest_is_forwarded() {
        let c = encode(Some("2026-01-01T00:00:00.000000Z"), "u-1");
        assert_eq!(
            decode(&c),
            Some((Some("2026-01-01T00:00:00.000000Z".into()), "u-1".into()))
        );
        assert_eq!(decode(&encode(None, "u-2")), Some((None, "u-2".into())));
        let q = format!("after={c}");
        assert!(matches!(parse(Some(&q)), Some(Ok(At::After(..)))));
        assert!(matches!(parse(None), Some(Ok(At::Page(1)))));
        assert!(matches!(parse(Some("page=3")), Some(Ok(At::Page(3)))));
        assert!(parse(Some("page=501")).is_none(), "the service refuses it");
        assert!(parse(Some("tags=vip")).is_none());
        assert!(parse(Some("after=abc")).is_none(), "a service cursor");
        assert!(matches!(parse(Some("after=hub1.%21%21")), Some(Err(_))));
    }
}
