//! The conversation's timeline between its messages (issue 36): opened,
//! closed (with the reason), assigned to whom by whom, tagged, moved, as
//! dim one-line rows placed by time ("— closed by alex: resolved · 14:02").
//!
//! Its events come from the root: through a hub, the hub's timeline of the
//! contact (`GET /hub/v1/timeline/{contact}`, who did what through the
//! hub, and closes from the webhooks with their reason); alone, this
//! agent's own writes as they are answered. Everything in it came from
//! outside: each row is made inert before it is drawn.
//!
//! The viewport asks it for the rows above a message (the events after the
//! message before it, up to this one) and the rows after the newest.

use chrono::{DateTime, Utc};

use crate::tui::zone::{Zone, local};

/// One change of the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub at: DateTime<Utc>,
    /// "closed", "assigned to bea@…".
    pub what: String,
    /// Who did it (`None`: someone, not through this hub).
    pub by: Option<String>,
    /// A close's reason, when the service gave one.
    pub reason: Option<String>,
}

/// The events of the contact the thread shows, oldest first.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    contact: Option<String>,
    events: Vec<Event>,
}

impl Timeline {
    /// Adds `event` of `contact`: another contact's timeline is dropped
    /// (one thread at a time); the same event twice is kept once.
    pub fn add(&mut self, contact: &str, event: Event) {
        if self.contact.as_deref() != Some(contact) {
            self.contact = Some(contact.to_string());
            self.events.clear();
        }
        let same = |e: &Event| e.what == event.what && (e.at - event.at).num_seconds().abs() < 5;
        if let Some(e) = self.events.iter_mut().find(|e| same(e)) {
            // The hub's copy names who did it and why.
            if e.by.is_none() {
                e.by = event.by;
            }
            if e.reason.is_none() {
                e.reason = event.reason;
            }
            return;
        }
        let at = self.events.partition_point(|e| e.at <= event.at);
        self.events.insert(at, event);
    }

    /// `contact`'s events, when this timeline is theirs.
    fn of(&self, contact: Option<&str>) -> &[Event] {
        match contact {
            Some(c) if self.contact.as_deref() == Some(c) => &self.events,
            _ => &[],
        }
    }

    /// The events after `after` (none: from the start) up to `upto`.
    pub fn between(
        &self,
        contact: Option<&str>,
        after: Option<DateTime<Utc>>,
        upto: DateTime<Utc>,
    ) -> impl Iterator<Item = &Event> {
        self.of(contact)
            .iter()
            .filter(move |e| after.is_none_or(|a| e.at > a) && e.at <= upto)
    }

    /// The events after `t`, the newest message.
    pub fn after(&self, contact: Option<&str>, t: DateTime<Utc>) -> impl Iterator<Item = &Event> {
        self.of(contact).iter().filter(move |e| e.at > t)
    }
}

/// "— closed by alex: resolved · 14:02", inert.
pub fn row(e: &Event, tz: Option<Zone>) -> String {
    let clean = crate::text::sanitize_line;
    let by = e.by.as_deref().map(clean).filter(|b| !b.trim().is_empty());
    let mut s = format!("— {} by {}", clean(&e.what), by.as_deref().unwrap_or("someone"));
    if let Some(r) = e.reason.as_deref().map(clean).filter(|r| !r.trim().is_empty()) {
        s.push_str(&format!(": {r}"));
    }
    s.push_str(&format!(" · {}", local(e.at, tz).format("%H:%M")));
    s
}

/// What this agent's own write did, for its timeline: `None` for what is
/// no change of the conversation (an edit of fields, a note, the bot).
pub fn own(action: &crate::triage::bulk::Action) -> Option<String> {
    use crate::triage::bulk::Action;
    let clean = crate::text::sanitize_line;
    Some(match action {
        Action::Close => "closed".into(),
        Action::Reopen => "opened".into(),
        Action::Assign(who) => format!("assigned to {}", clean(who)),
        Action::Unassign => "unassigned".into(),
        Action::Tag(t) => format!("tagged {}", clean(&t.join(", "))),
        Action::Untag(t) => format!("untagged {}", clean(&t.join(", "))),
        Action::SetTags(t) => format!("tags set to {}", clean(&t.join(", "))),
        Action::Team(_) => "moved to another team".into(),
        // A conversation's note shows in the thread itself.
        Action::Note(_) | Action::Bot(_) | Action::Edit { .. } | Action::ConversationNote(_) => return None,
    })
}
