//! The API client: typed calls, tolerant decoding, errors, retries and
//! cursor pages. Knows nothing of the terminal.

mod call;
mod client;
mod endpoints;
mod error;
pub mod model;
mod page;
mod request;
mod response;

pub use client::{ApiKey, Client, RetryPolicy};
pub use error::ApiError;
pub use model::*;
pub use page::{
    CursorGuard, MAX_CONTACT_PAGE, MAX_WALK_PAGES, Meta, Page, PageRequest, REPEATED_CURSOR, walk_cursor, walk_numbered,
};
pub use request::*;
