//! POST /messages/send as the documentation describes it: `from`, `type`,
//! `content` and `channel_uuid` required; `to` (wins) or `bsuid`; media by
//! `content.url`; templates with `template_uuid` and `optin_contact`, a
//! one-variable template's value in `content.text`, several in
//! `template_values`; `metadata` (10 keys of 50 characters, values of 500);
//! `assigned_user`, `team_uuid`, `bot_status` applied to the contact; `fields`
//! (`contact,conversation`) added to the answer;
//! free text only within 24 hours of the contact's last message.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Map, Value, json};

use super::body::json_body;
use super::contact_view::load_contact;
use super::contacts::set_bot;
use super::messages::{insert_sent, template_text};
use crate::server::error::{ApiError, ApiResult, FieldErrors};
use crate::server::state::Shared;
use crate::server::validate::{self, TEXT_MAX_CHARS, finish, opt_bool, opt_str, push};
use crate::server::webhooks::{Event, emit, payloads};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
pub const TYPES: [&str; 5] = ["text", "image", "document", "audio", "video"];
const METADATA_KEYS: usize = 10;
const METADATA_KEY_CHARS: usize = 50;
const METADATA_VALUE_CHARS: usize = 500;

/// A validated send.
struct Plan {
    contact: i64,
    text: String,
    attachments: Vec<String>,
    metadata: Option<Value>,
    /// `assigned_user` (an email), `team_uuid` (the team's id), `bot_status`.
    assign: Option<String>,
    team: Option<i64>,
    bot: Option<&'static str>,
    /// `fields`: the answer also carries the contact, the conversation.
    with_contact: bool,
    with_conversation: bool,
}

/// The optional `assigned_user`, `team_uuid` and `bot_status` of a send.
type Assignment = (Option<String>, Option<i64>, Option<&'static str>);

fn assignment(
    conn: &Connection,
    map: &Map<String, Value>,
    bot_enabled: bool,
    errs: &mut FieldErrors,
) -> ApiResult<Assignment> {
    let assign = match opt_str(map, "assigned_user", errs) {
        None => None,
        Some(email) => {
            let known: Option<String> = conn
                .query_row(
                    "SELECT email FROM users WHERE email = ?1 COLLATE NOCASE",
                    [&email],
                    |r| r.get(0),
                )
                .optional()?;
            if known.is_none() {
                push(errs, "assigned_user", format!("unknown collaborator: {email}"));
            }
            known
        }
    };
    let team = match opt_str(map, "team_uuid", errs) {
        None => None,
        Some(uuid) => {
            let id: Option<i64> = conn
                .query_row("SELECT id FROM teams WHERE uuid = ?1", [&uuid], |r| r.get(0))
                .optional()?;
            if id.is_none() {
                push(errs, "team_uuid", format!("unknown team: {uuid}"));
            }
            id
        }
    };
    let bot = opt_str(map, "bot_status", errs).and_then(|b| {
        validate::bot_status(&b, bot_enabled)
            .map_err(|m| push(errs, "bot_status", m))
            .ok()
    });
    Ok((assign, team, bot))
}

/// `fields`: comma-separated `contact` and `conversation`.
fn fields(map: &Map<String, Value>, errs: &mut FieldErrors) -> (bool, bool) {
    let Some(list) = opt_str(map, "fields", errs) else {
        return (false, false);
    };
    let (mut contact, mut conversation) = (false, false);
    for f in list.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        match f {
            "contact" => contact = true,
            "conversation" => conversation = true,
            other => push(
                errs,
                "fields",
                format!("unknown field {other:?}; supported: contact,conversation"),
            ),
        }
    }
    (contact, conversation)
}

fn required_str(map: &Map<String, Value>, key: &str, errs: &mut FieldErrors) -> Option<String> {
    let v = opt_str(map, key, errs).filter(|s| !s.trim().is_empty());
    if v.is_none() && !errs.contains_key(key) {
        push(errs, key, "is required");
    }
    v
}

