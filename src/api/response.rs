//! Reading answers: success bodies into typed values (tolerantly), error
//! bodies into a message and field errors.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::error::ApiError;
use super::page::{Meta, Page};

/// How many characters of a body a decode error quotes.
const EXCERPT_CHARS: usize = 120;

/// Makes server text safe to show: control characters become spaces, and
/// the text is cut to `max` characters.
pub(crate) fn clean_text(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// The first characters of a body, for a decode error.
pub(crate) fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.is_empty() {
        "(an empty body)".to_string()
    } else {
        clean_text(text, EXCERPT_CHARS)
    }
}

/// A successful answer's JSON, with what a decode error needs.
#[derive(Debug)]
pub(crate) struct Answer {
    endpoint: String,
    excerpt: String,
    value: Value,
}

impl Answer {
    pub(crate) fn parse(endpoint: String, body: &[u8], excerpt: String) -> Result<Answer, ApiError> {
        match serde_json::from_slice::<Value>(body) {
            Ok(value) => Ok(Answer {
                endpoint,
                excerpt,
                value,
            }),
            Err(e) => {
                let reason = if body.iter().all(u8::is_ascii_whitespace) {
                    "the body is empty".to_string()
                } else {
                    format!("it is not JSON: {e}")
                };
                Err(ApiError::Decode {
                    endpoint,
                    reason,
                    excerpt,
                })
            }
        }
    }

    #[cfg(test)]
    pub(crate) fn from_json(endpoint: &str, text: &str) -> Result<Answer, ApiError> {
        Answer::parse(endpoint.to_string(), text.as_bytes(), excerpt(text.as_bytes()))
    }

    fn fail(&self, reason: impl Into<String>) -> ApiError {
        ApiError::Decode {
            endpoint: self.endpoint.clone(),
            reason: reason.into(),
            excerpt: self.excerpt.clone(),
        }
    }

    fn convert<T: DeserializeOwned>(&self, value: Value, what: &str) -> Result<T, ApiError> {
        serde_json::from_value(value).map_err(|e| self.fail(format!("{what}: {e}")))
    }

    /// Takes the first of `keys` present and not null.
    fn take(&mut self, keys: &[&str]) -> Option<Value> {
        let object = self.value.as_object_mut()?;
        keys.iter().find_map(|k| object.remove(*k).filter(|v| !v.is_null()))
    }

    fn expected(keys: &[&str]) -> String {
        let names: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        format!("expected a field {}", names.join(" or "))
    }

    /// True when `key` holds an object (to tell a wrapped answer from a
    /// top-level one).
    pub(crate) fn has_object(&self, key: &str) -> bool {
        self.value.get(key).is_some_and(Value::is_object)
    }

    /// The whole body as `T` (GET /plan).
    pub(crate) fn whole<T: DeserializeOwned>(self) -> Result<T, ApiError> {
        let value = self.value.clone();
        self.convert(value, "unexpected shape")
    }

    /// The value under the first of `keys`.
    pub(crate) fn under<T: DeserializeOwned>(mut self, keys: &[&str]) -> Result<T, ApiError> {
        let value = self.take(keys).ok_or_else(|| self.fail(Self::expected(keys)))?;
        self.convert(value, keys[0])
    }

    /// The value under the first of `keys`, given as an object or as a
    /// one-element list (`contact` is written both ways).
    pub(crate) fn one<T: DeserializeOwned>(mut self, keys: &[&str]) -> Result<T, ApiError> {
        let value = self.take(keys).ok_or_else(|| self.fail(Self::expected(keys)))?;
        let value = match value {
            Value::Array(items) => items
                .into_iter()
                .next()
                .ok_or_else(|| self.fail(format!("`{}` is an empty list", keys[0])))?,
            other => other,
        };
        self.convert(value, keys[0])
    }

    /// A list answer: `{<key>: [...], meta: {...}}`, `meta` optional.
    pub(crate) fn page<T: DeserializeOwned>(mut self, keys: &[&str]) -> Result<Page<T>, ApiError> {
        let meta = match self.take(&["meta"]) {
            Some(m) => self.convert::<Meta>(m, "meta")?,
            None => Meta::default(),
        };
        let present = self
            .value
            .as_object()
            .is_some_and(|o| keys.iter().any(|k| o.contains_key(*k)));
        let items = match self.take(keys) {
            Some(list @ Value::Array(_)) => self.convert(list, keys[0])?,
            Some(_) => return Err(self.fail(format!("`{}` is not a list", keys[0]))),
            None if present => Vec::new(),
            None => return Err(self.fail(Self::expected(keys))),
        };
        Ok(Page { items, meta })
    }
}

/// An error body: `{"error": "message"}` or `{"error": {"field": ["msg"]}}`,
/// with an optional `code`. Other shapes give what they can.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ErrorBody {
    pub(crate) message: Option<String>,
    pub(crate) fields: BTreeMap<String, Vec<String>>,
    /// The body has the API's error shape (an `error` or `errors` key): the
    /// application answered, not a proxy or a missing route.
    pub(crate) api_shaped: bool,
}

impl ErrorBody {
    pub(crate) fn parse(body: &[u8]) -> ErrorBody {
        let Ok(value) = serde_json::from_slice::<Value>(body) else {
            return ErrorBody::default();
        };
        let mut out = ErrorBody::default();
        let error = value.get("error").or_else(|| value.get("errors"));
        out.api_shaped = error.is_some();
        match error {
            Some(Value::String(s)) => out.message = Some(s.clone()),
            Some(Value::Object(map)) => {
                for (field, msgs) in map {
                    let msgs = match msgs {
                        Value::Array(items) => items.iter().map(text_of).collect(),
                        other => vec![text_of(other)],
                    };
                    out.fields.insert(field.clone(), msgs);
                }
            }
            Some(Value::Array(items)) => {
                let parts: Vec<String> = items.iter().map(text_of).collect();
                out.message = Some(parts.join("; "));
            }
            _ => {}
        }
        if out.message.is_none() {
            out.message = value
                .get("message")
                .and_then(Value::as_str)
                .or_else(|| value.get("code").and_then(Value::as_str))
                .map(str::to_string);
        }
        if out.message.is_none() && !out.fields.is_empty() {
            let parts: Vec<String> = out
                .fields
                .iter()
                .map(|(f, m)| format!("{f}: {}", m.join("; ")))
                .collect();
            out.message = Some(parts.join(", "));
        }
        out
    }
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests;
