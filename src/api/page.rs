//! Pages and cursors.

use serde::{Deserialize, Serialize};

/// `meta` of a list answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// Current page, for page-based requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    /// Total pages, for page-based requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<u32>,
    /// Opaque cursor for the next batch; `None` on the last one.
    #[serde(default)]
    pub next: Option<String>,
}

/// One page of a list.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub meta: Meta,
}

/// Where a list request starts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum PageRequest {
    /// The first page (no `page`, no `after`).
    #[default]
    First,
    /// A page number (1-based). Contacts refuse numbers above 500.
    Number(u32),
    /// The batch after this cursor (from `meta.next`).
    After(String),
}

/// The highest page number GET /contacts serves.
pub const MAX_CONTACT_PAGE: u32 = 500;
