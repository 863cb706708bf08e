//! A hub event applied to the local index: what a headless agent (and
//! later the TUI) does to stay live without polling.

use chrono::Utc;

use super::events::HubEvent;
use crate::index::{Index, IndexError};

/// Applies `event`; true when the index changed. Events about contacts the
/// index does not hold (other than `contact_changed`) change nothing: the
/// next snapshot brings them. Presence, agent status, snoozes and `resync` are not
/// the index's business.
pub fn apply_to_index(index: &mut Index, event: &HubEvent) -> Result<bool, IndexError> {
    match event {
        HubEvent::ContactChanged { contact } => {
            Ok(index.upsert_contacts(std::slice::from_ref(contact.as_ref()), Utc::now())? > 0)
        }
        HubEvent::ContactDeleted { uuid } => index.apply_contact_deleted(uuid),
        HubEvent::ConversationOpened(c) | HubEvent::ConversationClosed(c) => {
            let Some(mut stored) = index.get(&c.contact)? else {
                return Ok(false);
            };
            let closed = matches!(event, HubEvent::ConversationClosed(_));
            if !stored.state_unknown && stored.closed_at.is_some() == closed {
                return Ok(false);
            }
            stored.set_closed_at(closed.then(|| c.at.unwrap_or_else(Utc::now)));
            Ok(index.upsert_contacts(&[stored], Utc::now())? > 0)
        }
        HubEvent::MessageCreated { contact, message, .. } => {
            // Newer activity marks the cached preview stale, so whoever
            // shows it fetches the thread again.
            let Some(mut stored) = index.get(contact)? else {
                return Ok(false);
            };
            let at = message.created_at.unwrap_or_else(Utc::now);
            if stored.activity_at.is_some_and(|t| t >= at) {
                return Ok(false);
            }
            stored.activity_at = Some(at);
            Ok(index.upsert_contacts(&[stored], Utc::now())? > 0)
        }
        HubEvent::LastMessage { contact, preview } => {
            let Some(mut stored) = index.get(contact)? else {
                return Ok(false);
            };
            let Some(activity) = preview.activity() else {
                return Ok(false);
            };
            // Older than what the index knows: a newer message will come
            // (or came) by its own event.
            if stored.last_activity().is_some_and(|held| held > activity) {
                return Ok(false);
            }
            // A page held at that activity is the same last message, whole.
            let held = index.previews(&[contact.as_str()])?.remove(contact);
            if held.is_some_and(|p| p.activity == Some(activity)) {
                return Ok(false);
            }
            if stored.last_activity() != Some(activity) {
                stored.activity_at = Some(activity);
                index.upsert_contacts(&[stored], Utc::now())?;
            }
            index.store_messages(contact, Some(activity), &preview.clone().page())?;
            Ok(true)
        }
        HubEvent::MessageStatus { .. }
        | HubEvent::Presence(_)
        | HubEvent::AgentStatus { .. }
        | HubEvent::ServiceStatus(_)
        | HubEvent::SnoozeChanged(_)
        | HubEvent::Resync { .. }
        | HubEvent::Unknown { .. } => Ok(false),
    }
}
