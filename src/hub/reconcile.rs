//! Reconciliation by REST: webhooks get lost, so on start and every
//! `reconcile_every` the hub catches up with the existing sync code
//! (`index::sync`), inside the team's one request budget. An index that
//! never finished a walk gets a full walk first; after that, incremental
//! passes from the newest, and every `full_walk_every`-th pass a full walk
//! that also finds deletions and changes that did not move a contact; a
//! full walk sooner when the service's log shows such a change's delivery
//! lost (see `lost`). A restart resumes from the file: no full walk when
//! one finished before.
//!
//! An incremental pass reads every contact listed above the first page's
//! worth of contacts that keep the order the index holds them in
//! (`sync::incremental_by_order`: the service sends no `lastMessageAt`,
//! but lists the most recent conversation first): a webhook lost since
//! the last pass is caught by the next, however many pages above the
//! contact already match the index, and after a restart the first pass
//! covers the time the hub was down. The last successful pass's start
//! (less [`MARGIN`]) is kept in the hub's file: a contact whose activity
//! the hub learned after it does not count as unmoved, and the log of
//! failed deliveries is read from it (see `lost`).
//!
//! The last message of each open conversation (what "who wrote last", and
//! so the Waiting view, is made of) comes from `message_created` webhooks
//! ([`keep_last_message`]) and, for the conversations whose last message
//! the index does not hold at their current activity, from a trickle of
//! message reads inside the same budget that follows each pass.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::Value;
use tokio::sync::Notify;

use super::state::{HubState, PassChanges};
use crate::api::{Contact, Message};
use crate::index::sync::{self, SyncError};
use crate::index::{IndexAccess, Wanted};

/// Where the last successful pass's start is kept (the hub's `meta`).
const SINCE_KEY: &str = "reconciled_since";

/// A pass reads back this far before the last pass's start: the service's
/// clock and the hub's may differ a little, and the service's stamps may
/// be rounded down.
pub const MARGIN: Duration = Duration::from_secs(30);

/// Conversations whose last message is read per round of the trickle.
const PREVIEW_BATCH: usize = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    Full,
    Incremental,
}

/// The start of the last successful pass, from the hub's file.
pub(super) fn last_start(st: &HubState) -> Option<DateTime<Utc>> {
    let held = st.store.meta(SINCE_KEY).ok().flatten()?;
    DateTime::parse_from_rfc3339(&held).ok().map(|t| t.with_timezone(&Utc))
}

fn keep_start(st: &HubState, started: DateTime<Utc>) {
    let at = started.to_rfc3339_opts(SecondsFormat::Micros, true);
    if let Err(e) = st.store.set_meta(SINCE_KEY, &at) {
        tracing::warn!("could not keep the reconciliation's start: {e}");
    }
}

/// What one pass does; runs on a blocking thread because the sync code's
/// progress callback is not `Send`.
/// Contacts of unknown state asked for after each pass, at most.
const STATES_PER_PASS: usize = 200;

async fn pass(st: &HubState, kind: Pass) -> Result<(), SyncError> {
    let started = Utc::now();
    let mut index = st.index.clone();
    let mut changes = PassChanges::default();
    // Agents that took a snapshot before the first walk ended count with
    // `≥`: its end sends them a `resync` for a whole one.
    let unwalked = kind == Pass::Full
        && index
            .with(|ix| ix.sync_state())
            .is_ok_and(|s| s.full_walk_finished_at.is_none());
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
        Pass::Incremental => {
            // A contact a webhook moved since the last pass began lies
            // above those whose deliveries were lost: it does not end it.
            let since = last_start(st).map(|s| s - chrono::Duration::from_std(MARGIN).unwrap_or_default());
            let report = sync::incremental_by_order(&st.api, &mut index, &st.budget, since).await;
            report.map(|r| tracing::debug!("incremental pass: {} requests, {} changed", r.requests, r.changed))
        }
    };
    // States the list does not carry (the documented list has no
    // `closedAt`): learned by GET, newest first, in the same budget, and
    // announced with the pass's other changes.
    if result.is_ok() {
        let mut tried = std::collections::HashSet::new();
        let (learned, error) = sync::learn_states(&st.api, &mut index, &st.budget, STATES_PER_PASS, &mut tried).await;
        if learned > 0 {
            tracing::debug!("{learned} conversation states learned");
        }
        if let Some(e) = error {
            tracing::warn!("learning conversation states stopped, trying again after the next pass: {e}");
        }
    }
    // Also after a failure: what the pass stored is announced.
    changes.bulk |= unwalked && result.is_ok();
    st.finish_pass(changes);
    result?;
    keep_start(st, started);
    st.counters.passes.fetch_add(1, Ordering::Relaxed);
    Ok(())
}