fn metadata(map: &Map<String, Value>, errs: &mut FieldErrors) -> Option<Value> {
    match map.get("metadata") {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => {
            if m.len() > METADATA_KEYS {
                push(errs, "metadata", format!("holds {METADATA_KEYS} keys at most"));
            }
            for (k, v) in m {
                if k.chars().count() > METADATA_KEY_CHARS {
                    push(
                        errs,
                        "metadata",
                        format!("keys are {METADATA_KEY_CHARS} characters at most"),
                    );
                }
                match v.as_str() {
                    Some(s) if s.chars().count() <= METADATA_VALUE_CHARS => {}
                    Some(_) => push(
                        errs,
                        "metadata",
                        format!("values are {METADATA_VALUE_CHARS} characters at most"),
                    ),
                    None => push(errs, "metadata", "values must be strings"),
                }
            }
            Some(Value::Object(m.clone()))
        }
        Some(_) => {
            push(errs, "metadata", "must be an object");
            None
        }
    }
}

/// The recipient: `to` (a phone number or platform identifier) wins over
/// `bsuid`; on the given channel.
fn recipient(
    conn: &Connection,
    map: &Map<String, Value>,
    channel: Option<i64>,
    errs: &mut FieldErrors,
) -> ApiResult<Option<i64>> {
    let to = opt_str(map, "to", errs).filter(|s| !s.trim().is_empty());
    let bsuid = opt_str(map, "bsuid", errs).filter(|s| !s.trim().is_empty());
    let (field, sql, key) = match (to, bsuid) {
        (Some(t), _) => (
            "to",
            "SELECT id, channel_id FROM contacts WHERE phone = ?1 OR uuid = ?1",
            t,
        ),
        (None, Some(b)) => ("bsuid", "SELECT id, channel_id FROM contacts WHERE bsuid = ?1", b),
        (None, None) => {
            if !errs.contains_key("to") && !errs.contains_key("bsuid") {
                push(errs, "to", "is required when bsuid is not given");
            }
            return Ok(None);
        }
    };
    let found: Option<(i64, Option<i64>)> = conn.query_row(sql, [&key], |r| Ok((r.get(0)?, r.get(1)?))).optional()?;
    match found {
        None => {
            push(errs, field, format!("no contact with {field} {key}"));
            Ok(None)
        }
        Some((id, on)) => {
            if let (Some(want), Some(on)) = (channel, on)
                && want != on
            {
                push(errs, "channel_uuid", "the contact does not write on this channel");
            }
            Ok(Some(id))
        }
    }
}

