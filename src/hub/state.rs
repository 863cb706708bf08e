//! What every handler and background task of the hub shares.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use tokio::sync::{mpsc, watch};

use super::bus::Bus;
use super::config::HubConfig;
use super::confirmer::Confirmer;
use super::delivery::{DEDUP_WINDOW, Delivery, WORKERS};
use super::error::HubError;
use super::guard::Guard;
use super::store::Store;
use super::wire;
use super::writers::Writers;
use crate::api::Client;
use crate::index::sync::{Budget, Foreground};
use crate::index::{Index, IndexAccess, SharedIndex};
use crate::stamp::Stamp;

/// Webhook deliveries waiting for the workers (all queues together).
pub const HOOK_QUEUE: usize = 1024;
/// Messages remembered to announce each once.
const RECENT_DELIVERIES: usize = 4096;
/// Old delivery digests are pruned every this many deliveries.
const PRUNE_EVERY: u64 = 256;
/// How often the agents table is checked for changes (a removed token
/// ends its open streams).
const AGENTS_POLL: Duration = Duration::from_millis(200);

/// Who is looking at or answering which contact (`presence`): (agent,
/// contact) to when it expires.
#[derive(Debug, Default)]
pub struct Presence(pub(super) Mutex<HashMap<(String, String), DateTime<Utc>>>);

/// The team's snippets as last read (`snippets`): the answer for the file
/// as last read, and that version's stamp.
#[derive(Debug, Default)]
pub struct SnippetsCache(pub(super) Mutex<Option<(Option<Stamp>, Arc<Value>)>>);

/// Counters shown in the log.
#[derive(Debug, Default)]
pub struct Counters {
    pub deliveries: AtomicU64,
    pub bad_signatures: AtomicU64,
    pub redeliveries: AtomicU64,
    pub unknown_kinds: AtomicU64,
    pub stale_events: AtomicU64,
    /// Deliveries refused or ignored because the service did not vouch
    /// for them (or their time was in the future).
    pub refused: AtomicU64,
    /// Contacts read back by REST to confirm a delivery, and lookups a cap refused.
    pub lookups: AtomicU64,
    pub lookups_capped: AtomicU64,
    /// Reconciliation passes finished, and how many of them were full walks.
    pub passes: AtomicU64,
    pub full_walks: AtomicU64,
    /// Conversations' last messages read by REST (the trickle after a pass).
    pub previews: AtomicU64,
}

pub struct HubState {
    pub config: HubConfig,
    pub store: Store,
    pub index: SharedIndex,
    pub bus: Bus,
    /// For forwarding: the account key is added to each request.
    pub http: reqwest::Client,
    /// For reconciliation (the existing sync code).
    pub api: Client,
    pub budget: Budget,
    pub foreground: Foreground,
    pub presence: Presence,
    /// One queue a receiver worker (see `receiver`).
    pub hooks: Vec<mpsc::Sender<Delivery>>,
    /// The hook path's secret (`webhook::path`).
    pub hook: crate::webhook::path::HookSecret,
    /// `--forward-to`: every delivery passed on.
    pub relay: Option<crate::webhook::relay::Relay>,
    /// Lookups confirming deliveries: coalesced and capped.
    pub confirm: Confirmer,
    /// Deliveries since the last pruning of old digests.
    since_prune: AtomicU64,
    /// Message uuid to contact uuid, for status events that name only the message.
    messages: Mutex<(std::collections::HashMap<String, String>, VecDeque<String>)>,
    pub counters: Counters,
    /// Agents with a write in flight, by contact.
    pub writers: Writers,
    /// Bumped whenever the agents table changes.
    pub agents_changed: watch::Sender<u64>,
    /// Set when the hub stops: a reconciliation under way ends.
    pub stopping: watch::Sender<bool>,
    /// The team's snippets as last read (`snippets`).
    pub snippets: SnippetsCache,
    /// Starts the next reconciliation pass now instead of at the end of
    /// the period (tests; a pass under way is not interrupted).
    pub reconcile_now: tokio::sync::Notify,
    /// Per-agent request rate and the service's health (`guard`).
    pub guard: Guard,
}

