//! The API client: typed calls, tolerant decoding, errors, retries and
//! cursor pages. Knows nothing of the terminal.

mod call;
mod client;
mod complete;
mod endpoints;
mod error;
mod key;
pub mod model;
mod page;
mod request;
mod response;
mod retry;

pub use client::{Client, MAX_BODY_BYTES};
pub use endpoints::{Deletion, KeyUser, NO_RECIPIENT};
pub use error::ApiError;
pub use key::ApiKey;
pub use model::*;
pub use page::{
    CursorGuard, MAX_CONTACT_PAGE, MAX_WALK_PAGES, Meta, Page, PageRequest, Pager, REPEATED_CURSOR, collect_pages,
    walk_cursor, walk_numbered,
};
pub use request::*;
pub use retry::RetryPolicy;

pub(crate) use client::parse_base_url;
pub(crate) use key::redact;
pub(crate) use response::excerpt;
