//! The window title: "frontdesk · ACCOUNT · N waiting".
//!
//! "Waiting" is what the model knows today (the index and triage issues
//! will sharpen it): loaded contacts whose conversation is open and that
//! have a message the agent has not seen in this session (the list's
//! new-message mark). Contacts not loaded yet are not counted.

use super::model::Model;

/// Open conversations among the loaded contacts with an unseen message.
pub fn waiting(model: &Model) -> usize {
    model.list.store.iter().filter(|r| r.is_open() && r.has_new()).count()
}

pub fn text(model: &Model) -> String {
    format!("frontdesk · {} · {} waiting", model.session.account, waiting(model))
}

#[cfg(test)]
mod tests;
