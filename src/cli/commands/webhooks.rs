//! `frontdesk webhooks events`: the webhook event log.

use clap::{Args, Subcommand, ValueEnum};

use super::shared::numbered_list;
use crate::api::{EventQuery, WebhookEvent, split_list};
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::{Tabular, local_time, yes_no};

#[derive(Debug, Subcommand)]
pub enum WebhooksCmd {
    /// List webhook events, newest first
    Events(EventsArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EventStatus {
    Failed,
    Success,
}

#[derive(Debug, Args)]
pub struct EventsArgs {
    /// Only failed or only successful deliveries
    #[arg(long)]
    pub status: Option<EventStatus>,
    /// Only these event kinds (comma-separated, e.g. message_created)
    #[arg(long, value_name = "A,B")]
    pub subscriptions: Option<String>,
    /// Page number (1-based)
    #[arg(long, conflicts_with = "all", value_parser = clap::value_parser!(u32).range(1..))]
    pub page: Option<u32>,
    /// Items per page
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub items: Option<u32>,
    /// Walk every page to the end
    #[arg(long)]
    pub all: bool,
}

/// The query the flags ask for (without the page, set per request).
pub fn event_query(args: &EventsArgs) -> EventQuery {
    EventQuery {
        status: args.status.map(|s| match s {
            EventStatus::Failed => "failed".to_string(),
            EventStatus::Success => "success".to_string(),
        }),
        subscriptions: args.subscriptions.as_deref().map(split_list).unwrap_or_default(),
        page: args.page,
        items: args.items,
    }
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: WebhooksCmd) -> Result<(), CliError> {
    let WebhooksCmd::Events(args) = cmd;
    let query = event_query(&args);
    let client = ctx.client()?;
    numbered_list(ctx, "webhooks events", args.all, client.webhook_events(&query), || {
        client.walk_webhook_events(query.clone())
    })
    .await
}

impl Tabular for WebhookEvent {
    fn headers() -> &'static [&'static str] {
        &["TIME", "EVENT", "PAYLOAD", "SUCCESS", "CODE"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            local_time(self.created_at),
            self.event.to_string(),
            self.payload.clone(),
            yes_no(self.success).into(),
            self.response
                .as_ref()
                .and_then(|r| r.code)
                .map(|c| c.to_string())
                .unwrap_or_default(),
        ]
    }
}
