//! Who sent which message through the hub, so a contact's message list
//! read through the hub names the agent (`"sentBy"` on each message it
//! knows), and so does the `message_created` event.
//!
//! Which uuid is reliable: the send's answer is `{message: {uuid, status:
//! "enqueued"}}` (extensions.md), and the reference documents that uuid as
//! the send request's (`GET /messages/status/:uuid`, whose record has an
//! id and a `messagingAppMessageId` of its own). It never says the message
//! carries the same uuid in `GET /contacts/:uuid/messages`. The embedded
//! server uses one uuid for both; the service may not. So a listed message
//! is matched
//!
//! 1. by uuid: the send's, the service's webhook's for it (when the webhook
//!    came while the send was in flight), or one matched before; else
//! 2. by what the send said: the same recipient (or contact), the same
//!    text, `createdAt` within [`WINDOW`] of the send, the nearest send not
//!    matched yet. The match is remembered (`listed`), so the next read
//!    finds it by uuid.
//!
//! A template send's text is filled by the service, so the hub cannot match
//! it by text: it is named only when its uuid matches.

use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use super::error::HubError;
use super::store::Store;

/// How far a listed message's `createdAt` may be from its send.
pub const WINDOW: chrono::Duration = chrono::Duration::minutes(10);

/// Sends older than this are forgotten (their messages are no longer named).
pub const KEEP: chrono::Duration = chrono::Duration::days(365);

/// The key the field has on a message, as on the wire.
pub const FIELD: &str = "sentBy";

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// One send through the hub.
#[derive(Debug, Clone, Copy)]
pub struct Send<'a> {
    /// The uuid the answer (or the webhook) gave, if any.
    pub message: Option<&'a str>,
    pub contact: Option<&'a str>,
    /// The send's `to` (the contact's identifier).
    pub to: &'a str,
    /// The text sent (none for a template).
    pub text: Option<&'a str>,
    pub agent: &'a str,
}

/// Records a send (once per message uuid).
pub fn record(store: &Store, send: Send<'_>, at: DateTime<Utc>) -> Result<(), HubError> {
    let conn = store.conn();
    if let Some(m) = send.message {
        let known: Option<i64> = conn
            .query_row(
                "SELECT id FROM sent WHERE message = ?1 OR listed = ?1 LIMIT 1",
                [m],
                |r| r.get(0),
            )
            .optional()?;
        if known.is_some() {
            return Ok(());
        }
    }
    conn.execute("DELETE FROM sent WHERE at < ?1", [stamp(at - KEEP)])?;
    conn.execute("DELETE FROM echoes WHERE sent NOT IN (SELECT id FROM sent)", [])?;
    conn.execute(
        "INSERT INTO sent (message, contact, recipient, text, agent, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![send.message, send.contact, send.to, send.text, send.agent, stamp(at)],
    )?;
    Ok(())
}

/// Sets `"sentBy"` on each message of a `{messages: [...]}` answer for
/// `contact` that the hub knows was sent by an agent (and removes one the
/// answer came with: only the hub names agents). Returns how many it named.
pub fn annotate(store: &Store, contact: &str, body: &mut Value) -> Result<usize, HubError> {
    let Some(messages) = body.get_mut("messages").and_then(Value::as_array_mut) else {
        return Ok(0);
    };
    let conn = store.conn();
    let mut used: Vec<i64> = Vec::new();
    let mut named = 0;
    for m in messages.iter_mut() {
        let Some(obj) = m.as_object_mut() else { continue };
        obj.remove(FIELD);
        if matches!(obj.get("status").and_then(Value::as_str), Some("received" | "note")) {
            continue;
        }
        let uuid = obj.get("uuid").and_then(Value::as_str).map(str::to_string);
        let mut agent: Option<String> = None;
        if let Some(u) = &uuid {
            agent = conn
                .query_row(
                    "SELECT agent FROM sent WHERE message = ?1 OR listed = ?1 LIMIT 1",
                    [u],
                    |r| r.get(0),
                )
                .optional()?;
        }
        if agent.is_none()
            && let (Some(text), Some(created)) = (
                obj.get("text").and_then(Value::as_str),
                obj.get("createdAt")
                    .and_then(Value::as_str)
                    .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                    .map(|t| t.with_timezone(&Utc)),
            )
        {
            let to = obj.get("to").and_then(Value::as_str).unwrap_or_default();
            let mut stmt = conn.prepare_cached(
                "SELECT id, agent, at FROM sent
                 WHERE listed IS NULL AND text = ?1 AND (contact = ?2 OR recipient = ?3)
                   AND at >= ?4 AND at <= ?5",
            )?;
            let rows = stmt.query_map(
                params![text, contact, to, stamp(created - WINDOW), stamp(created + WINDOW)],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?)),
            )?;
            let mut best: Option<(i64, String, i64)> = None;
            for row in rows {
                let (id, who, at) = row?;
                if used.contains(&id) {
                    continue;
                }
                let Ok(at) = DateTime::parse_from_rfc3339(&at) else {
                    continue;
                };
                let off = (at.with_timezone(&Utc) - created).num_milliseconds().abs();
                if best.as_ref().is_none_or(|b| off < b.2) {
                    best = Some((id, who, off));
                }
            }
            if let Some((id, who, _)) = best {
                used.push(id);
                if let Some(u) = &uuid {
                    conn.execute("UPDATE sent SET listed = ?1 WHERE id = ?2", params![u, id])?;
                }
                agent = Some(who);
            }
        }
        if let Some(a) = agent {
            obj.insert(FIELD.into(), Value::String(a));
            named += 1;
        }
    }
    Ok(named)
}