/// Runs `work` on a blocking thread (SQLite and the sync code's callbacks
/// stay off the async threads) until it ends or the hub stops.
fn on_blocking<F, Fut>(st: &Arc<HubState>, work: F) -> tokio::task::JoinHandle<()>
where
    F: FnOnce(Arc<HubState>) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()>,
{
    let st = st.clone();
    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let mut stopping = st.stopping.subscribe();
        handle.block_on(async {
            tokio::select! {
                () = work(st.clone()) => {},
                _ = stopping.wait_for(|s| *s) => {}
            }
        });
    })
}

/// Whether a delivery an incremental pass cannot see failed since the
/// last successful pass began (see `lost`), later than the failure the
/// last such full walk was for (`acted`, then moved on to it).
async fn lost_since_last(st: &HubState, acted: &mut Option<DateTime<Utc>>) -> bool {
    let Some(since) = last_start(st) else {
        return false;
    };
    let since = since - chrono::Duration::from_std(MARGIN).unwrap_or_default();
    match super::lost::since(st, since).await {
        Some(failed) if acted.is_none_or(|a| failed > a) => {
            tracing::info!("the service's log shows a delivery lost at {failed}: a full walk now");
            *acted = Some(failed);
            true
        }
        _ => false,
    }
}

fn run_pass(st: &Arc<HubState>, kind: Pass) -> tokio::task::JoinHandle<()> {
    on_blocking(st, move |st| async move {
        if let Err(e) = pass(&st, kind).await {
            tracing::warn!("reconciliation ({kind:?}) failed, trying again later: {e}");
        }
    })
}

pub async fn run(st: Arc<HubState>) {
    let wake = Arc::new(Notify::new());
    tokio::join!(passes(st.clone(), wake.clone()), previews(st, wake));
}

async fn passes(st: Arc<HubState>, wake: Arc<Notify>) {
    let walked = {
        let mut index = st.index.clone();
        index
            .with(|ix| ix.sync_state())
            .map(|s| s.full_walk_finished_at.is_some())
    };
    // After a restart, deliveries failed while the hub was down.
    let mut acted = None;
    let first = if matches!(walked, Ok(true)) && !lost_since_last(&st, &mut acted).await {
        Pass::Incremental
    } else {
        Pass::Full
    };
    // Passes start every period (a long one does not push the next a
    // whole period further): a change lost just after a pass began is
    // caught by the one a period later.
    let mut began = tokio::time::Instant::now();
    let _ = run_pass(&st, first).await;
    wake.notify_one();
    let mut n: u32 = 0;
    loop {
        // A lost close or assignment does not move its contact: the log
        // of failed deliveries, read every `lost_check_every` and when the
        // pass is due, starts a full walk at once.
        let lost = until_due(&st, began + st.config.reconcile_every, &mut acted).await;
        began = tokio::time::Instant::now();
        n = n.wrapping_add(1);
        let scheduled = st.config.full_walk_every > 0 && n.is_multiple_of(st.config.full_walk_every);
        let kind = if scheduled || lost {
            Pass::Full
        } else {
            Pass::Incremental
        };
        let _ = run_pass(&st, kind).await;
        wake.notify_one();
    }
}

/// Waits until the next pass is `due` (or asked for now), reading the
/// service's log of failed deliveries on the way; true, at once, when it
/// shows a lost change a full walk is needed for.
async fn until_due(st: &HubState, due: tokio::time::Instant, acted: &mut Option<DateTime<Utc>>) -> bool {
    loop {
        let look = (tokio::time::Instant::now() + st.config.lost_check_every).min(due);
        tokio::select! {
            () = tokio::time::sleep_until(look) => {}
            () = st.reconcile_now.notified() => return lost_since_last(st, acted).await,
        }
        if lost_since_last(st, acted).await {
            return true;
        }
        if tokio::time::Instant::now() >= due {
            return false;
        }
    }
}

/// After each pass: the last message of every open conversation the index
/// holds no current one of, newest first, a batch at a time from the
/// shared budget (so it never outruns it, and yields to agents' requests).
async fn previews(st: Arc<HubState>, wake: Arc<Notify>) {
    loop {
        wake.notified().await;
        let _ = on_blocking(&st, |st| async move {
            let n = trickle(&st).await;
            if n > 0 {
                tracing::debug!("{n} last messages read");
            }
        })
        .await;
    }
}

