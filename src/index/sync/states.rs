//! Conversation states the list does not carry, learned within the budget.
//!
//! The documented list answer (GET /contacts) has no `closedAt`: a contact
//! first seen there is "state unknown" until a GET /contacts/:uuid, a close
//! or open answer or a conversation event says. A pass asks for the newest
//! unknown ones, one request each from the same budget as last messages;
//! a GET that does not carry `closedAt` either leaves the state unknown,
//! and the pass does not ask for that contact again (`tried`).

use std::collections::HashSet;

use chrono::Utc;

use super::budget::Budget;
use super::error::SyncError;
use crate::api::{ApiError, Client, ContactId};
use crate::index::{Index, IndexAccess, IndexError};

/// States asked for in one pass of `frontdesk sync` or before a command
/// reads the index: newest first, so the conversations a person looks at
/// are known first; the rest over later passes.
pub const STATES_PER_PASS: usize = 200;

impl Index {
    /// Up to `limit` contacts whose open or closed state is unknown (their
    /// stored JSON has no `closedAt`), newest first, leaving out `skip`.
    pub fn unknown_states(&self, limit: usize, skip: &HashSet<String>) -> Result<Vec<String>, IndexError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT uuid FROM contacts WHERE json_type(json, '$.closedAt') IS NULL
             ORDER BY activity IS NULL, activity DESC, uuid DESC",
        )?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for uuid in rows {
            let uuid = uuid?;
            if !skip.contains(&uuid) {
                out.push(uuid);
                if out.len() >= limit {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// How many contacts' states are unknown.
    pub fn unknown_state_count(&self) -> Result<u64, IndexError> {
        Ok(self.conn.query_row(
            "SELECT count(*) FROM contacts WHERE json_type(json, '$.closedAt') IS NULL",
            [],
            |r| r.get(0),
        )?)
    }
}

/// Asks GET /contacts/:uuid for up to `limit` contacts of unknown state
/// (newest first, none already in `tried`, which each is added to), one
/// request each within the budget, and stores what it answers. A 404 is
/// skipped; a 429 slows down and asks again; another failure stops the
/// batch. Returns how many states were learned, and the error that
/// stopped it, if any.
pub async fn learn_states(
    client: &Client,
    index: &mut impl IndexAccess,
    budget: &Budget,
    limit: usize,
    tried: &mut HashSet<String>,
) -> (usize, Option<SyncError>) {
    let wanted = match index.with(|ix| ix.unknown_states(limit, tried)) {
        Ok(w) => w,
        Err(e) => return (0, Some(e.into())),
    };
    let mut learned = 0;
    let mut i = 0;
    while let Some(uuid) = wanted.get(i) {
        budget.take().await;
        let asked = Utc::now();
        match client.get_contact(&ContactId::from(uuid.as_str()), false).await {
            Ok(c) => {
                tried.insert(uuid.clone());
                let known = !c.state_unknown;
                if let Err(e) = index.with(|ix| ix.upsert_states(std::slice::from_ref(&c), Utc::now(), asked)) {
                    return (learned, Some(e.into()));
                }
                learned += usize::from(known);
            }
            Err(ApiError::RateLimited { retry_after }) => {
                budget.back_off(retry_after);
                continue;
            }
            Err(ApiError::NotFound { .. }) => {
                tried.insert(uuid.clone());
            }
            Err(e) => return (learned, Some(e.into())),
        }
        i += 1;
    }
    (learned, None)
}
