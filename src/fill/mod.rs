//! The local index's worker: a thread of its own (with its own runtime and
//! HTTP client, so SQLite work never blocks the UI's runtime) that reads the
//! index for the list, keeps it fresh and fetches last messages, all within
//! one request budget that yields to the agent's own requests.
//!
//! - a full walk on first use and then every `full_sync_minutes`;
//! - an incremental pass when the UI asks (the refresh timer, after a
//!   write);
//! - last messages: the rows the UI asks for first (newest request first),
//!   then a trickle through open conversations, newest first, while no full
//!   walk runs.
//!
//! What changes in the index (the journal) goes to the UI as
//! `IndexMsg::Changed`; freshness as `IndexMsg::Status`.

mod hub;
mod link;
pub mod msg;
mod searchable;
mod state;
mod status;
mod trickle;

pub use hub::RENEW_SECS;
pub use link::{Doing, IndexCmd, IndexLink, Worker};
pub use msg::Outbox;
use state::{State, failed, offline_error, succeeded};

use std::collections::HashMap;
use std::time::Duration;

use chrono::Utc;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::time::Instant;

use crate::index::sync::{Budget, Foreground, FullReport, IncrementalReport, Progress, SyncError};
use crate::index::{IndexAccess, Preview, SharedIndex, Wanted, sync};
use msg::{HubLink, IndexMsg, SyncStatus};
use trickle::Trickle;

mod load;
mod states;
use states::learn_states;

pub use load::LOAD_BATCH;
use load::{forward_changes, forward_changes_to};

use load::load;

/// Last messages fetched per task (the budget paces them).
const PREVIEW_BATCH: usize = 8;
/// How often the worker looks whether another process wrote the index.
const OUTSIDE_EVERY: Duration = Duration::from_secs(2);
/// After a failed preview fetch, the trickle rests this long.
const TRICKLE_REST: Duration = Duration::from_secs(30);
/// With nothing left to fetch, the trickle looks again after this (or as
/// soon as a sync changes the index).
const TRICKLE_IDLE: Duration = Duration::from_secs(300);
/// After a failed full walk, the next try waits this long.
const FULL_RETRY: Duration = Duration::from_secs(60);

/// Starts the worker's thread. Its messages arrive on `tx`.
pub fn spawn<M: Outbox>(worker: Worker, tx: UnboundedSender<M>) -> IndexLink {
    let (cmds, rx) = unbounded_channel();
    let foreground = Foreground::default();
    let link = IndexLink {
        cmds,
        index: worker.index.clone(),
        foreground: foreground.clone(),
    };
    let budget = Budget::new(worker.sync_rate).yielding_to(foreground);
    let spawned = std::thread::Builder::new()
        .name("frontdesk-index".into())
        .spawn(
            move || match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                // Tasks run on this thread (the walk's progress callback is not Send).
                Ok(rt) => rt.block_on(tokio::task::LocalSet::new().run_until(run(worker, budget, rx, tx))),
                Err(e) => {
                    let _ = tx.send(M::from(IndexMsg::Problem(format!("the local index cannot sync: {e}"))));
                }
            },
        );
    if let Err(e) = spawned {
        tracing::error!("cannot start the index worker: {e}");
    }
    link
}

/// Results of the worker's tasks.
enum Done {
    Full(Result<FullReport, SyncError>),
    Progress(Progress),
    /// The pass's result, and whether it changed the index.
    Incremental(Result<IncrementalReport, SyncError>, bool),
    /// The incremental pass found the index holding another account's
    /// data and started it over instead: a full walk is due now.
    StartedOver,
    /// Through a hub: the snapshot loaded (whether the hub had walked the
    /// whole account: counts are lower bounds until it has) or failed (why).
    Snapshot(Result<bool, String>),
    /// Through a hub: how its event stream stands.
    Link(HubLink),
    /// Search rows being written: how many of how many (`None`: done).
    Indexing(Option<(u64, u64)>),
    Previews {
        tried: Vec<Wanted>,
        /// The last messages fetched.
        fetched: Vec<(String, Preview)>,
        /// The UI asked for them (rows on screen): they go at once.
        asked: bool,
        error: Option<SyncError>,
    },
}

