//! Effects are data: `update` returns them, the runner turns each into a
//! tokio task whose result comes back as a `Msg`. The runner, not the model,
//! holds the task handles, so a superseded fetch is aborted here.

pub(crate) mod account;
pub mod find;
pub use crate::tui::inbox::list_walk;

use crate::tui::inbox::{InboxEffect, InboxMsg};
use std::collections::HashMap;

use tokio::sync::mpsc::UnboundedSender;
use tokio::task::AbortHandle;

use super::index_worker::IndexLink;
use super::msg::{ListFetch, Msg, ReqId, WriteKind};
use super::thread::{ThreadEffect, ThreadFetch};
use crate::api::{BotAction, Client, ContactFilter, ContactPatch, NewContact, PageRequest, UserStatusUpdate};

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    FetchContacts {
        id: ReqId,
        generation: u64,
        fetch: ListFetch,
        filter: ContactFilter,
        at: PageRequest,
        /// Pages to fetch in a row from `at` (each sent as it arrives).
        pages: u32,
    },
    /// GET /contacts/:uuid with field types.
    FetchContact {
        id: ReqId,
        uuid: String,
    },
    FetchBot {
        id: ReqId,
        uuid: String,
    },
    SetBot {
        id: ReqId,
        uuid: String,
        action: BotAction,
    },
    Close {
        id: ReqId,
        uuid: String,
    },
    Reopen {
        id: ReqId,
        uuid: String,
    },
    Patch {
        id: ReqId,
        uuid: String,
        kind: WriteKind,
        patch: ContactPatch,
    },
    Create {
        id: ReqId,
        body: NewContact,
    },
    /// Looks among the newest contacts for one whose phone number is
    /// `identifier` (after a create that may have been carried out).
    FindContact {
        id: ReqId,
        identifier: String,
    },
    SetUserStatus {
        id: ReqId,
        user: String,
        update: UserStatusUpdate,
    },
    FetchCustomStatuses,
    FetchTeamMembers {
        team: String,
    },
    /// One job of an action on many contacts (`update/bulk.rs`).
    Apply {
        id: ReqId,
        uuid: String,
        action: crate::triage::bulk::Action,
    },
    /// Requests about the account: the catalog and the account overlay.
    Account(account::AccountEffect),
    /// The inbox's search, saved views and timers.
    Inbox(crate::tui::inbox::InboxEffect),
    /// The reply composer's requests.
    Compose(super::reply::ComposeEffect),
    /// The thread's pages, a message's delete and delivery status.
    Thread(ThreadEffect),
    /// Work for the local index's worker.
    Index(super::index_worker::IndexCmd),
    /// Terminal-side effects, done by the loop itself.
    CopyToClipboard(String),
    Bell,
    Redraw,
    /// A big load has been taken in: give what it freed back to the system.
    ReleaseMemory,
}

/// Tasks that replace each other: a new one aborts the one before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Slot {
    ListNext,
    ListRefresh,
    Thread,
    ThreadOlder,
    Contact,
    Bot,
    Debounce,
}

impl Effect {
    fn slot(&self) -> Option<Slot> {
        Some(match self {
            Effect::FetchContacts {
                fetch: ListFetch::Next, ..
            } => Slot::ListNext,
            Effect::FetchContacts {
                fetch: ListFetch::Refresh,
                ..
            } => Slot::ListRefresh,
            Effect::Thread(ThreadEffect::Fetch {
                fetch: ThreadFetch::Older,
                ..
            }) => Slot::ThreadOlder,
            Effect::Thread(ThreadEffect::Fetch { .. }) => Slot::Thread,
            Effect::FetchContact { .. } => Slot::Contact,
            Effect::FetchBot { .. } => Slot::Bot,
            Effect::Inbox(InboxEffect::Debounce { .. }) => Slot::Debounce,
            _ => return None,
        })
    }
}

/// Runs effects that talk to the network or wait.
pub struct Runner {
    client: Client,
    tx: UnboundedSender<Msg>,
    running: HashMap<Slot, AbortHandle>,
    /// The local index's worker, when there is an index.
    index: Option<IndexLink>,
}

impl Runner {
    pub fn new(client: Client, tx: UnboundedSender<Msg>) -> Runner {
        Runner {
            client,
            tx,
            running: HashMap::new(),
            index: None,
        }
    }

