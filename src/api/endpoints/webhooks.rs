//! The webhook event log.

use futures::stream::BoxStream;

use super::params::{comma_joined, page_param};
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::WebhookEvent;
use crate::api::page::{Page, walk_numbered};
use crate::api::request::EventQuery;

impl Client {
    /// GET /webhooks/events.
    pub async fn webhook_events(&self, query: &EventQuery) -> Result<Page<WebhookEvent>, ApiError> {
        let call = Call::get(&["webhooks", "events"])
            .query_opt("status", query.status.clone())
            .query_opt("page", page_param(query.page))
            .query_opt("items", query.items.map(|i| i.to_string()))
            .query_opt("subscriptions", comma_joined(&query.subscriptions))
            .about("webhook event log", "");
        self.fetch(&call)
            .await?
            .page(&["webhook_events", "webhookEvents", "events"])
    }

    /// Every page of GET /webhooks/events with `query`'s filters (its
    /// `page` is ignored: the walk starts at 1).
    pub fn walk_webhook_events(&self, query: EventQuery) -> BoxStream<'static, Result<Page<WebhookEvent>, ApiError>> {
        let client = self.clone();
        walk_numbered(move |n| {
            let client = client.clone();
            let query = EventQuery {
                page: Some(n),
                ..query.clone()
            };
            async move { client.webhook_events(&query).await }
        })
    }
}