async fn run<M: Outbox>(w: Worker, budget: Budget, mut cmds: UnboundedReceiver<IndexCmd>, tx: UnboundedSender<M>) {
    let mut index = w.index.clone();
    let send = |m: IndexMsg| {
        let _ = tx.send(M::from(m));
    };
    let sync_state = index.with(|ix| {
        ix.record_changes(true);
        ix.sync_state()
    });
    let sync_state = sync_state.unwrap_or_default();
    let mut st = State {
        status: SyncStatus {
            synced_at: sync_state.full_walk_finished_at,
            complete: sync_state.full_walk_finished_at.is_some(),
            in_memory: w.in_memory,
            ..SyncStatus::default()
        },
        full_every: w.full_every,
        full_due: None,
        full_running: false,
        incremental_running: false,
        incremental_again: false,
        check_account: false,
        previews_running: false,
        lazy: Vec::new(),
        tried: HashMap::new(),
        trickle_rest_until: None,
        trickle: Trickle::default(),
        failed_until: None,
        last_problem: None,
        hub: w.hub.clone(),
        live: false,
        presence: None,
        // Search rows a load left to write (the process ended first).
        search_due: true,
        search_running: false,
    };
    // The first walk now; later ones when the last is older than the
    // interval.
    st.full_due = Some(match sync_state.full_walk_finished_at {
        None => Instant::now(),
        Some(at) => {
            let age = (Utc::now() - at).to_std().unwrap_or_default();
            Instant::now() + w.full_every.saturating_sub(age)
        }
    });
    let (done_tx, mut done_rx) = unbounded_channel::<Done>();
    if let Some(client) = &w.hub {
        // The hub's snapshot and stream instead of walks of the account.
        st.full_due = None;
        st.status.hub = Some(HubLink::Connecting);
        let done = done_tx.clone();
        let report = move |r: hub::Report| {
            let _ = done.send(match r {
                hub::Report::Progress(p) => Done::Progress(p),
                hub::Report::Snapshot(failed) => Done::Snapshot(failed),
                hub::Report::Link(link) => Done::Link(link),
            });
        };
        tokio::task::spawn_local(hub::follow(client.clone(), w.index.clone(), tx.clone(), report));
    } else if st.status.complete {
        st.incremental_again = true;
        st.check_account = true;
    }
    send(IndexMsg::Status(st.status.clone()));
    loop {
        start_work(&w, &budget, &mut st, &done_tx, &tx);
        let busy = st.full_running || st.incremental_running || st.previews_running;
        let mut wake = Instant::now() + Duration::from_secs(3600);
        if let Some(due) = st.full_due {
            wake = wake.min(due);
        }
        if let Some((_, _, told)) = &st.presence {
            wake = wake.min(*told + hub::RENEW);
        }
        let paced = st.trickle.paced_until(Instant::now());
        for rest in [st.trickle_rest_until, st.failed_until, st.trickle.due(), paced]
            .into_iter()
            .flatten()
        {
            wake = wake.min(rest);
        }
        if busy {
            // Notice a rate limit's pause while tasks wait on it.
            wake = wake.min(Instant::now() + Duration::from_secs(1));
        }
        // What another process (the CLI beside this TUI) stored.
        wake = wake.min(Instant::now() + OUTSIDE_EVERY);
        tokio::select! {
            cmd = cmds.recv() => match cmd {
                None => break,
                Some(cmd) => on_cmd(&mut index, &mut st, cmd, &send),
            },
            Some(done) = done_rx.recv() => on_done(&mut st, done, &send),
            _ = tokio::time::sleep_until(wake) => {}
        }
        hub::renew(&mut st.presence, st.hub.as_ref());
        load::forward_outside_writes(&mut index, &tx);
        if let Some(held) = st.trickle.take_due(Instant::now()) {
            send(IndexMsg::Previews(held));
        }
        let retry_at = budget
            .paused_for()
            .and_then(|d| chrono::Duration::from_std(d).ok())
            .map(|d| Utc::now() + d);
        let paused = retry_at.is_some();
        if paused != st.status.retry_at.is_some() {
            st.status.retry_at = retry_at;
            send(IndexMsg::Status(st.status.clone()));
        }
    }
}

