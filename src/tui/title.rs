//! The window title: "frontdesk · ACCOUNT · N waiting".
//!
//! "Waiting" is the Waiting view's count with the local index (open
//! conversations whose customer wrote last). Without the index, who wrote
//! last is not known: it is then the loaded open conversations with a
//! message the agent has not seen in this session (the list's new-message
//! mark).

use super::model::Model;

/// The Waiting view's count, with the local index.
pub fn waiting_view(model: &Model) -> Option<usize> {
    if !model.sync.enabled() {
        return None;
    }
    let i = model.views.all.iter().position(|v| v.name == "Waiting")?;
    model.views.counts.get(i).map(|c| c.n)
}

/// Conversations waiting for an answer: the Waiting view's count with the
/// index; else open ones among the loaded contacts with an unseen message.
pub fn waiting(model: &Model) -> usize {
    waiting_view(model).unwrap_or_else(|| model.list.store.iter().filter(|r| r.is_open() && r.has_new()).count())
}

pub fn text(model: &Model) -> String {
    format!("frontdesk · {} · {} waiting", model.session.account, waiting(model))
}

#[cfg(test)]
mod tests;
