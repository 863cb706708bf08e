//! Snoozes shared by the team: one per contact, kept in `hub.sqlite`.
//!
//! - `GET /hub/v1/snoozes`: `{"snoozes": [{contact, until, until_reply,
//!   since, agent, name}]}` (`name`: the contact's as the index has it).
//! - `PUT /hub/v1/snoozes/{contact}` `{"until": RFC 3339 | null,
//!   "until_reply": bool}`: snoozed by the token's agent, from now (a
//!   snooze with a time also ends when the customer writes). 200 with the
//!   snooze. A contact the index does not hold (once it finished a walk)
//!   is 404; a bad or past time, or neither a time nor `until_reply`,
//!   400 with a sentence saying what to send.
//! - `DELETE /hub/v1/snoozes/{contact}`: woken; 204 (also when it was not
//!   asleep).
//!
//! Every change is broadcast as `snooze_changed` `{contact, until,
//! until_reply, agent, since}`; a wake has `until` null and `until_reply`
//! false.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::params;
use serde_json::{Value, json};

use super::auth::Authed;
use super::error::HubError;
use super::state::HubState;
use super::store::Store;
use super::wire;
use crate::index::IndexAccess;

/// One snooze as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snooze {
    pub contact: String,
    pub until: Option<DateTime<Utc>>,
    pub until_reply: bool,
    pub since: DateTime<Utc>,
    pub agent: String,
}

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn parse(t: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t).ok().map(|t| t.with_timezone(&Utc))
}

impl Snooze {
    fn to_json(&self, name: Option<&str>) -> Value {
        let mut v = json!({
            "contact": self.contact,
            "until": self.until.map(stamp),
            "until_reply": self.until_reply,
            "since": stamp(self.since),
            "agent": self.agent,
        });
        if let Some(n) = name {
            v["name"] = json!(n);
        }
        v
    }
}

pub fn all(store: &Store) -> Result<Vec<Snooze>, HubError> {
    let conn = store.conn();
    let mut stmt = conn.prepare("SELECT contact, until, until_reply, since, agent FROM snoozes ORDER BY contact")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Option<String>>(1)?,
            r.get::<_, bool>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, String>(4)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (contact, until, until_reply, since, agent) = row?;
        out.push(Snooze {
            contact,
            until: until.as_deref().and_then(parse),
            until_reply,
            since: parse(&since).unwrap_or_default(),
            agent,
        });
    }
    Ok(out)
}

pub fn put(store: &Store, s: &Snooze) -> Result<(), HubError> {
    store.conn().execute(
        "INSERT INTO snoozes (contact, until, until_reply, since, agent) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (contact) DO UPDATE SET until = ?2, until_reply = ?3, since = ?4, agent = ?5",
        params![s.contact, s.until.map(stamp), s.until_reply, stamp(s.since), s.agent],
    )?;
    Ok(())
}

/// True when there was a snooze to remove.
pub fn remove(store: &Store, contact: &str) -> Result<bool, HubError> {
    Ok(store
        .conn()
        .execute("DELETE FROM snoozes WHERE contact = ?1", [contact])?
        > 0)
}

fn unavailable(e: &HubError) -> Response {
    tracing::error!("snoozes: {e}");
    wire::error(StatusCode::SERVICE_UNAVAILABLE, "the hub cannot keep snoozes right now").into_response()
}

/// The contact's name as the index holds it; `Err` when the index finished
/// a walk and does not hold it.
fn known(st: &HubState, contact: &str) -> Result<Option<String>, ()> {
    let mut index = st.index.clone();
    let found = index.with(|ix| -> Result<(Option<String>, bool), crate::index::IndexError> {
        let c = ix.get(contact)?;
        let walked = ix.sync_state()?.full_walk_finished_at.is_some();
        Ok((c.map(|c| c.name), walked))
    });
    match found {
        Ok((Some(name), _)) => Ok(Some(name)),
        Ok((None, true)) => Err(()),
        // Not walked yet (or the index failed): the agent knows the contact.
        Ok((None, false)) | Err(_) => Ok(None),
    }
}

/// `GET /hub/v1/snoozes`.
pub async fn list(State(st): State<Arc<HubState>>) -> Response {
    let snoozes = match all(&st.store) {
        Ok(s) => s,
        Err(e) => return unavailable(&e),
    };
    let mut index = st.index.clone();
    let items: Vec<Value> = snoozes
        .iter()
        .map(|s| {
            let name = index.with(|ix| ix.get(&s.contact)).ok().flatten().map(|c| c.name);
            s.to_json(name.as_deref())
        })
        .collect();
    Json(json!({ "snoozes": items })).into_response()
}

