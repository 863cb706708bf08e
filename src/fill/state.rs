//! The worker's state between its tasks, and how a pass's end changes
//! what the status bar says.

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::time::Instant;

use super::link::Doing;
use super::msg::{IndexMsg, SyncStatus};
use super::trickle::Trickle;
use crate::api::ApiError;
use crate::index::Wanted;
use crate::index::sync::SyncError;

pub(super) struct State {
    pub(super) status: SyncStatus,
    /// How often the whole account is walked again.
    pub(super) full_every: Duration,
    pub(super) full_due: Option<Instant>,
    pub(super) full_running: bool,
    pub(super) incremental_running: bool,
    pub(super) incremental_again: bool,
    /// The next incremental pass first checks which account the index
    /// holds (once a session; a full walk checks by itself).
    pub(super) check_account: bool,
    pub(super) previews_running: bool,
    /// Batches the UI asked for, newest last (served first).
    pub(super) lazy: Vec<Vec<Wanted>>,
    /// Previews tried this session, at the activity tried: not retried by
    /// the trickle until the contact moves (a 404 leaves it stale).
    pub(super) tried: HashMap<String, Option<DateTime<Utc>>>,
    pub(super) trickle_rest_until: Option<Instant>,
    /// The trickle's cursor and the last messages it holds back.
    pub(super) trickle: Trickle,
    /// After a failed fetch no last message is fetched before this.
    pub(super) failed_until: Option<Instant>,
    pub(super) last_problem: Option<String>,
    /// Through a hub: its client (presence), and whether its stream is
    /// live (then the refresh timer's passes are not needed).
    pub(super) hub: Option<crate::hubclient::HubClient>,
    pub(super) live: bool,
    /// This agent's presence as last told, and when: renewed every
    /// `hub::RENEW`.
    pub(super) presence: Option<(String, Doing, Instant)>,
    /// Contacts may lack search rows: a build is to start (it finds out).
    pub(super) search_due: bool,
    pub(super) search_running: bool,
}

pub(super) fn succeeded(st: &mut State, now: DateTime<Utc>) {
    st.status.synced_at = Some(now);
    st.status.offline = false;
    st.last_problem = None;
}

/// A failed pass: the server out of reach is "offline"; anything else (a
/// refused key, a broken answer) is said once.
pub(super) fn failed(st: &mut State, e: &SyncError, send: &impl Fn(IndexMsg)) {
    tracing::warn!("syncing the local index failed: {e}");
    if matches!(e, SyncError::Api(ApiError::RateLimited { .. })) {
        return; // the account's shared limit: the status bar shows the wait
    }
    if offline_error(e) {
        st.status.offline = true;
        return;
    }
    let text = format!("syncing the local index failed: {e}");
    if st.last_problem.as_deref() != Some(text.as_str()) {
        st.last_problem = Some(text.clone());
        send(IndexMsg::Problem(text));
    }
}

pub(super) fn offline_error(e: &SyncError) -> bool {
    matches!(
        e,
        SyncError::Api(ApiError::Transport(_) | ApiError::Timeout(_) | ApiError::Server { .. })
    )
}