    /// Sends index work to `link`'s worker, searches the index too, and
    /// counts the agent's requests so background work yields to them.
    pub fn with_index(mut self, link: IndexLink) -> Runner {
        self.index = Some(link);
        self
    }

    /// Spawns `effect`. Terminal-side effects are the caller's; they are
    /// ignored here.
    pub fn spawn(&mut self, effect: Effect) {
        let slot = effect.slot();
        let client = self.client.clone();
        let tx = self.tx.clone();
        // The agent's own request: background syncing waits while it runs
        // (a timer or a search is not a request).
        let network = !matches!(
            effect,
            Effect::Inbox(InboxEffect::Debounce { .. })
                | Effect::Inbox(InboxEffect::CountTimeout { .. })
                | Effect::Inbox(InboxEffect::SaveView { .. })
                | Effect::Inbox(InboxEffect::SearchContacts(_))
                | Effect::Index(_)
        );
        let foreground = self.index.as_ref().filter(|_| network).map(|l| l.foreground.enter());
        let handle = match effect {
            Effect::Index(cmd) => {
                if let Some(link) = &self.index
                    && link.cmds.send(cmd).is_err()
                {
                    tracing::warn!("the index worker has stopped");
                }
                return;
            }
            Effect::Inbox(InboxEffect::SearchContacts(job)) if self.index.is_some() => {
                let index = self.index.as_ref().map(|l| l.index.clone());
                tokio::spawn(async move {
                    let done = tokio::task::spawn_blocking(move || search_with_index(job, index))
                        .await
                        .ok()
                        .flatten();
                    if let Some((done, busy)) = done {
                        let busy = crate::tui::msg::index::IndexMsg::SearchBusy(busy);
                        let _ = tx.send(Msg::Index(busy));
                        let _ = tx.send(Msg::Inbox(InboxMsg::ContactsSearched(done)));
                    }
                })
            }
            Effect::FetchContacts {
                id,
                generation,
                fetch,
                filter,
                at,
                pages,
            } => {
                let walk = list_walk::Walk {
                    id,
                    generation,
                    fetch,
                    filter,
                    at,
                    pages,
                };
                tokio::spawn(async move {
                    let _foreground = foreground;
                    list_walk::run(client, tx, walk).await
                })
            }
            effect => tokio::spawn(async move {
                let _foreground = foreground;
                if let Some(msg) = perform(client, effect).await {
                    log_failure(&msg);
                    let _ = tx.send(msg);
                }
            }),
        };
        if let Some(slot) = slot
            && let Some(old) = self.running.insert(slot, handle.abort_handle())
        {
            old.abort();
        }
    }
}

/// `/` over the loaded rows, and over the index (fields, notes, cached
/// messages; typos) for the contacts the rows do not match. While a sync
/// holds the index (or another process's write keeps it waiting), the
/// loaded rows answer alone at once, and the answer says it was busy.
fn search_with_index(
    job: crate::tui::model::contact_list::SearchJob,
    index: Option<crate::index::SharedIndex>,
) -> Option<(crate::tui::model::contact_list::SearchDone, bool)> {
    let latest = job.latest.clone();
    let generation = job.generation;
    let mut done = job.run()?;
    let mut busy = false;
    if let Some(index) = index {
        if latest.load(std::sync::atomic::Ordering::Relaxed) != generation {
            return None;
        }
        match index.try_with_for(INDEX_PATIENCE, |ix| ix.search(&done.query, SEARCH_HITS)) {
            Some(Ok(hits)) => done.hits = hits.into_iter().map(|(uuid, _)| uuid).collect(),
            Some(Err(e)) if e.is_busy() => busy = true,
            Some(Err(e)) => tracing::warn!("searching the local index failed: {e}"),
            None => busy = true,
        }
    }
    Some((done, busy))
}

/// How long a `/` search waits for the index a sync holds before the
/// loaded rows answer alone.
const INDEX_PATIENCE: std::time::Duration = std::time::Duration::from_millis(150);

/// The index's best hits a `/` search adds to the rows' own matches.
const SEARCH_HITS: usize = 200;

