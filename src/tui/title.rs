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
mod tests {
    use crate::tui::fixtures::{model_with, now};

    #[test]
    fn the_title_counts_open_conversations_with_unseen_messages() {
        let mut m = model_with(6, 80, 24);
        assert_eq!(
            super::text(&m),
            format!("frontdesk · {} · 0 waiting", m.session.account)
        );
        for i in [1, 2, 4] {
            let uuid = m.list.store.get(i).unwrap().uuid.to_string();
            m.list.set_seen(&uuid, now() - chrono::Duration::days(1));
        }
        let closed = m.list.store.get(4).unwrap().uuid.to_string();
        m.list.store.update(&closed, |r| r.closed_at = Some(now()));
        assert_eq!(super::waiting(&m), 2, "the closed one does not wait");
    }
}
