//! Applying what the hub learns (a write's answer, a webhook event, a
//! reconciliation page) to its index, and broadcasting the result. One
//! rule above all: something older never overwrites something newer.

use serde_json::{Map, Value};

use super::state::HubState;
use crate::api::Contact;
use crate::index::{IndexAccess, Merged};

/// What became of a contact offered to the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    /// Stored (new or changed) and broadcast.
    Stored,
    /// The index holds it exactly so already.
    Same,
    /// The index holds a newer state of it: left alone.
    Older,
}

/// The contact in a body: `{"contact": {...}}`, `{"contact": [{...}]}`
/// (the reference's one-element list), or the contact object itself.
pub fn contact_in(v: &Value) -> Option<Contact> {
    let inner = match v.get("contact") {
        Some(Value::Array(items)) => items.first()?,
        Some(obj @ Value::Object(_)) => obj,
        _ => v,
    };
    inner.get("uuid").and_then(Value::as_str)?;
    serde_json::from_value(inner.clone()).ok()
}

/// Stores `contact` unless the index holds a state of it with later
/// activity; broadcasts what changed.
pub fn contact(st: &HubState, contact: &Contact) -> Applied {
    let mut index = st.index.clone();
    let result = index.with(|ix| -> Result<Applied, crate::index::IndexError> {
        if let Some(held) = ix.get(&contact.uuid)? {
            // Only a contact that carries activity can be older: the
            // service sends none (no lastMessageAt), so one from it is
            // never judged by the activity the index learned.
            if contact.activity_at.is_some() && held.last_activity() > contact.last_activity() {
                return Ok(Applied::Older);
            }
            if ix.holds(contact)? {
                return Ok(Applied::Same);
            }
        }
        ix.upsert_contacts(std::slice::from_ref(contact), chrono::Utc::now())?;
        Ok(Applied::Stored)
    });
    match result {
        Ok(a) => {
            if a == Applied::Stored {
                st.publish_index_changes();
            }
            a
        }
        Err(e) => {
            tracing::warn!("storing a contact failed: {e}");
            Applied::Same
        }
    }
}

/// Removes a contact the service deleted; broadcasts it when held.
pub fn deleted(st: &HubState, uuid: &str) {
    let mut index = st.index.clone();
    match index.with(|ix| ix.apply_contact_deleted(uuid)) {
        Ok(true) => {
            st.publish_index_changes();
        }
        Ok(false) => {}
        Err(e) => tracing::warn!("removing a contact failed: {e}"),
    }
}

/// Lays the present keys of a partial contact over the held one (see
/// `index::merge`); broadcasts the change.
pub fn merge(st: &HubState, partial: &Map<String, Value>) -> Merged {
    let mut index = st.index.clone();
    match index.with(|ix| ix.merge_partial(partial, chrono::Utc::now())) {
        Ok(m) => {
            if matches!(m, Merged::Changed(_)) {
                st.publish_index_changes();
            }
            m
        }
        Err(e) => {
            tracing::warn!("merging a contact failed: {e}");
            Merged::Same
        }
    }
}

/// Stores what the service answered for a contact (a lookup confirming a
/// delivery): merged over the held contact (a key it does not carry
/// leaves what is held), or stored new. Broadcasts the change.
pub fn confirmed(st: &HubState, raw: &Map<String, Value>) -> Option<Contact> {
    match merge(st, raw) {
        Merged::Changed(c) => Some(*c),
        Merged::Same => held(st, raw.get("uuid").and_then(Value::as_str).unwrap_or_default()),
        Merged::NotHeld => {
            let c: Contact = serde_json::from_value(Value::Object(raw.clone())).ok()?;
            contact(st, &c);
            held(st, &c.uuid)
        }
    }
}

/// The contact as the index holds it.
pub fn held(st: &HubState, uuid: &str) -> Option<Contact> {
    let mut index = st.index.clone();
    index.with(|ix| ix.get(uuid)).ok().flatten()
}

/// Stores a contact whose only news is its activity, without announcing
/// it: the event that brought the activity tells every agent already.
pub fn activity(st: &HubState, contact: &Contact) {
    let mut index = st.index.clone();
    if let Err(e) = index.with(|ix| ix.upsert_unannounced(std::slice::from_ref(contact), chrono::Utc::now())) {
        tracing::warn!("storing a conversation's activity failed: {e}");
    }
}
