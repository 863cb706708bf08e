//! Validation of writes. Everything is checked before anything is written,
//! so a failed write changes nothing.

use rusqlite::{Connection, OptionalExtension};
use serde_json::{Map, Value};

use super::error::{ApiError, ApiResult, FieldErrors};

pub const NOTE_MAX_CHARS: usize = 1000;
/// Names and titles (contacts, templates, channels).
pub const NAME_MAX_CHARS: usize = 255;
/// The text of a sent message.
pub const TEXT_MAX_CHARS: usize = 4096;

pub fn push(errs: &mut FieldErrors, field: &str, msg: impl Into<String>) {
    errs.entry(field.to_string()).or_default().push(msg.into());
}

pub fn finish(errs: FieldErrors) -> ApiResult<()> {
    if errs.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Validation(errs))
    }
}

/// A string field: absent or null gives `None`; any other non-string is an error.
/// The optional `title` of a rename body (templates, channels): trimmed, and
/// refused when empty.
pub fn rename_title(map: &Map<String, Value>) -> ApiResult<Option<String>> {
    let mut errs = FieldErrors::new();
    let title = opt_str(map, "title", &mut errs).map(|t| t.trim().to_string());
    match title.as_deref() {
        Some("") => push(&mut errs, "title", "must not be empty"),
        Some(t) if t.chars().count() > NAME_MAX_CHARS => push(
            &mut errs,
            "title",
            format!("is too long ({NAME_MAX_CHARS} characters at most)"),
        ),
        _ => {}
    }
    finish(errs)?;
    Ok(title)
}

pub fn opt_str(map: &Map<String, Value>, key: &str, errs: &mut FieldErrors) -> Option<String> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            push(errs, key, "must be a string");
            None
        }
    }
}

pub fn opt_bool(map: &Map<String, Value>, key: &str, errs: &mut FieldErrors) -> Option<bool> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => {
            push(errs, key, "must be true or false");
            None
        }
    }
}

pub struct FieldDef {
    pub name: String,
    pub kind: String,
    pub options: Vec<String>,
}

pub fn load_fields(conn: &Connection) -> rusqlite::Result<Vec<FieldDef>> {
    conn.prepare_cached("SELECT name, type, options FROM custom_fields ORDER BY id")?
        .query_map([], |r| {
            let options: String = r.get(2)?;
            Ok(FieldDef {
                name: r.get(0)?,
                kind: r.get(1)?,
                options: serde_json::from_str(&options).unwrap_or_default(),
            })
        })?
        .collect()
}

fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !s.chars().any(char::is_whitespace)
}

/// Check one custom field value against its definition; the stored form is
/// a string (a checkbox as a JSON-encoded array), `None` clears the field.
pub fn field_value(def: &FieldDef, v: &Value) -> Result<Option<String>, String> {
    if v.is_null() {
        return Ok(None);
    }
    let as_str = || v.as_str().ok_or_else(|| "must be a string".to_string());
    let stored = match def.kind.as_str() {
        "text" => as_str()?.to_string(),
        "email" => {
            let s = as_str()?;
            if !is_email(s) {
                return Err("must be an email address".into());
            }
            s.to_string()
        }
        "number" => {
            let s = match v {
                Value::Number(n) => n.to_string(),
                _ => as_str()?.trim().to_string(),
            };
            if !s.parse::<f64>().is_ok_and(f64::is_finite) {
                return Err("must be a number".into());
            }
            s
        }
        "date" => {
            let s = as_str()?;
            if s.len() != 10 || chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").is_err() {
                return Err("must be a date YYYY-MM-DD".into());
            }
            s.to_string()
        }
        "dropdown" => {
            let s = as_str()?;
            if !def.options.iter().any(|o| o == s) {
                return Err(format!("must be one of: {}", def.options.join(", ")));
            }
            s.to_string()
        }
        "checkbox" => {
            let items = v.as_array().ok_or("must be a list of options")?;
            let mut chosen: Vec<&str> = Vec::new();
            for item in items {
                let s = item.as_str().ok_or("must be a list of options")?;
                if !def.options.iter().any(|o| o == s) {
                    return Err(format!("{s:?} is not an option; options: {}", def.options.join(", ")));
                }
                if !chosen.contains(&s) {
                    chosen.push(s);
                }
            }
            serde_json::to_string(&chosen).unwrap_or_default()
        }
        other => return Err(format!("field type {other} cannot be written")),
    };
    Ok(Some(stored))
}

/// A validated create or update of a contact.
#[derive(Default)]
pub struct ContactWrite {
    pub identifier: Option<String>,
    pub source: Option<String>,
    pub name: Option<String>,
    pub tags: Option<Vec<String>>,
    pub custom_fields: Vec<(String, Option<String>)>,
    /// `Some(None)` unassigns.
    pub assigned_user: Option<Option<String>>,
    /// `Some(None)` removes the team.
    pub team_id: Option<Option<i64>>,
    pub channel_id: Option<i64>,
    /// `started` or `ended`.
    pub bot_status: Option<&'static str>,
    /// `Some(None)` clears the note.
    pub note: Option<Option<String>>,
}