/// Starts what is due and not running.
fn start_work<M: Outbox>(
    w: &Worker,
    budget: &Budget,
    st: &mut State,
    done: &UnboundedSender<Done>,
    tx: &UnboundedSender<M>,
) {
    let now = Instant::now();
    if st.search_due && !st.search_running {
        st.search_due = false;
        st.search_running = true;
        let done = done.clone();
        tokio::task::spawn_local(searchable::build(w.index.clone(), move |p| {
            let _ = done.send(Done::Indexing(p));
        }));
    }
    if !st.full_running && st.full_due.is_some_and(|d| d <= now) {
        st.full_running = true;
        st.full_due = None;
        let (client, mut index, budget, done) = (w.client.clone(), w.index.clone(), budget.clone(), done.clone());
        let tx = tx.clone();
        tokio::task::spawn_local(async move {
            let mut journal = index.clone();
            let progress_done = done.clone();
            let result = sync::full_sync(&client, &mut index, &budget, &mut |p| {
                let _ = progress_done.send(Done::Progress(p));
                forward_changes(&mut journal, &tx);
            })
            .await;
            if result.is_ok() {
                learn_states(&client, &mut index, &budget).await;
            }
            forward_changes(&mut journal, &tx);
            let _ = done.send(Done::Full(result));
        });
    }
    if st.incremental_again && !st.incremental_running {
        st.incremental_again = false;
        st.incremental_running = true;
        let (client, mut index, budget, done) = (w.client.clone(), w.index.clone(), budget.clone(), done.clone());
        let tx = tx.clone();
        let check = std::mem::take(&mut st.check_account);
        tokio::task::spawn_local(async move {
            if check && let Ok(Some(_)) = sync::check_account(&client, &mut index, &budget).await {
                forward_changes(&mut index, &tx);
                let _ = done.send(Done::StartedOver);
                return;
            }
            let result = sync::incremental_sync(&client, &mut index, &budget).await;
            if result.is_ok() {
                learn_states(&client, &mut index, &budget).await;
            }
            let changed = forward_changes(&mut index, &tx);
            let _ = done.send(Done::Incremental(result, changed));
        });
    }
    if !st.previews_running {
        let (batch, asked) = next_previews(w, st, now);
        if !batch.is_empty() {
            st.previews_running = true;
            let (client, mut index, budget, done) = (w.client.clone(), w.index.clone(), budget.clone(), done.clone());
            let tx = tx.clone();
            tokio::task::spawn_local(async move {
                let (fetched, error) = sync::fetch_previews(&client, &mut index, &budget, &batch).await;
                // A thread's newest message is activity the list never
                // says: the contacts it moved go to the screen with it.
                forward_changes(&mut index, &tx);
                let _ = done.send(Done::Previews {
                    tried: batch,
                    fetched,
                    asked,
                    error,
                });
            });
        }
    }
}

/// The next last messages to fetch, and whether the UI asked for them:
/// what the UI asked for last, else the trickle through open
/// conversations (not while a full walk runs, not while resting after a
/// failure).
fn next_previews(w: &Worker, st: &mut State, now: Instant) -> (Vec<Wanted>, bool) {
    if st.failed_until.is_some_and(|f| f > now) {
        return (Vec::new(), false);
    }
    while let Some(mut batch) = st.lazy.pop() {
        batch.retain(|(u, a)| st.tried.get(u) != Some(a));
        if batch.is_empty() {
            continue;
        }
        if batch.len() > PREVIEW_BATCH {
            let rest = batch.split_off(PREVIEW_BATCH);
            st.lazy.push(rest);
        }
        return (batch, true);
    }
    // Through a hub, last messages come with its events: no trickle of
    // requests per agent.
    if st.hub.is_some()
        || st.full_running
        || st.trickle_rest_until.is_some_and(|r| r > now)
        || st.trickle.paced_until(now).is_some()
    {
        return (Vec::new(), false);
    }
    st.trickle_rest_until = None;
    let mut index = w.index.clone();
    let batch = st.trickle.next_batch(&mut index, &st.tried, PREVIEW_BATCH);
    if !batch.is_empty() {
        st.trickle.pace(batch.len(), now, w.sync_rate <= 0.0);
        return (batch, false);
    }
    // Every open conversation is up to date: look again when the index
    // changes, or in a while.
    st.trickle_rest_until = Some(now + TRICKLE_IDLE);
    (Vec::new(), false)
}

