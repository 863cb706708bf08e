//! Lost deliveries an incremental pass cannot see. An incremental pass
//! reads the contacts whose activity moved; a close, a reopen, an
//! assignment or a tag does not move a contact in the list, so with its
//! webhook lost only a full walk finds it. The service's webhook event
//! log records failed deliveries (kind and time, not which contact): when
//! it shows one of those kinds failing since the last pass began, the next
//! pass is a full walk, within the same budget, instead of waiting for the
//! scheduled one.

use chrono::{DateTime, Utc};

use super::state::HubState;
use crate::api::EventQuery;

/// Kinds whose change need not move the contact in the list.
pub const UNMOVED: &[&str] = &[
    "contact_updated",
    "contact_deleted",
    "conversation_opened",
    "conversation_closed",
];

/// Log records read per look (the most a page holds).
const ITEMS: u32 = 100;

/// When the service's log last shows a delivery of an [`UNMOVED`] kind
/// failing, if at or after `since`. One request from the budget (two when
/// the log spans pages: its order is not promised, so its first and last
/// page are read). A log that cannot be read says nothing (`None`): the
/// scheduled full walk still comes.
pub async fn since(st: &HubState, since: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let query = |page: u32| EventQuery {
        status: Some("failed".into()),
        subscriptions: UNMOVED.iter().map(|k| k.to_string()).collect(),
        page: Some(page),
        items: Some(ITEMS),
    };
    st.budget.take().await;
    let first = match st.api.webhook_events(&query(1)).await {
        Ok(p) => p,
        Err(e) => {
            tracing::debug!("reading the webhook event log failed: {e}");
            return None;
        }
    };
    let newest = |items: &[crate::api::WebhookEvent]| items.iter().filter_map(|e| e.created_at).max();
    let mut latest = newest(&first.items);
    if let Some(pages) = first.meta.pages.filter(|p| *p > 1) {
        st.budget.take().await;
        match st.api.webhook_events(&query(pages)).await {
            Ok(p) => latest = latest.max(newest(&p.items)),
            Err(e) => tracing::debug!("reading the webhook event log's last page failed: {e}"),
        }
    }
    latest.filter(|t| *t >= since)
}
