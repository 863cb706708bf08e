//! The inbox's effects: a `/` search on the blocking pool, saving a view,
//! and its timers; and what the root runs for it (the list's walk, which
//! its runner spawns page by page, and asks of the index's worker).

use std::time::Duration;

use super::list_walk::Walk;
use super::msg::InboxMsg;
use super::state::contact_list::{LookupJob, LookupKey, SearchJob};
use crate::tui::shared::ReqId;

#[derive(Debug, Clone, PartialEq)]
pub enum InboxEffect {
    /// `/` over the loaded contacts, on the blocking pool.
    SearchContacts(SearchJob),
    /// Writes a view into the config file (off the UI thread).
    SaveView {
        path: std::path::PathBuf,
        view: Box<crate::triage::View>,
    },
    /// Sends `CountTimeout(id)` after `after`.
    CountTimeout { id: ReqId, after: Duration },
    /// Sends `SelectionSettled(id)` after `after`.
    Debounce { id: ReqId, after: Duration },
    /// The root's: pages of the list's walk (its runner spawns it).
    FetchContacts(Walk),
    /// The root's: a request to the local index's worker.
    Index(IndexAsk),
    /// The root's: memory freed (every contact of the index read) goes back.
    ReleaseMemory,
    /// `/` looks a phone number or bsuid up on the service (after a
    /// moment, if the query is still the same).
    LookUp(LookupJob),
}

/// What the inbox asks of the local index's worker.
#[derive(Debug, Clone, PartialEq)]
pub enum IndexAsk {
    /// Contacts from position `skip` on, for list `generation`.
    Load { generation: u64, skip: usize },
    /// An incremental pass now.
    Incremental,
    /// Last messages of these rows.
    Previews(Vec<crate::index::Wanted>),
    /// A contact read from the service (found by `/`'s lookup).
    Store(Box<crate::api::Contact>),
}

/// How long a lookup waits for the agent to stop typing before it goes.
pub const LOOKUP_AFTER: Duration = Duration::from_millis(350);

/// Runs `effect`; `None` when a search was stopped (a newer one runs).
pub async fn perform(client: crate::api::Client, effect: InboxEffect) -> Option<InboxMsg> {
    Some(match effect {
        InboxEffect::LookUp(job) => {
            tokio::time::sleep(LOOKUP_AFTER).await;
            if job.stale() {
                return None;
            }
            let result = match &job.key {
                LookupKey::Phone(p) => client.contact_by_phone(p, None).await,
                LookupKey::Bsuid(b) => client.contact_by_bsuid(b).await,
            };
            InboxMsg::LookedUp {
                id: job.id,
                result: result.map(Box::new),
            }
        }
        InboxEffect::SearchContacts(job) => {
            InboxMsg::ContactsSearched(tokio::task::spawn_blocking(move || job.run()).await.ok().flatten()?)
        }
        InboxEffect::Debounce { id, after } => {
            tokio::time::sleep(after).await;
            InboxMsg::SelectionSettled(id)
        }
        InboxEffect::SaveView { path, view } => {
            let name = view.name.clone();
            let result = tokio::task::spawn_blocking(move || crate::config::save_view(&path, &view))
                .await
                .map_err(|e| e.to_string())
                .and_then(|r| r.map_err(|e| e.to_string()));
            InboxMsg::ViewSaved { name, result }
        }
        InboxEffect::CountTimeout { id, after } => {
            tokio::time::sleep(after).await;
            InboxMsg::CountTimeout(id)
        }
        // The root turns these into its own effects before they run.
        InboxEffect::FetchContacts(_) | InboxEffect::Index(_) | InboxEffect::ReleaseMemory => return None,
    })
}
