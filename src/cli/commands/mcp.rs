//! `frontdesk mcp`: serves the inbox to an AI assistant over the Model
//! Context Protocol on stdio (see `crate::mcp`). stdout carries the
//! protocol only; notices go to stderr.

use chrono::Utc;
use clap::Args;

use super::cache::open_index;
use super::history::{self, Record};
use super::sync::refresh;
use super::views::all_views;
use crate::cli::{CliError, Ctx};
use crate::drafts::Drafts;
use crate::index::SharedIndex;
use crate::mcp::{ASSISTANT, Inbox, serve};

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Offer the tools that change the account (close, open, tag, untag, assign, snooze, unsnooze, send_reply)
    #[arg(long)]
    pub allow_writes: bool,
}

pub async fn run(ctx: &mut Ctx<'_>, args: McpArgs) -> Result<(), CliError> {
    let client = ctx.client()?;
    let (views, me) = all_views(ctx)?;
    let settings = ctx.settings()?;
    let (base_url, profile) = (settings.base_url.clone().unwrap_or_default(), settings.profile.clone());
    // With a team hub, snoozes are the team's and kept there.
    let hub = settings.hub().map_err(|e| CliError::Api {
        what: "reaching the hub".into(),
        source: e,
    })?;
    let mut index = open_index(ctx)?;
    // The lists answer from the index: bring it up to date first.
    if let Err(e) = refresh(ctx, &mut index).await
        && let Some(m) = e.message()
    {
        let _ = writeln!(ctx.err, "frontdesk: warning: {}", crate::cli::sanitize(&m));
    }
    let drafts = Drafts::for_account(&profile, &base_url);
    // The TUI keys its snoozes by the profile: the two meet.
    let snoozed = crate::snooze::store::file(&profile);
    let record = move |action: &crate::triage::bulk::Action, done: &crate::triage::write::Done| {
        let at = Utc::now();
        let record = Record {
            id: format!("{}-mcp", at.format("%Y%m%d-%H%M%S%.3f")),
            at,
            base_url: base_url.clone(),
            profile: profile.clone(),
            action: action.clone(),
            what: format!("by {ASSISTANT} (frontdesk mcp)"),
            total: 1,
            interrupted: false,
            undo_of: None,
            contacts: vec![history::entry(done)],
        };
        if let Err(e) = history::write(&record) {
            eprintln!("frontdesk: warning: {}", e.message().unwrap_or_default());
        }
    };
    let inbox = Inbox {
        client,
        index: SharedIndex::new(index),
        views,
        me,
        drafts,
        snoozed,
        hub,
        allow_writes: args.allow_writes,
        record: Box::new(record),
    };
    serve(inbox).await.map_err(CliError::Other)
}
