//! Effects are data: `update` returns them, the runner turns each into a
//! tokio task whose result comes back as a `Msg`. The runner, not the model,
//! holds the task handles, so a superseded fetch is aborted here.

pub mod find;
pub use crate::tui::inbox::list_walk;

use crate::tui::inbox::{InboxEffect, InboxMsg};
use std::collections::HashMap;

use tokio::sync::mpsc::UnboundedSender;
use tokio::task::AbortHandle;

use super::details::DetailsEffect;
use super::index_worker::IndexLink;
use super::msg::{ListFetch, Msg, ReqId};
use super::thread::{ThreadEffect, ThreadFetch};
use crate::api::{Client, ContactFilter, NewContact, PageRequest};

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
    /// POST /contacts: a new contact (not a write on an existing one).
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
    /// Every write on an existing contact: one action of a run (one
    /// contact's write is a run of one, an undo the reverse run).
    Apply {
        id: ReqId,
        uuid: String,
        action: crate::triage::bulk::Action,
        /// An undo's: only what is still as the action left it.
        guard: Option<Box<crate::tui::act::Guard>>,
    },
    /// The run history file: runs of the CLI and of an assistant, for
    /// the history (`U`).
    Runs(crate::tui::act::RunsEffect),
    /// Requests about the account: the catalog and the account overlay.
    Account(crate::tui::account::AccountEffect),
    /// The inbox's search, saved views and timers.
    Inbox(crate::tui::inbox::InboxEffect),
    /// The reply composer's requests.
    Compose(super::compose::ComposeEffect),
    /// The details pane's requests: the contact, its bot, my status.
    Details(super::details::DetailsEffect),
    /// The thread's pages, a message's delete and delivery status.
    Thread(ThreadEffect),
    /// Work for the local index's worker.
    Index(super::index_worker::IndexCmd),
    /// Requests of the slices wired through the registry.
    Slice(super::slices::SliceEffect),
    /// Terminal-side effects, done by the loop itself.
    CopyToClipboard(String),
    Bell,
    /// Bytes for the terminal as they are (a notification's sequences).
    Terminal(String),
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
            Effect::Details(DetailsEffect::FetchContact { .. }) => Slot::Contact,
            Effect::Details(DetailsEffect::FetchBot { .. }) => Slot::Bot,
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
    /// The last of the drafts' reads and writes: each waits for the one
    /// before, and the exit waits for the last.
    drafts: Option<tokio::task::JoinHandle<()>>,
}

impl Runner {
    pub fn new(client: Client, tx: UnboundedSender<Msg>) -> Runner {
        Runner {
            client,
            tx,
            running: HashMap::new(),
            index: None,
            drafts: None,
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
        ) && !matches!(&effect, Effect::Slice(e) if !e.network())
            && !matches!(&effect, Effect::Compose(e) if !e.network());
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
            Effect::Compose(e) if e.in_order() => {
                let before = self.drafts.take();
                self.drafts = Some(tokio::spawn(async move {
                    if let Some(before) = before {
                        let _ = before.await;
                    }
                    let _ = tx.send(Msg::Compose(super::compose::perform(client, e).await));
                }));
                return;
            }
            Effect::Slice(e) => {
                let index = self.index.as_ref().map(|l| l.index.clone());
                tokio::spawn(async move {
                    let _foreground = foreground;
                    let _ = tx.send(Msg::Slice(super::slices::perform(index, e).await));
                })
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

impl Runner {
    /// Waits (a few seconds at most) for the drafts' writes still going:
    /// the app's exit must not lose the draft written as it quits.
    pub async fn settle(&mut self) {
        if let Some(last) = self.drafts.take()
            && tokio::time::timeout(std::time::Duration::from_secs(3), last)
                .await
                .is_err()
        {
            tracing::warn!("a draft was still being written at exit");
        }
    }
}

/// `/` over the loaded rows, and over the index (fields, notes, cached
/// messages; typos) for the contacts the rows do not match. While a sync
/// holds the index (or another process's write keeps it waiting), the
/// loaded rows answer alone at once, and the answer says it was busy.
fn search_with_index(
    job: crate::tui::inbox::contact_list::SearchJob,
    index: Option<crate::index::SharedIndex>,
) -> Option<(crate::tui::inbox::contact_list::SearchDone, bool)> {
    let latest = job.latest.clone();
    let generation = job.generation;
    let mut done = job.run()?;
    let mut busy = false;
    if let Some(index) = index {
        if latest.load(std::sync::atomic::Ordering::Relaxed) != generation {
            return None;
        }
        // The words alone: `funnel:` filters the hits where they are merged.
        let words = crate::tui::inbox::contact_list::words_of(&done.query);
        match index.try_with_for(INDEX_PATIENCE, |ix| ix.search_counted(&words, SEARCH_HITS)) {
            Some(Ok(found)) => {
                (done.hits, done.total) = (found.hits.into_iter().map(|(u, _)| u).collect(), found.total)
            }
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

/// The index's best hits a `/` search adds to the rows' own matches: an
/// answer this long may have left more out (the list says `200 of 1,234`).
pub(crate) use crate::tui::inbox::SEARCH_HITS;

impl From<crate::tui::act::ActEffect> for Effect {
    /// The act slice's requests, as the root runs them.
    fn from(e: crate::tui::act::ActEffect) -> Effect {
        use crate::tui::act::ActEffect;
        match e {
            ActEffect::Apply {
                id,
                uuid,
                action,
                guard,
            } => Effect::Apply {
                id,
                uuid,
                action,
                guard,
            },
            ActEffect::Runs(e) => Effect::Runs(e),
        }
    }
}

/// Failed requests go to the log file (ApiError messages never hold the key).
fn log_failure(msg: &Msg) {
    let (what, err) = match msg {
        Msg::Created { result: Err(e), .. } => ("create the contact", e),
        Msg::Applied { answer, .. } => {
            if let Err(e) = &answer.result {
                tracing::warn!("a write failed: {}", crate::text::sanitize_line(e));
            }
            return;
        }
        Msg::ContactFound { result: Err(e), .. } => ("look for a created contact", e),
        Msg::Details(m) => match m.failure() {
            Some(f) => f,
            None => return,
        },
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
        Effect::Create { id, body } => {
            let result = client.create_contact(&body).await;
            Msg::Created { id, result }
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
        Effect::Account(e) => Msg::Account(crate::tui::account::perform(client, e).await),
        Effect::Apply {
            id,
            uuid,
            action,
            guard,
        } => {
            let answer = crate::tui::act::perform(&client, &uuid, &action, guard.as_deref()).await;
            Msg::Applied { id, uuid, answer }
        }
        Effect::Runs(e) => Msg::Runs(crate::tui::act::perform_runs(e).await),
        Effect::Inbox(e) => Msg::Inbox(crate::tui::inbox::perform(client, e).await?),
        Effect::Compose(e) => Msg::Compose(super::compose::perform(client, e).await),
        Effect::Details(e) => Msg::Details(super::details::perform(client, e).await),
        Effect::Thread(e) => Msg::Thread(super::thread::perform(client, e).await),
        // Spawned by the runner itself (several messages).
        Effect::FetchContacts { .. } | Effect::Slice(_) => return None,
        Effect::CopyToClipboard(_)
        | Effect::Bell
        | Effect::Terminal(_)
        | Effect::Redraw
        | Effect::ReleaseMemory
        | Effect::Index(_) => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests;