/// Failed requests go to the log file (ApiError messages never hold the key).
fn log_failure(msg: &Msg) {
    let (what, err) = match msg {
        Msg::ContactLoaded { result: Err(e), .. } => ("get contact", e),
        Msg::BotLoaded { result: Err(e), .. } | Msg::BotSet { result: Err(e), .. } => ("bot", e),
        Msg::WriteDone {
            kind, result: Err(e), ..
        } => (kind.verb(), e),
        Msg::UserStatusSet { result: Err(e), .. } => ("set user status", e),
        Msg::Applied { result: Err(e), .. } => ("a job of an action on many", e),
        Msg::ContactFound { result: Err(e), .. } => ("look for a created contact", e),
        Msg::CustomStatusesLoaded(Err(e)) => ("list custom statuses", e),
        Msg::TeamMembersLoaded { result: Err(e), .. } => ("team members", e),
        Msg::Compose(m) => match m.failure() {
            Some(f) => f,
            None => return,
        },
        Msg::Account(m) => match m.failure() {
            Some(f) => f,
            None => return,
        },
        Msg::Thread(m) => match m.failure() {
            Some(f) => f,
            None => return,
        },
        _ => return,
    };
    tracing::warn!("{what} failed: {err}");
}

async fn perform(client: Client, effect: Effect) -> Option<Msg> {
    Some(match effect {
        Effect::FetchContact { id, uuid } => {
            let result = client
                .get_contact(&crate::api::ContactId::new(uuid.clone()), true)
                .await;
            Msg::ContactLoaded { id, uuid, result }
        }
        Effect::FetchBot { id, uuid } => {
            let result = client.get_bot(&crate::api::ContactId::new(uuid.clone())).await;
            Msg::BotLoaded { id, uuid, result }
        }
        Effect::SetBot { id, uuid, action } => {
            let result = client.set_bot(&crate::api::ContactId::new(uuid.clone()), action).await;
            Msg::BotSet { id, uuid, result }
        }
        Effect::Close { id, uuid } => {
            let result = client
                .close_conversation(&crate::api::ContactId::new(uuid.clone()))
                .await;
            Msg::WriteDone {
                id,
                uuid,
                kind: WriteKind::Close,
                result,
            }
        }
        Effect::Reopen { id, uuid } => {
            let result = client
                .open_conversation(&crate::api::ContactId::new(uuid.clone()))
                .await;
            Msg::WriteDone {
                id,
                uuid,
                kind: WriteKind::Reopen,
                result,
            }
        }
        Effect::Patch { id, uuid, kind, patch } => {
            let result = client
                .update_contact(&crate::api::ContactId::new(uuid.clone()), &patch)
                .await;
            Msg::WriteDone { id, uuid, kind, result }
        }
        Effect::Create { id, body } => {
            let result = client.create_contact(&body).await;
            Msg::WriteDone {
                id,
                uuid: String::new(),
                kind: WriteKind::NewContact,
                result,
            }
        }
        Effect::FindContact { id, identifier } => {
            use futures::StreamExt;
            let mut pages = client.walk_contacts(ContactFilter::default()).take(find::FIND_PAGES);
            let mut result = Ok(None);
            while let Some(page) = pages.next().await {
                match page {
                    Ok(p) => {
                        let hit = p
                            .items
                            .into_iter()
                            .find(|c| find::same_number(&c.phone_number, &identifier));
                        if hit.is_some() {
                            result = Ok(hit);
                            break;
                        }
                    }
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            Msg::ContactFound { id, identifier, result }
        }
        Effect::SetUserStatus { id, user, update } => {
            let result = client.set_user_status(&user, &update).await;
            Msg::UserStatusSet { id, result }
        }
        Effect::FetchCustomStatuses => {
            Msg::CustomStatusesLoaded(crate::api::collect_pages(client.walk_custom_statuses()).await)
        }
        Effect::FetchTeamMembers { team } => {
            let result = client.team_members(&team, None, None).await.map(|p| p.items);
            Msg::TeamMembersLoaded { result }
        }
        Effect::Account(e) => Msg::Account(account::perform(client, e).await),
        Effect::Apply { id, uuid, action } => {
            let result = crate::triage::bulk::apply_one(&client, &uuid, &action).await;
            Msg::Applied { id, uuid, result }
        }
        Effect::Inbox(e) => Msg::Inbox(crate::tui::inbox::perform(e).await?),
        Effect::Compose(e) => super::reply::perform(client, e).await,
        Effect::Thread(e) => Msg::Thread(super::thread::perform(client, e).await),
        // Spawned by the runner itself (several messages).
        Effect::FetchContacts { .. } => return None,
        Effect::CopyToClipboard(_) | Effect::Bell | Effect::Redraw | Effect::ReleaseMemory | Effect::Index(_) => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests;
