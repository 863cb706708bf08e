//! Which account the index holds, so a server reset to other data, or
//! another account behind the same profile, starts the index over instead
//! of leaving the old account's contacts in views and search.
//!
//! The fingerprint is the account's teams: GET /plan lists them, every
//! account has at least its default team, and their uuids are the
//! account's own, made with it and not shared with any other account. The
//! key is no fingerprint: a reset server keeps the key, and a key rotated
//! on the same account would throw away a good index. Teams come and go
//! one at a time, so the index holds the same account while one team of
//! the fingerprint is still listed; when none is, the data behind the
//! profile is another account's. Only hashes of the uuids are stored.

use sha2::{Digest, Sha256};

use super::budget::Budget;
use super::error::SyncError;
use crate::api::{ApiError, Client};
use crate::index::{IndexAccess, IndexError};

/// The one line shown (TUI toast, CLI stderr) when the index started over.
pub const STARTED_OVER: &str =
    "the account behind this profile changed (a server reset or another account): the local index started over";

/// GET /plan attempts after a 429 before the check is skipped this time.
const MAX_RATE_LIMITED: u32 = 4;

/// The fingerprint of a list of team uuids: the sorted, comma-separated
/// first 16 hex digits of each one's SHA-256. Empty for no teams.
pub fn fingerprint<'a>(teams: impl IntoIterator<Item = &'a str>) -> String {
    let mut parts: Vec<String> = teams
        .into_iter()
        .map(|uuid| {
            let digest = Sha256::digest(uuid.as_bytes());
            digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
        })
        .collect();
    parts.sort();
    parts.dedup();
    parts.join(",")
}

/// Whether two fingerprints name the same account: one team in common.
fn same_account(stored: &str, now: &str) -> bool {
    let now: Vec<&str> = now.split(',').filter(|p| !p.is_empty()).collect();
    stored.split(',').any(|p| now.contains(&p))
}

/// Checks which account the server holds against the index's fingerprint.
/// A first check stores it; another account's data starts the index over
/// ([`crate::index::Index::start_over`], its removals in the journal) and
/// returns [`STARTED_OVER`]. When the server does not say (no /plan, no
/// teams, a failure) nothing changes: the next check decides, and the
/// next full walk removes what the service no longer lists anyway.
pub async fn check_account(
    client: &Client,
    index: &mut impl IndexAccess,
    budget: &Budget,
) -> Result<Option<&'static str>, SyncError> {
    let mut rate_limited = 0;
    let plan = loop {
        budget.take().await;
        match client.plan().await {
            Ok(plan) => break plan,
            Err(ApiError::RateLimited { retry_after }) if rate_limited < MAX_RATE_LIMITED => {
                rate_limited += 1;
                budget.back_off(retry_after);
            }
            Err(e) => {
                tracing::info!("the account's identity is unknown this time: {e}");
                return Ok(None);
            }
        }
    };
    let now = fingerprint(plan.teams.iter().map(|t| t.uuid.as_str()));
    if now.is_empty() {
        return Ok(None);
    }
    Ok(index.with(|ix| -> Result<Option<&'static str>, IndexError> {
        match ix.account()? {
            Some(stored) if !same_account(&stored, &now) => {
                ix.start_over(&now)?;
                Ok(Some(STARTED_OVER))
            }
            Some(stored) if stored == now => Ok(None),
            // First check, or a team added or removed: follow it.
            _ => {
                ix.set_account(&now)?;
                Ok(None)
            }
        }
    })?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_team_in_common_is_the_same_account() {
        let old = fingerprint(["t1", "t2", "t3"]);
        assert_eq!(old, fingerprint(["t3", "t1", "t2"]), "order does not matter");
        assert!(!old.contains("t1"), "hashes only");
        assert!(same_account(&old, &fingerprint(["t3", "t4"])));
        assert!(!same_account(&old, &fingerprint(["t5", "t6"])));
        assert_eq!(fingerprint([]), "");
    }
}
