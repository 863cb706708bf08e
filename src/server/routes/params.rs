//! Query strings, typed: each route declares a serde struct and extracts it
//! with [`Q`], whose rejection keeps the JSON error shape and names the bad
//! parameter (`{"error": "invalid query parameter page: ..."}`, 400).
//! Paging arithmetic is checked: any page number past the end is an empty
//! page with the usual meta, never an overflow.

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use serde::Deserialize;
use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde_json::{Value, json};

use crate::server::error::ApiError;

/// `Query<T>` with a 400 `{"error": ...}` naming the parameter.
pub struct Q<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Q<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(Q(v)),
            Err(rejection) => {
                let text = rejection.body_text();
                let detail = text
                    .strip_prefix("Failed to deserialize query string: ")
                    .unwrap_or(&text);
                Err(ApiError::BadRequest(format!("invalid query parameter {detail}")))
            }
        }
    }
}

/// A page number: a positive integer; absent or empty is 1. A number too
/// large for 64 bits is simply far past the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page(pub u64);

impl Default for Page {
    fn default() -> Self {
        Page(1)
    }
}

impl<'de> Deserialize<'de> for Page {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let s = s.trim();
        if s.is_empty() {
            return Ok(Page(1));
        }
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(D::Error::custom("must be a positive integer"));
        }
        match s.parse::<u64>() {
            Ok(0) => Err(D::Error::custom("must be a positive integer")),
            Ok(n) => Ok(Page(n)),
            // Only digits, yet too large: saturate.
            Err(_) => Ok(Page(u64::MAX)),
        }
    }
}

/// `true`/`false` (also `1`/`0`, `yes`/`no`, any case); empty is false.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flag(pub bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Ok(Flag(true)),
            "false" | "0" | "no" | "" => Ok(Flag(false)),
            _ => Err(D::Error::custom("must be true or false")),
        }
    }
}

/// Routes that take nothing but `page`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PageQuery {
    pub page: Page,
}

/// Routes that take `include_field_types`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FieldTypesQuery {
    pub include_field_types: Flag,
}

/// `None` when nothing but blanks.
pub fn non_empty(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

pub fn pages(total: u64, per: u64) -> u64 {
    total.div_ceil(per).max(1)
}

/// Rows to skip for `page`, or `None` when the page lies past anything
/// SQLite could hold (then the page is empty).
pub fn offset(page: Page, per: u64) -> Option<i64> {
    page.0
        .checked_sub(1)?
        .checked_mul(per)
        .and_then(|o| i64::try_from(o).ok())
}

/// Page `page` of an already loaded small list, with `{page, pages}` meta.
pub fn paginate(items: Vec<Value>, page: Page, per: u64) -> (Vec<Value>, Value) {
    let total = items.len() as u64;
    let start = offset(page, per).map_or(total, |o| (o as u64).min(total)) as usize;
    let slice: Vec<Value> = items.into_iter().skip(start).take(per as usize).collect();
    (slice, json!({ "page": page.0, "pages": pages(total, per) }))
}

#[cfg(test)]
mod tests;