fn on_cmd(index: &mut SharedIndex, st: &mut State, cmd: IndexCmd, send: &impl Fn(IndexMsg)) {
    match cmd {
        IndexCmd::Load { generation, skip } => load(index, generation, skip, send),
        // Through a live hub stream nothing needs polling.
        IndexCmd::Incremental => st.incremental_again = !(st.hub.is_some() && st.live),
        IndexCmd::Presence { contact, doing } => {
            if let Some(client) = st.hub.clone() {
                // Renewed from the loop while it holds.
                st.presence = doing.map(|d| (contact.clone(), d, Instant::now()));
                tokio::task::spawn_local(hub::presence(client, contact, doing));
            }
        }
        IndexCmd::Store(contact) => {
            let stored = index.with(|ix| ix.upsert_contacts(std::slice::from_ref(&*contact), Utc::now()));
            if let Err(e) = stored {
                tracing::warn!("storing a written contact in the index failed: {e}");
            }
            forward_changes_to(index, send);
        }
        IndexCmd::StoreThread {
            uuid,
            activity,
            messages,
        } => {
            if let Err(e) = index.with(|ix| ix.store_messages(&uuid, activity, &messages)) {
                tracing::warn!("storing a thread in the index failed: {e}");
                return;
            }
            st.tried.remove(&uuid);
            send(IndexMsg::Previews(vec![(uuid, Preview::of(&messages, activity))]));
        }
        IndexCmd::Previews(wanted) => {
            if !wanted.is_empty() {
                st.lazy.push(wanted);
            }
        }
    }
}

fn on_done(st: &mut State, done: Done, send: &impl Fn(IndexMsg)) {
    let now = Utc::now();
    match done {
        Done::Progress(p) => {
            st.status.walking = Some((p.done, p.expected));
            send(IndexMsg::Status(st.status.clone()));
            return;
        }
        Done::Full(result) => {
            st.full_running = false;
            st.trickle_rest_until = None;
            st.trickle.rewind();
            st.status.walking = None;
            match result {
                Ok(report) => {
                    if report.started_over {
                        send(IndexMsg::Notice(sync::STARTED_OVER.into()));
                    }
                    tracing::info!(
                        seen = report.seen,
                        changed = report.changed,
                        removed = report.removed,
                        "full sync done"
                    );
                    st.status.complete = true;
                    succeeded(st, now);
                    st.full_due = Some(Instant::now() + st.full_every);
                }
                Err(e) => {
                    failed(st, &e, send);
                    st.full_due = Some(Instant::now() + FULL_RETRY);
                }
            }
        }
        Done::Snapshot(loaded) => {
            st.status.walking = None;
            match loaded {
                Ok(complete) => {
                    st.status.complete = complete;
                    st.search_due = true;
                    succeeded(st, now);
                }
                Err(e) => tracing::warn!("the hub's snapshot failed: {e}"),
            }
        }
        Done::Indexing(p) => {
            st.search_running = p.is_some();
            st.status.indexing = p;
        }
        Done::Link(link) => {
            st.live = link == HubLink::Live;
            if st.live {
                st.status.offline = false;
                st.status.synced_at = Some(now);
            }
            if let HubLink::Refused(e) = &link {
                send(IndexMsg::Problem(e.clone()));
            }
            st.status.hub = Some(link);
        }
        Done::StartedOver => {
            st.incremental_running = false;
            send(IndexMsg::Notice(sync::STARTED_OVER.into()));
            st.status.complete = false;
            st.status.synced_at = None;
            st.full_due = Some(Instant::now());
        }
        Done::Incremental(result, changed) => {
            st.incremental_running = false;
            if changed {
                st.trickle_rest_until = None;
                st.trickle.rewind();
            }
            match result {
                Ok(_) => succeeded(st, now),
                Err(e) => failed(st, &e, send),
            }
        }
        Done::Previews {
            tried,
            fetched: previews,
            asked,
            error,
        } => {
            st.previews_running = false;
            let fetched: std::collections::HashSet<String> = previews.iter().map(|(u, _)| u.clone()).collect();
            if let Some(now) = st.trickle.arrived(previews, asked, Instant::now()) {
                send(IndexMsg::Previews(now));
            }
            let Some(e) = error else {
                // Fetched, or gone from the server (404): not tried again
                // until the contact moves.
                st.tried.extend(tried);
                return;
            };
            tracing::warn!("fetching last messages failed: {e}");
            let (done, left): (Vec<Wanted>, Vec<Wanted>) = tried.into_iter().partition(|(u, _)| fetched.contains(u));
            st.tried.extend(done);
            if !left.is_empty() {
                st.lazy.push(left); // again once the rest is over
            }
            st.failed_until = Some(Instant::now() + TRICKLE_REST);
            if !offline_error(&e) || st.status.offline {
                return;
            }
            st.status.offline = true;
        }
    }
    send(IndexMsg::Status(st.status.clone()));
}
