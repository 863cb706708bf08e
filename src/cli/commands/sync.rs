//! `frontdesk sync`: one full sync of the account into the local index.

use clap::Args;

use super::cache::open_index;
use crate::api::{Client, RetryPolicy};
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::Progress;
use crate::index::Index;
use crate::index::sync::{Budget, STATES_PER_PASS, check_account, full_sync, incremental_sync, learn_states};

mod finish;
mod follow;
mod reach;
mod snapshot;

pub(crate) use finish::sync_err;
use finish::{finish_search, started_over};
use snapshot::from_hub;

pub(crate) use super::shared::index_err;

#[derive(Debug, Args)]
pub struct SyncArgs {
    /// Through a hub: after the snapshot, keep the index live from the hub's
    /// events, printing one line per event, until interrupted
    #[arg(long)]
    pub follow: bool,
}

/// Background walks retry a failed page more than the agent's own requests
/// do: nobody is waiting on one page.
pub(crate) fn sync_client(ctx: &mut Ctx<'_>) -> Result<Client, CliError> {
    let retry = RetryPolicy {
        max_attempts: 6,
        ..RetryPolicy::default()
    };
    Ok(ctx.client()?.with_retry(retry))
}

pub async fn run(ctx: &mut Ctx<'_>, args: SyncArgs) -> Result<(), CliError> {
    if args.follow {
        if ctx.settings()?.hub_token.is_none() {
            return Err(CliError::usage(
                "--follow needs a hub: set hub_url and hub_token (or FRONTDESK_HUB_URL and FRONTDESK_HUB_TOKEN)",
            ));
        }
        let mut index = open_index(ctx)?;
        return follow::run(ctx, &mut index).await;
    }
    // Without a hub, a missing key is the first thing said.
    let direct = match ctx.settings()?.hub_token {
        None => Some(sync_client(ctx)?),
        Some(_) => None,
    };
    let mut index = open_index(ctx)?;
    let Some(client) = direct else {
        let r = from_hub(ctx, &mut index, "loading the hub's snapshot")
            .await?
            .ok_or_else(|| CliError::Other("the hub settings could not be read".into()))?;
        return ctx.emit(&format!(
            "synced {} contacts from the hub ({} new or changed, {} removed)\n",
            r.seen, r.changed, r.removed
        ));
    };
    let mut pb = Progress::new(ctx.progress, "syncing contacts", "contacts");
    let budget = Budget::new(ctx.settings()?.sync_rate);
    let report = full_sync(&client, &mut index, &budget, &mut |p| {
        if let Some(n) = p.expected {
            pb.set_length(n.max(p.done));
        }
        pb.set_position(p.done);
    })
    .await;
    pb.finish_and_clear();
    finish_search(&mut index)?;
    let report = report.map_err(sync_err)?;
    if report.started_over {
        started_over(ctx);
    }
    let unknown = learn_states_now(&client, &mut index, &budget).await?;
    let unknown = match unknown {
        0 => String::new(),
        n => format!("; {n} conversations' state (open or closed) still unknown"),
    };
    ctx.emit(&format!(
        "synced {} contacts ({} new or changed, {} removed){unknown}\n",
        report.seen, report.changed, report.removed
    ))
}

/// Asks for the state of the newest contacts whose state the list did not
/// carry (up to [`STATES_PER_PASS`], within the budget); how many stay
/// unknown.
async fn learn_states_now(client: &Client, index: &mut Index, budget: &Budget) -> Result<u64, CliError> {
    let mut tried = std::collections::HashSet::new();
    let (_, failed) = learn_states(client, index, budget, STATES_PER_PASS, &mut tried).await;
    if let Some(e) = failed {
        return Err(sync_err(e));
    }
    index.unknown_state_count().map_err(index_err)
}

/// Brings the index up to date before reading it: an incremental pass, or
/// a full sync when no walk has completed yet or the index held another
/// account's data (said on stderr).
pub(crate) async fn refresh(ctx: &mut Ctx<'_>, index: &mut Index) -> Result<(), CliError> {
    // Through a hub the snapshot is the account as the hub holds it, read
    // in one request: no walk, no incremental pass.
    if from_hub(ctx, index, "loading the hub's snapshot").await?.is_some() {
        return Ok(());
    }
    let client = sync_client(ctx)?;
    // A dead service is said within seconds, not after the walk's retries.
    if reach::check(ctx, &client, index).await? == reach::Reach::AsIs {
        return Ok(());
    }
    let budget = Budget::new(ctx.settings()?.sync_rate);
    let state = index.sync_state().map_err(index_err)?;
    if state.full_walk_finished_at.is_some()
        && check_account(&client, index, &budget)
            .await
            .map_err(sync_err)?
            .is_some()
    {
        started_over(ctx);
    }
    let state = index.sync_state().map_err(index_err)?;
    if state.full_walk_finished_at.is_some() {
        incremental_sync(&client, index, &budget).await.map_err(sync_err)?;
        learn_states_now(&client, index, &budget).await?;
    } else {
        let mut pb = Progress::new(ctx.progress, "building the local index", "contacts");
        let done = full_sync(&client, index, &budget, &mut |p| {
            if let Some(n) = p.expected {
                pb.set_length(n.max(p.done));
            }
            pb.set_position(p.done)
        })
        .await;
        pb.finish_and_clear();
        if done.map_err(sync_err)?.started_over {
            started_over(ctx);
        }
        learn_states_now(&client, index, &budget).await?;
    }
    Ok(())
}