/// What a PUT asks for, or the 400's sentence.
fn read_body(body: &[u8], now: DateTime<Utc>) -> Result<(Option<DateTime<Utc>>, bool), &'static str> {
    let v: Value = serde_json::from_slice(body).map_err(|_| "the body is not JSON")?;
    let Value::Object(map) = v else {
        return Err(
            "the body must be an object: {\"until\": \"2026-11-27T09:00:00Z\" or null, \"until_reply\": true or false}",
        );
    };
    let until = match map.get("until") {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) => {
            Some(parse(t).ok_or("until must be an RFC 3339 time (like 2026-11-27T09:00:00Z) or null")?)
        }
        Some(_) => return Err("until must be an RFC 3339 time (like 2026-11-27T09:00:00Z) or null"),
    };
    let until_reply = match map.get("until_reply") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("until_reply must be true or false"),
    };
    if until.is_none() && !until_reply {
        return Err("a snooze needs until (an RFC 3339 time) or until_reply: true; DELETE wakes a conversation");
    }
    if until.is_some_and(|t| t <= now) {
        return Err("until is already past");
    }
    Ok((until, until_reply))
}

fn announce(st: &HubState, s: &Snooze) {
    st.bus.publish(wire::kind::SNOOZE_CHANGED, &s.to_json(None));
}

/// `PUT /hub/v1/snoozes/{contact}`.
pub async fn set(
    State(st): State<Arc<HubState>>,
    Extension(who): Extension<Authed>,
    Path(contact): Path<String>,
    body: Bytes,
) -> Response {
    if !super::presence::valid_uuid(&contact) {
        return wire::error(StatusCode::BAD_REQUEST, "the path must name a contact uuid").into_response();
    }
    let now = Utc::now();
    let (until, until_reply) = match read_body(&body, now) {
        Ok(x) => x,
        Err(why) => return wire::error(StatusCode::BAD_REQUEST, why).into_response(),
    };
    let Ok(name) = known(&st, &contact) else {
        return wire::error(StatusCode::NOT_FOUND, "no such contact in the hub's index").into_response();
    };
    let s = Snooze {
        contact,
        until,
        until_reply,
        since: now,
        agent: who.agent.name.clone(),
    };
    if let Err(e) = put(&st.store, &s) {
        return unavailable(&e);
    }
    announce(&st, &s);
    Json(json!({ "snooze": s.to_json(name.as_deref()) })).into_response()
}

/// `DELETE /hub/v1/snoozes/{contact}`.
pub async fn wake(
    State(st): State<Arc<HubState>>,
    Extension(who): Extension<Authed>,
    Path(contact): Path<String>,
) -> Response {
    if !super::presence::valid_uuid(&contact) {
        return wire::error(StatusCode::BAD_REQUEST, "the path must name a contact uuid").into_response();
    }
    match remove(&st.store, &contact) {
        Ok(true) => announce(
            &st,
            &Snooze {
                contact,
                until: None,
                until_reply: false,
                since: Utc::now(),
                agent: who.agent.name.clone(),
            },
        ),
        Ok(false) => {}
        Err(e) => return unavailable(&e),
    }
    StatusCode::NO_CONTENT.into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snooze_body_is_read_or_refused_with_a_sentence() {
        let now = parse("2026-11-26T10:00:00Z").unwrap();
        assert_eq!(
            read_body(br#"{"until": "2026-11-26T12:00:00+01:00", "until_reply": false}"#, now),
            Ok((parse("2026-11-26T11:00:00Z"), false))
        );
        assert_eq!(
            read_body(br#"{"until": null, "until_reply": true}"#, now),
            Ok((None, true))
        );
        for (body, says) in [
            (&b"nope"[..], "not JSON"),
            (br#"[1]"#, "must be an object"),
            (br#"{"until": "tomorrow"}"#, "RFC 3339"),
            (br#"{"until": 5}"#, "RFC 3339"),
            (br#"{"until_reply": "yes"}"#, "true or false"),
            (br#"{}"#, "needs until"),
            (br#"{"until": "2026-11-26T09:00:00Z"}"#, "already past"),
        ] {
            let e = read_body(body, now).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn snoozes_are_kept_replaced_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let since = parse("2026-11-26T10:00:00Z").unwrap();
        let mut s = Snooze {
            contact: "c1".into(),
            until: parse("2026-11-26T12:00:00Z"),
            until_reply: false,
            since,
            agent: "dana".into(),
        };
        put(&store, &s).unwrap();
        s.until = None;
        s.until_reply = true;
        s.agent = "lee".into();
        put(&store, &s).unwrap();
        assert_eq!(all(&store).unwrap(), [s]);
        assert!(remove(&store, "c1").unwrap());
        assert!(!remove(&store, "c1").unwrap());
        assert!(all(&store).unwrap().is_empty());
    }
}