fn plan(conn: &Connection, map: &Map<String, Value>, bot_enabled: bool, now: i64) -> ApiResult<Plan> {
    let mut errs = FieldErrors::new();
    let (assign, team, bot) = assignment(conn, map, bot_enabled, &mut errs)?;
    let (with_contact, with_conversation) = fields(map, &mut errs);
    required_str(map, "from", &mut errs);
    let kind = required_str(map, "type", &mut errs);
    if let Some(k) = kind.as_deref()
        && !TYPES.contains(&k)
    {
        push(&mut errs, "type", format!("must be one of {}", TYPES.join(", ")));
    }
    let channel = match required_str(map, "channel_uuid", &mut errs) {
        None => None,
        Some(ch) => {
            let id: Option<i64> = conn
                .query_row("SELECT id FROM channels WHERE uuid = ?1", [&ch], |r| r.get(0))
                .optional()?;
            if id.is_none() {
                push(&mut errs, "channel_uuid", format!("unknown channel: {ch}"));
            }
            id
        }
    };
    let (text, url) = match map.get("content") {
        None | Some(Value::Null) => {
            push(&mut errs, "content", "is required");
            (None, None)
        }
        Some(Value::Object(c)) => (opt_str(c, "text", &mut errs), opt_str(c, "url", &mut errs)),
        Some(_) => {
            push(&mut errs, "content", "must be an object ({text} or {url, text})");
            (None, None)
        }
    };
    let media = kind.as_deref().is_some_and(|k| k != "text");
    let mut attachments = Vec::new();
    if media {
        match url.as_deref().map(str::trim) {
            None | Some("") => push(&mut errs, "content.url", "is required for a media message"),
            Some(u) if url::Url::parse(u).is_ok_and(|p| matches!(p.scheme(), "http" | "https")) => {
                attachments.push(u.to_string())
            }
            Some(_) => push(&mut errs, "content.url", "must be an http or https URL"),
        }
    }
    let contact = recipient(conn, map, channel, &mut errs)?;
    let metadata = metadata(map, &mut errs);
    let template = opt_str(map, "template_uuid", &mut errs);
    let text = match template {
        Some(t) => {
            if opt_bool(map, "optin_contact", &mut errs) != Some(true) {
                push(&mut errs, "optin_contact", "must be true to send a template");
            }
            // Several values in template_values; one in content.text.
            let values = match map.get("template_values") {
                None | Some(Value::Null) => text.clone().map(|t| json!([t])),
                Some(v) => Some(v.clone()),
            };
            template_text(conn, &t, values.as_ref(), &mut errs)?
        }
        None => {
            let t = text.unwrap_or_default();
            if !media && t.trim().is_empty() {
                push(&mut errs, "content.text", "is required");
            }
            if t.chars().count() > TEXT_MAX_CHARS {
                push(
                    &mut errs,
                    "content.text",
                    format!("is too long ({TEXT_MAX_CHARS} characters at most)"),
                );
            }
            if let Some(c) = contact {
                let last: Option<i64> = conn.query_row(
                    "SELECT MAX(created_at) FROM messages WHERE contact_id = ?1 AND status = 'received'",
                    [c],
                    |r| r.get(0),
                )?;
                if last.is_none_or(|at| now - at > DAY_MS) {
                    push(
                        &mut errs,
                        "content",
                        "the 24-hour window is closed: the contact last wrote more than 24 hours ago \
                         (or never); send a template instead",
                    );
                }
            }
            t
        }
    };
    finish(errs)?;
    let contact = contact.ok_or_else(|| ApiError::not_found("contact"))?;
    Ok(Plan {
        contact,
        text,
        attachments,
        metadata,
        assign,
        team,
        bot,
        with_contact,
        with_conversation,
    })
}

pub async fn send(State(st): State<Shared>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    let bot_enabled = st.bot_enabled;
    let (answer, events) = st
        .db_now(move |conn, now| {
            let tx = conn.transaction()?;
            let p = plan(&tx, &map, bot_enabled, now)?;
            let (id, uuid) = insert_sent(&tx, p.contact, &p.text, now)?;
            if !p.attachments.is_empty() || p.metadata.is_some() {
                tx.execute(
                    "UPDATE messages SET attachments = ?1, metadata = ?2 WHERE id = ?3",
                    params![
                        (!p.attachments.is_empty()).then(|| json!(p.attachments).to_string()),
                        p.metadata.as_ref().map(Value::to_string),
                        id
                    ],
                )?;
            }
            if let Some(email) = &p.assign {
                tx.execute(
                    "UPDATE contacts SET assigned_user = ?1 WHERE id = ?2",
                    params![email, p.contact],
                )?;
            }
            if let Some(team) = p.team {
                tx.execute(
                    "UPDATE contacts SET team_id = ?1 WHERE id = ?2",
                    params![team, p.contact],
                )?;
            }
            if let Some(bot) = p.bot {
                set_bot(&tx, p.contact, bot, now)?;
            }
            let row = load_contact(&tx, p.contact)?;
            let mut events = Vec::new();
            if p.assign.is_some() || p.team.is_some() || p.bot.is_some() {
                events.push(Event::contact("contact_updated", row.short_json()));
            }
            events.push(Event::message("message_created", payloads::message_created(&tx, id)?));
            let mut message = json!({ "uuid": uuid, "status": "enqueued" });
            if p.with_conversation {
                let c = row.conversation_json(None);
                message["conversation"] = json!({
                    "source": c["source"], "href": c["href"], "createdAt": c["createdAt"]
                });
            }
            if p.with_contact {
                // The documentation's example shape; the account keeps no email.
                message["contact"] = json!({
                    "uuid": row.uuid, "name": row.name, "phone": row.phone, "email": Value::Null
                });
            }
            tx.commit()?;
            Ok((json!({ "message": message }), events))
        })
        .await?;
    emit(&st, events).await;
    Ok(Json(answer))
}
