//! What every endpoint file checks or writes the same way: ids that become
//! path segments, page numbers, list filters.

use crate::api::error::ApiError;

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
