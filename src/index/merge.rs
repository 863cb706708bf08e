//! Merging a partial contact into the one the index holds. The service's
//! webhooks carry a short contact (href, conversationHref, name, tags,
//! uuid, source, avatarUrl, createdAt, phoneNumber): a field absent from
//! it says nothing, so what the index holds for it (assignee, custom
//! fields, team, note, closed state, funnel, ...) stays. Only the keys
//! present in the raw JSON object are laid over the held contact.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::db::Index;
use super::error::IndexError;
use crate::api::Contact;

/// What a partial contact did to the index.
#[derive(Debug, Clone, PartialEq)]
pub enum Merged {
    /// The index holds no contact with this uuid: nothing was stored.
    NotHeld,
    /// The index holds it so already (or holds a newer state of it).
    Same,
    /// Stored as merged (the contact as it is now).
    Changed(Box<Contact>),
}

/// `held` with every key present in `partial` laid over it (`uuid`
/// excepted). `None` when the result does not decode as a contact (a
/// present key of the wrong type): the caller then ignores the partial.
pub fn overlay(held: &Contact, partial: &Map<String, Value>) -> Option<Contact> {
    let Ok(Value::Object(mut base)) = serde_json::to_value(held) else {
        return None;
    };
    for (k, v) in partial {
        if k != "uuid" {
            base.insert(k.clone(), v.clone());
        }
    }
    let mut merged: Contact = serde_json::from_value(Value::Object(base)).ok()?;
    // Activity is learned, and only ever moves forward: an older message
    // delivered late does not make the conversation look quieter.
    merged.activity_at = match (held.activity_at, merged.activity_at) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    Some(merged)
}

impl Index {
    /// Lays the present keys of `partial` (a raw contact object with its
    /// `uuid`) over the contact the index holds, as a state of `state_at`
    /// (never over a newer state held). A contact the index does not hold
    /// is not created: a partial contact is not enough to make one.
    pub fn merge_partial(
        &mut self,
        partial: &Map<String, Value>,
        state_at: DateTime<Utc>,
    ) -> Result<Merged, IndexError> {
        let Some(uuid) = partial.get("uuid").and_then(Value::as_str) else {
            return Ok(Merged::NotHeld);
        };
        let Some(held) = self.get(uuid)? else {
            return Ok(Merged::NotHeld);
        };
        let Some(merged) = overlay(&held, partial) else {
            return Ok(Merged::Same);
        };
        if merged == held {
            return Ok(Merged::Same);
        }
        let stored = self.upsert_states(std::slice::from_ref(&merged), Utc::now(), state_at)?;
        Ok(if stored > 0 {
            Merged::Changed(Box::new(merged))
        } else {
            Merged::Same
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn full() -> Contact {
        serde_json::from_value(json!({
            "uuid": "c-1", "name": "John", "phoneNumber": "331122334455", "source": "whatsapp",
            "assignedUser": "dana@example.com", "tags": ["Lead"],
            "customFields": { "Plan": "gold" }, "closedAt": "2026-01-01T00:00:00Z",
            "team": { "uuid": "t-1", "name": "Support" }, "note": "VIP", "funnelId": "f-1"
        }))
        .expect("contact")
    }

    #[test]
    fn absent_fields_keep_what_the_index_holds() {
        let mut ix = Index::in_memory().expect("index");
        ix.upsert_contacts(&[full()], Utc::now()).expect("stored");
        let partial = json!({ "uuid": "c-1", "name": "John Doe", "tags": ["Lead", "VIP"],
            "avatarUrl": null, "createdAt": "2022-10-12T15:57:16Z", "phoneNumber": "331122334455",
            "href": "https://dash.callbell.eu/contacts/c-1" });
        let Value::Object(partial) = partial else {
            unreachable!()
        };
        let merged = ix.merge_partial(&partial, Utc::now()).expect("merged");
        let Merged::Changed(c) = merged else {
            panic!("expected a change, got {merged:?}")
        };
        assert_eq!(c.name, "John Doe");
        assert_eq!(c.tags, vec!["Lead", "VIP"]);
        assert_eq!(c.assigned_user.as_deref(), Some("dana@example.com"));
        assert!(c.closed_at.is_some());
        assert_eq!(c.team_uuid(), Some("t-1"));
        assert_eq!(c.note.as_deref(), Some("VIP"));
        assert_eq!(c.funnel_id.as_deref(), Some("f-1"));
        assert_eq!(c.custom_fields.len(), 1);
        assert_eq!(ix.get("c-1").expect("read"), Some(*c));
        assert_eq!(ix.merge_partial(&partial, Utc::now()).expect("again"), Merged::Same);
    }

    #[test]
    fn an_unknown_contact_is_not_made_from_a_partial_one() {
        let mut ix = Index::in_memory().expect("index");
        let Value::Object(partial) = json!({ "uuid": "nobody", "name": "Forged" }) else {
            unreachable!()
        };
        assert_eq!(ix.merge_partial(&partial, Utc::now()).expect("merge"), Merged::NotHeld);
        assert_eq!(ix.get("nobody").expect("read"), None);
    }
}