/// Names the agents of `page` (a page of `contact`'s messages the hub read
/// itself, with the service's key, so with nobody named): as [`annotate`],
/// keeping any name a message already has. Returns how many it named.
pub fn name_page(store: &Store, contact: &str, page: &mut [crate::api::Message]) -> Result<usize, HubError> {
    let mut body = serde_json::json!({ "messages": &*page });
    annotate(store, contact, &mut body)?;
    let named = body["messages"].as_array().map(|list| {
        list.iter()
            .map(|m| m.get(FIELD).and_then(Value::as_str).map(str::to_string))
            .collect::<Vec<_>>()
    });
    let mut n = 0;
    for (m, agent) in page.iter_mut().zip(named.unwrap_or_default()) {
        if m.sent_by.is_none()
            && let Some(a) = agent
        {
            m.sent_by = Some(a);
            n += 1;
        }
    }
    Ok(n)
}

/// A `message_created` webhook without a uuid (the documented payload has
/// none) for a message sent to `contact` (or `to`) at `created`: the agent
/// of the send through the hub it is the echo of, if any. That send is
/// the nearest to `created`, within [`WINDOW`], with the same text (any
/// text for a template, which the service fills), not echoed before; it
/// is marked echoed, so each send is announced once.
pub fn echo(
    store: &Store,
    contact: &str,
    to: &str,
    text: Option<&str>,
    created: DateTime<Utc>,
) -> Result<Option<String>, HubError> {
    let conn = store.conn();
    let mut stmt = conn.prepare_cached(
        "SELECT id, agent, at, text FROM sent
         WHERE (contact = ?1 OR recipient = ?2) AND at >= ?3 AND at <= ?4
           AND id NOT IN (SELECT sent FROM echoes)",
    )?;
    let rows = stmt.query_map(
        params![contact, to, stamp(created - WINDOW), stamp(created + WINDOW)],
        |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        },
    )?;
    let mut best: Option<(i64, String, i64)> = None;
    for row in rows {
        let (id, who, at, said) = row?;
        if said.is_some() && said.as_deref() != text {
            continue;
        }
        let Ok(at) = DateTime::parse_from_rfc3339(&at) else {
            continue;
        };
        let off = (at.with_timezone(&Utc) - created).num_milliseconds().abs();
        if best.as_ref().is_none_or(|b| off < b.2) {
            best = Some((id, who, off));
        }
    }
    drop(stmt);
    let Some((id, who, _)) = best else {
        return Ok(None);
    };
    conn.execute("INSERT OR IGNORE INTO echoes (sent) VALUES (?1)", [id])?;
    Ok(Some(who))
}

