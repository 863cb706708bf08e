//! Reconciliation by REST: webhooks get lost, so on start and every
//! `reconcile_every` the hub catches up with the existing sync code
//! (`index::sync`), inside the team's one request budget. An index that
//! never finished a walk gets a full walk first; after that, incremental
//! passes from the newest, and every `full_walk_every`-th pass a full walk
//! that also finds deletions and changes that did not move a contact. A
//! restart resumes from the file: no full walk when one finished before.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::state::{HubState, PassChanges};
use crate::index::IndexAccess;
use crate::index::sync::{self, SyncError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    Full,
    Incremental,
}

/// What one pass does; runs on a blocking thread because the sync code's
/// progress callback is not `Send`.
async fn pass(st: &HubState, kind: Pass) -> Result<(), SyncError> {
    let mut index = st.index.clone();
    let mut changes = PassChanges::default();
    let result = match kind {
        Pass::Full => sync::full_sync(&st.api, &mut index, &st.budget, &mut |_| {
            st.publish_pass_changes(&mut changes);
        })
        .await
        .map(|r| {
            tracing::info!(
                "full walk: {} seen, {} changed, {} removed",
                r.seen,
                r.changed,
                r.removed
            );
            st.counters.full_walks.fetch_add(1, Ordering::Relaxed);
        }),
        Pass::Incremental => sync::incremental_sync(&st.api, &mut index, &st.budget)
            .await
            .map(|r| tracing::debug!("incremental pass: {} requests, {} changed", r.requests, r.changed)),
    };
    // Also after a failure: what the pass stored is announced.
    st.finish_pass(changes);
    result?;
    st.counters.passes.fetch_add(1, Ordering::Relaxed);
    Ok(())
}

fn run_pass(st: &Arc<HubState>, kind: Pass) -> tokio::task::JoinHandle<()> {
    let st = st.clone();
    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let mut stopping = st.stopping.subscribe();
        handle.block_on(async {
            tokio::select! {
                r = pass(&st, kind) => if let Err(e) = r {
                    tracing::warn!("reconciliation ({kind:?}) failed, trying again later: {e}");
                },
                _ = stopping.wait_for(|s| *s) => {}
            }
        });
    })
}

pub async fn run(st: Arc<HubState>) {
    let walked = {
        let mut index = st.index.clone();
        index
            .with(|ix| ix.sync_state())
            .map(|s| s.full_walk_finished_at.is_some())
    };
    let first = if matches!(walked, Ok(true)) {
        Pass::Incremental
    } else {
        Pass::Full
    };
    let _ = run_pass(&st, first).await;
    let mut n: u32 = 0;
    loop {
        tokio::time::sleep(st.config.reconcile_every).await;
        n = n.wrapping_add(1);
        let kind = if st.config.full_walk_every > 0 && n.is_multiple_of(st.config.full_walk_every) {
            Pass::Full
        } else {
            Pass::Incremental
        };
        let _ = run_pass(&st, kind).await;
    }
}