pub fn contact_write(
    conn: &Connection,
    map: &Map<String, Value>,
    creating: bool,
    bot_enabled: bool,
) -> ApiResult<ContactWrite> {
    let mut errs = FieldErrors::new();
    let mut w = ContactWrite::default();
    let keys: &[&str] = if creating {
        &["identifier", "source", "name"]
    } else {
        &["name"]
    };
    for &key in keys {
        let v = opt_str(map, key, &mut errs).map(|s| s.trim().to_string());
        match v {
            Some(s) if s.is_empty() => push(&mut errs, key, "must not be empty"),
            Some(s) if s.chars().count() > NAME_MAX_CHARS => push(
                &mut errs,
                key,
                format!("is too long ({NAME_MAX_CHARS} characters at most)"),
            ),
            None if creating && !errs.contains_key(key) => push(&mut errs, key, "is required"),
            _ => {}
        }
        let v = map
            .get(key)
            .and_then(Value::as_str)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty());
        match key {
            "identifier" => w.identifier = v,
            "source" => w.source = v,
            _ => w.name = v,
        }
    }
    if let Some(id) = &w.identifier {
        let taken: Option<i64> = conn
            .query_row("SELECT id FROM contacts WHERE phone = ?1", [id], |r| r.get(0))
            .optional()?;
        if taken.is_some() {
            push(&mut errs, "identifier", "a contact with this identifier already exists");
        }
    }
    match map.get("tags") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            let mut tags = Vec::new();
            for item in items {
                let Some(t) = item.as_str() else {
                    push(&mut errs, "tags", "must be a list of strings");
                    continue;
                };
                let found: Option<String> = conn
                    .query_row("SELECT name FROM tags WHERE name = ?1 COLLATE NOCASE", [t], |r| {
                        r.get(0)
                    })
                    .optional()?;
                match found {
                    Some(name) if !tags.contains(&name) => tags.push(name),
                    Some(_) => {}
                    None => push(&mut errs, "tags", format!("unknown tag: {t}")),
                }
            }
            w.tags = Some(tags);
        }
        Some(_) => push(&mut errs, "tags", "must be a list of strings"),
    }
    match map.get("custom_fields") {
        None | Some(Value::Null) => {}
        Some(Value::Object(fields)) => {
            let defs = load_fields(conn)?;
            for (name, value) in fields {
                let key = format!("custom_fields.{name}");
                match defs.iter().find(|d| &d.name == name) {
                    None => push(&mut errs, &key, "unknown custom field"),
                    Some(def) => match field_value(def, value) {
                        Ok(stored) => w.custom_fields.push((def.name.clone(), stored)),
                        Err(msg) => push(&mut errs, &key, msg),
                    },
                }
            }
        }
        Some(_) => push(&mut errs, "custom_fields", "must be an object"),
    }
    if let Some(email) = opt_str(map, "assigned_user", &mut errs) {
        let found: Option<String> = conn
            .query_row(
                "SELECT email FROM users WHERE email = ?1 COLLATE NOCASE",
                [&email],
                |r| r.get(0),
            )
            .optional()?;
        match found {
            Some(e) => w.assigned_user = Some(Some(e)),
            None => push(&mut errs, "assigned_user", format!("unknown collaborator: {email}")),
        }
    }
    if !creating && opt_bool(map, "unassign_user", &mut errs) == Some(true) {
        if w.assigned_user.is_some() {
            push(&mut errs, "unassign_user", "cannot be combined with assigned_user");
        }
        w.assigned_user = Some(None);
    }
    if !creating && map.get("team_uuid") == Some(&Value::Null) {
        w.team_id = Some(None);
    } else if let Some(uuid) = opt_str(map, "team_uuid", &mut errs) {
        let id: Option<i64> = conn
            .query_row("SELECT id FROM teams WHERE uuid = ?1", [&uuid], |r| r.get(0))
            .optional()?;
        match id {
            Some(id) => w.team_id = Some(Some(id)),
            None => push(&mut errs, "team_uuid", format!("unknown team: {uuid}")),
        }
    }
    if let Some(uuid) = opt_str(map, "channel_uuid", &mut errs) {
        let id: Option<i64> = conn
            .query_row("SELECT id FROM channels WHERE uuid = ?1", [&uuid], |r| r.get(0))
            .optional()?;
        match id {
            Some(id) => w.channel_id = Some(id),
            None => push(&mut errs, "channel_uuid", format!("unknown channel: {uuid}")),
        }
    }
    if let Some(s) = opt_str(map, "bot_status", &mut errs) {
        match bot_status(&s, bot_enabled) {
            Ok(status) => w.bot_status = Some(status),
            Err(msg) => push(&mut errs, "bot_status", msg),
        }
    }
    if let Some(note) = opt_str(map, "note", &mut errs) {
        let n = note.chars().count();
        if n > NOTE_MAX_CHARS {
            push(
                &mut errs,
                "note",
                format!("is too long ({n} characters, {NOTE_MAX_CHARS} at most)"),
            );
        } else if note.is_empty() {
            w.note = Some(None);
        } else {
            w.note = Some(Some(note));
        }
    }
    finish(errs)?;
    Ok(w)
}

/// `bot_start` / `bot_end` to the stored bot status.
pub fn bot_status(s: &str, bot_enabled: bool) -> Result<&'static str, String> {
    let status = match s {
        "bot_start" => "started",
        "bot_end" => "ended",
        _ => return Err("must be bot_start or bot_end".into()),
    };
    if !bot_enabled {
        return Err("requires an enabled bot; this account has none".into());
    }
    Ok(status)
}

#[cfg(test)]
mod tests;
