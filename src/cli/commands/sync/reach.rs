//! Before a command brings the index up to date: can the service be
//! reached at all? One request, one attempt, bounded by [`REACH_WITHIN`],
//! so a dead service is said within seconds instead of after the walk's
//! retries. Unreachable, the command answers from the index it has (saying
//! how old it is) or, with nothing indexed, fails.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::api::{ApiError, Client, RetryPolicy};
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::index::Index;

use crate::cli::commands::shared::index_err;

/// How long the service has to answer before it counts as unreachable.
pub const REACH_WITHIN: Duration = Duration::from_secs(5);

/// Whether to bring the index up to date.
#[derive(Debug, PartialEq, Eq)]
pub enum Reach {
    /// The service answered (whatever it said): sync.
    Sync,
    /// It cannot be reached: answer from the index as it is (said on stderr).
    AsIs,
}

/// Why `client` cannot be reached, if it cannot: a transport failure or
/// no answer within `within`. Any answer, an error status included, means
/// it can (the walk then reports what went wrong).
pub async fn unreachable(client: &Client, within: Duration) -> Option<String> {
    let once = client.clone().with_retry(RetryPolicy {
        max_attempts: 1,
        ..RetryPolicy::default()
    });
    match tokio::time::timeout(within, once.plan()).await {
        Err(_) | Ok(Err(ApiError::Timeout(_))) => Some(format!("no answer within {} s", within.as_secs())),
        Ok(Err(ApiError::Transport(why))) => Some(why),
        Ok(_) => None,
    }
}

/// Checks the service before a sync of `index`.
pub async fn check(ctx: &mut Ctx<'_>, client: &Client, index: &Index) -> Result<Reach, CliError> {
    let Some(why) = unreachable(client, REACH_WITHIN).await else {
        return Ok(Reach::Sync);
    };
    let url = client.base_url().to_string();
    let held = index.count().map_err(index_err)?;
    if held == 0 {
        return Err(CliError::Other(crate::cli::output::sanitize(&format!(
            "the service at {url} cannot be reached ({why}), and the local index is empty: nothing to answer from"
        ))));
    }
    let state = index.sync_state().map_err(index_err)?;
    let line = format!(
        "the service at {url} cannot be reached ({why}): answering from the local index ({held} contacts, {})",
        as_of(state.full_walk_finished_at, state.walk_started_at, Utc::now())
    );
    let _ = writeln!(ctx.err, "frontdesk: warning: {}", crate::cli::output::sanitize(&line));
    Ok(Reach::AsIs)
}

/// How old the index is, from its last complete walk (or the walk under way).
fn as_of(finished: Option<DateTime<Utc>>, started: Option<DateTime<Utc>>, now: DateTime<Utc>) -> String {
    let (what, at) = match (finished, started) {
        (Some(at), _) => ("last synced", at),
        (None, Some(at)) => ("partly synced, a walk started", at),
        (None, None) => return "never synced in full".into(),
    };
    let secs = (now - at).num_seconds().max(0);
    let ago = match secs {
        s if s < 120 => format!("{s} s"),
        s if s < 2 * 3600 => format!("{} min", s / 60),
        s if s < 2 * 86400 => format!("{} h", s / 3600),
        s => format!("{} days", s / 86400),
    };
    format!("{what} {} UTC, {ago} ago", at.format("%Y-%m-%d %H:%M"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_says_how_old_it_is() {
        let now: DateTime<Utc> = "2026-11-27T17:00:00Z".parse().unwrap();
        let at: DateTime<Utc> = "2026-11-27T14:30:00Z".parse().unwrap();
        assert_eq!(as_of(Some(at), None, now), "last synced 2026-11-27 14:30 UTC, 2 h ago");
        assert_eq!(
            as_of(None, Some(at), now),
            "partly synced, a walk started 2026-11-27 14:30 UTC, 2 h ago"
        );
        assert_eq!(as_of(None, None, now), "never synced in full");
    }
}