/// One round down the list of conversations wanting their last message.
/// Returns how many were read.
async fn trickle(st: &HubState) -> usize {
    let mut index = st.index.clone();
    let mut after: Option<Wanted> = None;
    let mut read = 0;
    loop {
        let wanted = match index.with(|ix| ix.stale_previews_after(after.as_ref(), PREVIEW_BATCH)) {
            Ok(w) => w,
            Err(e) => {
                tracing::warn!("the conversations wanting their last message could not be read: {e}");
                return read;
            }
        };
        let Some(last) = wanted.last().cloned() else {
            return read;
        };
        let (got, error) = sync::fetch_previews(&st.api, &mut index, &st.budget, &wanted).await;
        for (uuid, _) in &got {
            name_agents(st, &mut index, uuid);
        }
        read += got.len();
        st.counters.previews.fetch_add(got.len() as u64, Ordering::Relaxed);
        announce_last_messages(st, &mut index, &got);
        if let Some(e) = error {
            tracing::warn!("reading last messages stopped, trying again after the next pass: {e}");
            return read;
        }
        after = Some(last);
    }
}

/// Names, in the page the index holds for `contact`, the messages agents
/// sent through the hub. The hub reads pages with the service's key, so
/// nobody is named in them, and an agent's reply within seconds of the
/// customer's message read as a bot's: the hub's Waiting (its snapshot,
/// counts and reports) kept the customer waiting while every agent's
/// screen, told by the send's event, said answered.
pub fn name_agents(st: &HubState, index: &mut crate::index::SharedIndex, contact: &str) {
    let result = index.with(|ix| -> Result<(), Box<dyn std::error::Error>> {
        let Some((activity, mut page)) = ix.messages(contact)? else {
            return Ok(());
        };
        if super::sent::name_page(&st.store, contact, &mut page)? > 0 {
            ix.store_messages(contact, activity, &page)?;
        }
        Ok(())
    });
    if let Err(e) = result {
        tracing::warn!("naming the agents of a conversation's messages failed: {e}");
    }
}

/// Tells every agent the last messages the trickle read (`last_message`,
/// shaped as a snapshot line's `hubPreview`): an agent connected before
/// the hub had read them learns them now, so its Waiting view and counts
/// become whole as the hub's do, without loading the snapshot again.
fn announce_last_messages(
    st: &HubState,
    index: &mut crate::index::SharedIndex,
    got: &[(String, crate::index::Preview)],
) {
    if got.is_empty() {
        return;
    }
    let pages = index.with(|ix| {
        got.iter()
            .map(|(uuid, _)| {
                let page = ix.messages(uuid).ok().flatten().map(|(_, m)| m).unwrap_or_default();
                crate::index::WaitingFacts::of(&page)
            })
            .collect::<Vec<_>>()
    });
    for ((uuid, preview), facts) in got.iter().zip(pages) {
        let data = serde_json::json!({
            "contact": uuid,
            "hubPreview": super::snapshot::preview_json(preview, &facts),
        });
        st.bus.publish(super::wire::kind::LAST_MESSAGE, &data);
    }
}

/// A `message_created` webhook: when the message is the conversation's
/// latest (nothing moved the contact after it), the index keeps it as the
/// conversation's last message. An older or out-of-order message changes
/// nothing; the trickle reads what is missing.
pub fn keep_last_message(st: &HubState, contact: &Contact, payload: &Value) {
    let Ok(message) = serde_json::from_value::<Message>(payload.clone()) else {
        return;
    };
    let Some(at) = message.created_at else {
        return;
    };
    let mut index = st.index.clone();
    let kept = index.with(|ix| -> Result<(), crate::index::IndexError> {
        let Some(held) = ix.get(&contact.uuid)? else {
            return Ok(());
        };
        let activity = held.last_activity();
        if activity.is_some_and(|a| at < a) {
            return Ok(());
        }
        let newer = ix
            .previews(&[contact.uuid.as_str()])?
            .remove(&contact.uuid)
            .is_some_and(|p| p.activity == activity && p.at.is_some_and(|t| t > at));
        if newer {
            return Ok(());
        }
        // On top of the page held, not instead of it: the waiting rule must
        // still see the customer's message a bot's answer follows (issue
        // 36). A delivery carries no uuid: a redelivered one is the same
        // time, kind and text.
        let mut page = ix.messages(&contact.uuid)?.map(|(_, m)| m).unwrap_or_default();
        if page
            .iter()
            .any(|m| m.created_at == message.created_at && m.status == message.status && m.text == message.text)
        {
            return Ok(());
        }
        page.insert(0, message);
        page.truncate(crate::report::FULL_PAGE);
        ix.store_messages(&contact.uuid, activity, &page)
    });
    if let Err(e) = kept {
        tracing::warn!("a conversation's last message could not be kept: {e}");
    }
}
