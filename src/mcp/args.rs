//! A tool's arguments, read strictly: unknown arguments and wrong types
//! are refused naming the argument; limits above the maximum give the
//! maximum (and the result says so); cursors are opaque.

use std::hash::{Hash, Hasher};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rmcp::model::JsonObject;
use serde_json::{Value, json};

pub type Args = JsonObject;

/// A search's input at most this many bytes...
pub const MAX_QUERY_BYTES: usize = 1024;
/// ...and this many words.
pub const MAX_QUERY_WORDS: usize = 32;
/// The longest note `add_note` takes (the service's limit on a message's
/// text, as `frontdesk contacts note` applies it).
pub const NOTE_MAX_CHARS: usize = 4096;

/// Refuses arguments the tool does not take.
pub fn only(args: &Args, allowed: &[&str]) -> Result<(), String> {
    for key in args.keys() {
        if !allowed.contains(&key.as_str()) {
            let takes = if allowed.is_empty() {
                "none".to_string()
            } else {
                allowed.join(", ")
            };
            return Err(format!(
                "unknown argument `{}`: this tool takes {takes}",
                crate::text::sanitize_line(key)
            ));
        }
    }
    Ok(())
}

/// A required non-empty string.
pub fn text(args: &Args, key: &str) -> Result<String, String> {
    match args.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.trim().to_string()),
        _ => Err(format!("`{key}` is required: a non-empty string")),
    }
}

/// An optional string (`None` when absent or null).
pub fn opt_text(args: &Args, key: &str) -> Result<Option<String>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.trim().to_string())),
        Some(_) => Err(format!("`{key}` must be a non-empty string")),
    }
}

/// `limit`: `default` when absent; above `max` gives `max`, and the note
/// saying so.
pub fn limit(args: &Args, default: usize, max: usize) -> Result<(usize, Option<String>), String> {
    match args.get("limit") {
        None | Some(Value::Null) => Ok((default, None)),
        Some(v) => match v.as_u64() {
            Some(0) | None => Err(format!(
                "`limit` must be a whole number from 1 (at most {max} are given)"
            )),
            Some(n) if n as usize > max => Ok((max, Some(format!("limit {n} is above the maximum: {max} given")))),
            Some(n) => Ok((n as usize, None)),
        },
    }
}

/// A search's words, within [`MAX_QUERY_BYTES`] and [`MAX_QUERY_WORDS`].
pub fn query(args: &Args, key: &str) -> Result<String, String> {
    let q = match args.get(key) {
        Some(Value::String(s)) => s,
        _ => return Err(format!("`{key}` is required: a non-empty string")),
    };
    if q.len() > MAX_QUERY_BYTES {
        return Err(format!(
            "`{key}` is {} bytes: a search takes at most {MAX_QUERY_BYTES} bytes and {MAX_QUERY_WORDS} words",
            q.len()
        ));
    }
    let words = q.split_whitespace().count();
    if words > MAX_QUERY_WORDS {
        return Err(format!(
            "`{key}` has {words} words: a search takes at most {MAX_QUERY_WORDS} words"
        ));
    }
    if words == 0 {
        return Err(format!("`{key}` is required: a non-empty string"));
    }
    Ok(q.trim().to_string())
}

const BAD_CURSOR: &str =
    "`cursor` is not one this listing gave: pass back `nextCursor` as it came, with the same arguments";

/// What a cursor holds (`None`: no cursor, the listing's start), checked
/// to belong to the listing (tool and arguments) it came from.
pub fn cursor_value(args: &Args, tool: &str, key: &str) -> Result<Option<Value>, String> {
    let Some(v) = args.get("cursor") else { return Ok(None) };
    if v.is_null() {
        return Ok(None);
    }
    let s = v.as_str().ok_or(BAD_CURSOR)?;
    let raw = URL_SAFE_NO_PAD.decode(s).map_err(|_| BAD_CURSOR)?;
    let c: Value = serde_json::from_slice(&raw).map_err(|_| BAD_CURSOR)?;
    if c["t"] != json!(tool) || c["k"] != json!(fingerprint(key)) {
        return Err(BAD_CURSOR.into());
    }
    Ok(Some(c["v"].clone()))
}

/// A cursor holding `v` for the listing.
pub fn make_cursor(tool: &str, key: &str, v: Value) -> String {
    URL_SAFE_NO_PAD.encode(json!({ "t": tool, "k": fingerprint(key), "v": v }).to_string())
}

/// Where a listing continues: the position in it.
pub fn cursor(args: &Args, tool: &str, key: &str) -> Result<usize, String> {
    match cursor_value(args, tool, key)? {
        None => Ok(0),
        Some(v) => v.as_u64().map(|o| o as usize).ok_or_else(|| BAD_CURSOR.into()),
    }
}

/// The cursor for position `offset` of a listing.
pub fn next_cursor(tool: &str, key: &str, offset: usize) -> String {
    make_cursor(tool, key, json!(offset))
}

fn fingerprint(key: &str) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    format!("{:x}", h.finish())
}

/// A list of non-empty strings.
pub fn strings(args: &Args, key: &str) -> Result<Vec<String>, String> {
    let list = args
        .get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("`{key}` is required: a list of strings"))?;
    let mut out = Vec::new();
    for v in list {
        match v.as_str().map(str::trim) {
            Some(t) if !t.is_empty() => out.push(t.to_string()),
            _ => return Err(format!("`{key}` must hold non-empty strings only")),
        }
    }
    if out.is_empty() {
        return Err(format!("`{key}` must hold at least one"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