/// `/contacts/:uuid/messages` (any query): the contact, when `path` is a
/// contact's message list.
pub fn messages_path(path: &str) -> Option<&str> {
    let mut parts = path.trim_start_matches('/').trim_end_matches('/').split('/');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some("contacts"), Some(id), Some("messages"), None) if super::presence::valid_uuid(id) => Some(id),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_listed_message_is_named_by_uuid_else_by_recipient_text_and_time() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let at = DateTime::parse_from_rfc3339("2026-11-26T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let send = |message, text, agent| Send {
            message,
            contact: Some("c1"),
            to: "+1555",
            text,
            agent,
        };
        record(&store, send(Some("req-1"), Some("hello"), "dana"), at).unwrap();
        record(&store, send(Some("req-1"), Some("hello"), "dana"), at).unwrap();
        record(&store, send(Some("req-2"), Some("same"), "lee"), at).unwrap();
        record(
            &store,
            send(None, Some("same"), "dana"),
            at + chrono::Duration::seconds(30),
        )
        .unwrap();
        let mut body = json!({ "messages": [
            { "uuid": "req-1", "status": "sent", "text": "hello", "createdAt": "2026-11-26T10:00:01Z", "sentBy": "forged" },
            { "uuid": "m-2", "status": "sent", "text": "same", "to": "+1555", "createdAt": "2026-11-26T10:00:31Z" },
            { "uuid": "m-3", "status": "sent", "text": "same", "to": "+1555", "createdAt": "2026-11-26T10:00:02Z" },
            { "uuid": "m-4", "status": "received", "text": "same", "createdAt": "2026-11-26T10:00:02Z", "sentBy": "x" },
            { "uuid": "m-5", "status": "sent", "text": "late", "createdAt": "2026-11-26T11:00:00Z" },
        ]});
        assert_eq!(annotate(&store, "c1", &mut body).unwrap(), 3);
        let by: Vec<Option<&str>> = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.get(FIELD).and_then(Value::as_str))
            .collect();
        assert_eq!(by, [Some("dana"), Some("dana"), Some("lee"), None, None]);
        // Remembered: found again by uuid, even with the text changed.
        let mut again = json!({ "messages": [{ "uuid": "m-2", "status": "sent", "text": "edited" }] });
        annotate(&store, "c1", &mut again).unwrap();
        assert_eq!(again["messages"][0][FIELD], "dana");
    }

    #[test]
    fn a_webhook_without_uuid_is_the_echo_of_one_send_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let at = DateTime::parse_from_rfc3339("2026-11-26T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let send = |text, agent| Send {
            message: Some("req"),
            contact: Some("c1"),
            to: "+1555",
            text,
            agent,
        };
        record(&store, send(Some("hello"), "dana"), at).unwrap();
        let later = at + chrono::Duration::seconds(2);
        assert_eq!(echo(&store, "c1", "+1555", Some("other"), later).unwrap(), None);
        assert_eq!(
            echo(&store, "c1", "+1555", Some("hello"), later).unwrap().as_deref(),
            Some("dana")
        );
        assert_eq!(echo(&store, "c1", "+1555", Some("hello"), later).unwrap(), None, "once");
        let mut template = send(None, "lee");
        template.message = Some("req-t");
        record(&store, template, at).unwrap();
        assert_eq!(
            echo(&store, "c1", "+1555", Some("Filled in"), later)
                .unwrap()
                .as_deref(),
            Some("lee")
        );
    }

    /// The hub's own read of a conversation names nobody: an agent's reply
    /// two seconds after the customer wrote then reads as a bot's, and the
    /// customer as still waiting. Named from the sends, it is answered; a
    /// name a message already had stays.
    #[test]
    fn a_page_the_hub_read_itself_names_its_agents_and_so_is_answered() {
        use crate::index::Wait;
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let at = DateTime::parse_from_rfc3339("2026-11-28T05:31:33.652Z")
            .unwrap()
            .with_timezone(&Utc);
        let send = Send {
            message: None,
            contact: Some("c1"),
            to: "+1555",
            text: Some("Hello, I am looking into it."),
            agent: "alex",
        };
        record(&store, send, at).unwrap();
        let mut page: Vec<crate::api::Message> = serde_json::from_value(json!([
            { "status": "sent", "text": "Hello, I am looking into it.", "to": "+1555", "createdAt": "2026-11-28T05:31:33.635Z" },
            { "status": "received", "text": "Where is my order?", "createdAt": "2026-11-28T05:31:31.622Z" },
            { "status": "sent", "text": "Earlier", "createdAt": "2026-11-28T05:00:00Z", "sentBy": "bea" },
        ]))
        .unwrap();
        assert!(
            matches!(Wait::of(&page), Wait::Since { .. }),
            "unnamed, the reply reads as automatic"
        );
        assert_eq!(name_page(&store, "c1", &mut page).unwrap(), 1);
        assert_eq!(page[0].sent_by.as_deref(), Some("alex"));
        assert_eq!(page[2].sent_by.as_deref(), Some("bea"), "a name it had stays");
        assert_eq!(Wait::of(&page), Wait::Answered);
    }

    #[test]
    fn only_a_contacts_message_list_is_annotated() {
        assert_eq!(messages_path("/contacts/abc/messages"), Some("abc"));
        assert_eq!(messages_path("/contacts/abc/messages/"), Some("abc"));
        assert_eq!(messages_path("/contacts/abc"), None);
        assert_eq!(messages_path("/contacts/a%20b/messages"), None);
        assert_eq!(messages_path("/messages/send"), None);
    }
}
