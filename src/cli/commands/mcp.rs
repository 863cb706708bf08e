//! `frontdesk mcp`: serves the inbox to an AI assistant over the Model
//! Context Protocol on stdio (see `crate::mcp`). stdout carries the
//! protocol only; notices go to stderr. It answers at once: the index
//! fills and is kept fresh in the background by the TUI's index worker.

use chrono::Utc;
use clap::Args;

use super::cache::open_index;
use super::history::{self, Record};
use super::sync::sync_client;
use super::views::all_views;
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::drafts::Drafts;
use crate::fill::Worker;
use crate::index::SharedIndex;
use crate::mcp::{ASSISTANT, Fresh, Inbox, serve};

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Offer the tools that change the account (close, open, tag, untag, assign, unassign, snooze, unsnooze, send_reply, send_template, add_note)
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
    let (sync_rate, full_every, in_memory) = (settings.sync_rate, settings.full_sync_interval, !settings.cache);
    let snippets = (settings.config_path.clone(), settings.looks.snippets.clone());
    let index = SharedIndex::new(open_index(ctx)?);
    // Never wait: the index fills in the background exactly as the TUI
    // fills it (walks, last messages, the hub's stream), and each result
    // says how complete it is.
    let worker = Worker {
        client: sync_client(ctx)?.with_retry(crate::api::RetryPolicy {
            max_attempts: 6,
            ..Default::default()
        }),
        index: index.clone(),
        sync_rate,
        full_every,
        in_memory,
        hub: hub.clone(),
    };
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let link = crate::fill::spawn(worker, tx);
    let fresh = Fresh::new(&base_url).follow(rx, link.cmds.clone());
    if hub.is_none() {
        fresh.probe(client.clone());
    }
    let drafts = Drafts::for_account(&profile, &base_url);
    let account = (base_url.clone(), profile.clone());
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
        index,
        fresh,
        views,
        me,
        drafts,
        snoozed,
        hub,
        allow_writes: args.allow_writes,
        account,
        snippets,
        record: Box::new(record),
        remote: None,
    };
    serve(inbox).await.map_err(CliError::Other)
}