impl std::fmt::Debug for HubState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HubState")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// Event ids go on from where the last run stopped: the floor is kept
/// in the file, and a start never gives an id below the clock's
/// microseconds, so ids grow across restarts even after a kill -9.
const EVENT_FLOOR: &str = "next_event_id";

impl HubState {
    pub async fn open(config: HubConfig) -> Result<(HubState, Vec<mpsc::Receiver<Delivery>>), HubError> {
        let store = Store::open(&config.data_dir)?;
        let hook = crate::webhook::path::HookSecret::open(&config.data_dir)
            .map_err(|e| HubError::Config(format!("the hook secret cannot be kept in the data dir: {e}")))?;
        let relay = match &config.forward_to {
            Some(url) => {
                Some(crate::webhook::relay::Relay::start(url.clone(), config.timeout).map_err(HubError::Config)?)
            }
            None => None,
        };
        let path = config.data_dir.join("index.sqlite");
        let opened = tokio::task::spawn_blocking(move || Index::open(&path))
            .await
            .map_err(|e| HubError::Config(format!("opening the index failed: {e}")))??;
        if let Some(w) = opened.warning {
            tracing::warn!("{w}");
        }
        let mut index = opened.index;
        index.record_changes(true);
        let floor = store
            .meta(EVENT_FLOOR)?
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(1);
        let micros = u64::try_from(chrono::Utc::now().timestamp_micros()).unwrap_or(0);
        let bus = Bus::new(floor.max(micros), config.replay, config.client_queue)
            .with_limits(config.max_event_bytes, config.replay_bytes);
        let api = Client::new(&config.base_url, config.api_key.expose(), config.timeout)
            .map_err(|e| HubError::Config(e.to_string()))?;
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|e| HubError::Config(format!("cannot build the HTTP client: {e}")))?;
        let foreground = Foreground::default();
        let budget = Budget::new(config.budget).yielding_to(foreground.clone());
        let workers = WORKERS;
        let (hooks, rx): (Vec<_>, Vec<_>) = (0..workers).map(|_| mpsc::channel(HOOK_QUEUE / workers)).unzip();
        let state = HubState {
            presence: Presence::default(),
            store,
            index: SharedIndex::new(index),
            bus,
            http,
            api,
            budget,
            foreground,
            hooks,
            hook,
            relay,
            confirm: Default::default(),
            since_prune: AtomicU64::new(0),
            messages: Mutex::new(Default::default()),
            counters: Counters::default(),
            writers: Writers::default(),
            agents_changed: watch::channel(0).0,
            stopping: watch::channel(false).0,
            snippets: Default::default(),
            reconcile_now: tokio::sync::Notify::new(),
            guard: Guard::new(config.agent_rate, config.down_after),
            config,
        };
        state.persist_event_floor();
        Ok((state, rx))
    }

    /// Keeps the next event id in the file.
    pub fn persist_event_floor(&self) {
        if let Err(e) = self.store.set_meta(EVENT_FLOOR, &self.bus.next_id().to_string()) {
            tracing::warn!("could not keep the event id: {e}");
        }
    }

    /// True the first time a delivery with this body is seen within
    /// `receiver::DEDUP_WINDOW`, across restarts (kept in the hub's file).
    /// A file that fails says true: a redelivery is then worked again,
    /// which merging makes harmless.
    pub fn first_delivery(&self, digest: [u8; 32]) -> bool {
        let now = chrono::Utc::now().timestamp();
        if self
            .since_prune
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(PRUNE_EVERY)
        {
            let window = i64::try_from(DEDUP_WINDOW.as_secs()).unwrap_or(i64::MAX);
            if let Err(e) = self.store.prune_deliveries(now.saturating_sub(window)) {
                tracing::warn!("old delivery digests could not be pruned: {e}");
            }
        }
        self.store.first_delivery(&digest, now).unwrap_or_else(|e| {
            tracing::warn!("a delivery's digest could not be kept: {e}");
            true
        })
    }

    /// Remembers which contact a message belongs to (the last few
    /// thousand). True the first time: a message is announced once,
    /// whether the send's answer or the service's webhook comes first.
    pub fn remember_message(&self, message: &str, contact: &str) -> bool {
        let mut guard = self.messages.lock().unwrap_or_else(PoisonError::into_inner);
        let (map, order) = &mut *guard;
        let first = map.insert(message.to_string(), contact.to_string()).is_none();
        if first {
            order.push_back(message.to_string());
        }
        if order.len() > RECENT_DELIVERIES
            && let Some(old) = order.pop_front()
        {
            map.remove(&old);
        }
        first
    }

    /// The contact a remembered message belongs to.
    pub fn contact_of_message(&self, message: &str) -> Option<String> {
        let guard = self.messages.lock().unwrap_or_else(PoisonError::into_inner);
        guard.0.get(message).cloned()
    }

    /// Forgets a delivery that could not be queued, so its retry is worked.
    pub fn forget_delivery(&self, digest: [u8; 32]) {
        if let Err(e) = self.store.forget_delivery(&digest) {
            tracing::warn!("a delivery's digest could not be forgotten: {e}");
        }
    }

    /// Broadcasts what a reconciliation pass changed since the last call:
    /// one event per contact while the pass has changed at most
    /// `config.bulk` contacts; past that the changes are only counted and
    /// [`HubState::finish_pass`] sends one `resync` (agents load the
    /// snapshot), so a first walk of 100,000 contacts does not overflow
    /// every client's queue and the replay ring.
    pub fn publish_pass_changes(&self, pass: &mut PassChanges) {
        let mut index = self.index.clone();
        let bulk = self.config.bulk;
        let counted = index.with(|ix| -> Result<Option<usize>, crate::index::IndexError> {
            let n = ix.pending_changes();
            if pass.bulk || pass.changed + n > bulk {
                return Ok(Some(ix.discard_changes()));
            }
            Ok(None)
        });
        match counted {
            Ok(Some(n)) => {
                pass.bulk = true;
                pass.changed += n;
            }
            Ok(None) => pass.changed += self.publish_index_changes(),
            Err(e) => tracing::warn!("reading the index's changes failed: {e}"),
        }
    }

    /// The end of a pass: its last changes, and the one `resync` of a bulk pass.
    pub fn finish_pass(&self, mut pass: PassChanges) {
        self.publish_pass_changes(&mut pass);
        if pass.bulk {
            self.bus.publish(
                wire::kind::RESYNC,
                &serde_json::json!({ "reason": "reconciled", "changed": pass.changed }),
            );
        }
    }

    /// Broadcasts what changed in the index since the last call:
    /// `contact_changed` with the contact as stored, `contact_deleted`.
    /// Returns how many events it sent.
    pub fn publish_index_changes(&self) -> usize {
        let mut index = self.index.clone();
        let changes = match index.with(|ix| ix.take_changes()) {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!("reading the index's changes failed: {e}");
                return 0;
            }
        };
        let n = changes.upserted.len() + changes.removed.len();
        for c in changes.upserted {
            match serde_json::to_value(&c) {
                Ok(v) => {
                    self.bus
                        .publish(wire::kind::CONTACT_CHANGED, &serde_json::json!({ "contact": v }));
                }
                Err(e) => tracing::warn!("a contact could not be encoded: {e}"),
            }
        }
        for uuid in changes.removed {
            self.bus
                .publish(wire::kind::CONTACT_DELETED, &serde_json::json!({ "uuid": uuid }));
        }
        n
    }
}

/// What one reconciliation pass has changed so far (see
/// [`HubState::publish_pass_changes`]).
#[derive(Debug, Default)]
pub struct PassChanges {
    pub changed: usize,
    /// Past the bulk threshold: counted, announced by one `resync`.
    pub bulk: bool,
}

/// Watches the agents table (the command line changes it from another
/// process) and bumps `agents_changed`, so open streams check their token.
pub async fn watch_agents(state: Arc<HubState>) {
    let mut last = None;
    let mut floor = 0;
    loop {
        let now = Store::data_version(&state.store.conn()).ok();
        if now.is_some() && last.is_some() && now != last {
            state.agents_changed.send_modify(|n| *n = n.wrapping_add(1));
        }
        if now.is_some() {
            last = now;
        }
        let next = state.bus.next_id();
        if next != floor {
            floor = next;
            state.persist_event_floor();
        }
        tokio::time::sleep(AGENTS_POLL).await;
    }
}
