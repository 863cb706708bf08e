//! The typed endpoint methods of [`Client`](super::Client), one file per
//! resource. Each builds a `Call`, sends it through the client's single
//! request path and decodes the answer.

mod account_more;
mod auth;
mod bot;
mod channels;
mod contacts;
mod contacts_more;
mod custom_statuses;
mod funnels;
mod messages;
mod plan;
mod send;
mod teams;
mod templates;
mod users;
mod webhooks;

pub use auth::KeyUser;
pub use messages::Deletion;
pub use send::NO_RECIPIENT;

use super::error::ApiError;

/// Checks an id before it becomes a path segment: an empty id or a dot
/// segment would silently address another resource (`/contacts/..`).
pub(crate) fn checked_id<'a>(noun: &str, id: &'a str) -> Result<&'a str, ApiError> {
    let trimmed = id.trim();
    if trimmed.is_empty() || trimmed == "." || trimmed == ".." {
        return Err(ApiError::NotFound {
            what: format!("{noun} {id:?} (not a usable id)"),
        });
    }
    Ok(trimmed)
}

/// A page number as a query value.
pub(crate) fn page_param(page: Option<u32>) -> Option<String> {
    page.map(|p| p.to_string())
}

/// Joins list filters the way the service reads them: comma-separated,
/// empty items dropped.
pub(crate) fn comma_joined(items: &[String]) -> Option<String> {
    let kept: Vec<&str> = items.iter().map(|s| s.trim()).filter(|s| !s.is_empty()).collect();
    if kept.is_empty() { None } else { Some(kept.join(",")) }
}
