//! The API client: typed calls, tolerant decoding, errors, retries and
//! cursor pages. Knows nothing of the terminal.

mod client;
mod error;
pub mod model;
mod page;
mod request;

pub use client::{ApiKey, Client, RetryPolicy};
pub use error::ApiError;
pub use model::*;
pub use page::{MAX_CONTACT_PAGE, Meta, Page, PageRequest};
pub use request::*;
