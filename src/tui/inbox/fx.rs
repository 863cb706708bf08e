//! The inbox's effects besides the list's walk (which the root's runner
//! spawns, page by page): a `/` search on the blocking pool, saving a
//! view, and its timers.

use std::time::Duration;

use super::msg::InboxMsg;
use super::state::contact_list::SearchJob;
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
}

/// Runs `effect`; `None` when a search was stopped (a newer one runs).
pub async fn perform(effect: InboxEffect) -> Option<InboxMsg> {
    Some(match effect {
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
    })
}
