//! One page of contacts within the budget, counted in the pass's report.

use chrono::{DateTime, Utc};

use super::budget::Budget;
use super::error::SyncError;
use crate::api::{ApiError, Client, Contact, ContactFilter, Page, PageRequest};

/// What an incremental pass did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IncrementalReport {
    /// Requests made (429s the client retried count once).
    pub requests: u32,
    /// Contacts new or changed in the index.
    pub changed: u64,
}

/// One page of GET /contacts within the budget (a rate limit backs the
/// budget off and asks again), and when it was asked; every request
/// counted in `report`.
pub(super) async fn budgeted_page(
    client: &Client,
    filter: &ContactFilter,
    at: &PageRequest,
    budget: &Budget,
    report: &mut IncrementalReport,
) -> Result<(Page<Contact>, DateTime<Utc>), SyncError> {
    loop {
        budget.take().await;
        let asked = Utc::now();
        report.requests += 1;
        match client.list_contacts(filter, at).await {
            Ok(page) => return Ok((page, asked)),
            Err(ApiError::RateLimited { retry_after }) => budget.back_off(retry_after),
            Err(e) => return Err(e.into()),
        }
    }
}
