//! Ownership, as Front and Help Scout keep it: a write that changes a
//! conversation's owner or state (assign, unassign, close, reopen) first
//! compares what the service holds with what this agent last saw (the
//! index's copy); a colleague's change since is put to the agent, naming
//! the colleague and what they did, before anything is overwritten.
//!
//! The service offers no compare-and-set, so two agents assigning at once
//! are settled by read, write, read back: each reads just before its write
//! (one that sees the other's assignment is asked, not written), and an
//! assignment is read back once the other's write would have landed too
//! (twice the time this write took, at least [`SETTLE_MIN`]). The one whose
//! read-back shows the colleague is told it lost; the service's last write
//! is the winner both see. The read-back is part of every assignment, so it
//! lives in [`write_one`] (`write.rs`); this file, above it, is the check
//! before.

use super::bulk::Action;
use super::facts::same;
use super::write::{Done, shows, write_one};
use crate::api::{ApiError, Client, Contact, ContactId};

pub use super::write::{SETTLE_MAX, SETTLE_MIN};

/// What this agent last saw of a conversation's owner and state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// The assigned collaborator's email (`None`: nobody).
    pub assignee: Option<String>,
    /// Whether it was open; `None` when the copy did not say (a list's
    /// contact carries no state): nothing to compare the state with.
    pub open: Option<bool>,
}

impl Seen {
    /// As `contact` shows it (the index's or the list's copy).
    pub fn of(contact: &Contact) -> Seen {
        Seen {
            assignee: assignee(contact),
            open: (!contact.state_unknown).then(|| contact.is_open()),
        }
    }
}

fn assignee(c: &Contact) -> Option<String> {
    c.assigned_user.clone().filter(|a| !a.trim().is_empty())
}

/// Whether `action` changes who owns a conversation or its state.
pub fn is_owner_write(action: &Action) -> bool {
    matches!(
        action,
        Action::Close | Action::Reopen | Action::Assign(_) | Action::Unassign
    )
}

/// A colleague's change the agent has not seen, found just before a write.
#[derive(Debug, Clone, PartialEq)]
pub struct Changed {
    /// The contact as the service holds it now.
    pub now: Contact,
    /// What happened, naming the colleague (`alex@example.com took it
    /// (it was unassigned when you last saw it)`). Text from the service:
    /// make it inert before showing it.
    pub what: String,
}

/// What changed between `seen` and `now` that `action` would overrule;
/// `None` when nothing did, or when the service already shows `action`
/// done (nothing to overwrite). `me` is this agent's email.
pub fn changed_since(seen: &Seen, now: &Contact, action: &Action, me: Option<&str>) -> Option<String> {
    if !is_owner_write(action) || shows(action, now) == Some(true) {
        return None;
    }
    let mine = |a: &str| me.is_some_and(|m| same(m, a));
    let was = match seen.assignee.as_deref() {
        Some(a) if mine(a) => "yours".to_string(),
        Some(a) => format!("{a}'s"),
        None => "unassigned".to_string(),
    };
    let owner_now = assignee(now);
    let owner_changed = match (seen.assignee.as_deref(), owner_now.as_deref()) {
        (Some(a), Some(b)) => !same(a, b),
        (None, None) => false,
        _ => true,
    };
    if owner_changed {
        return Some(match owner_now.as_deref() {
            Some(b) if mine(b) => format!("it was assigned to you since you last saw it (it was {was})"),
            Some(b) => format!("{b} took it since you last saw it (it was {was})"),
            None => format!("it was unassigned since you last saw it (it was {was})"),
        });
    }
    // A state this agent never knew, or the service did not say, is no
    // change it missed.
    if let Some(was_open) = seen.open
        && !now.state_unknown
        && was_open != now.is_open()
    {
        let verb = if now.is_open() { "reopened" } else { "closed" };
        return Some(match owner_now.as_deref() {
            Some(b) if mine(b) => format!("your conversation was {verb} since you last saw it"),
            Some(b) => format!("{b}'s conversation was {verb} since you last saw it"),
            None => format!("someone {verb} it since you last saw it"),
        });
    }
    None
}

/// What [`write_checked`] did.
#[derive(Debug, Clone)]
pub enum Checked {
    /// Written (or not, see its `settled`).
    Done(Box<Done>),
    /// Not written: a colleague changed the conversation since `seen`.
    Changed(Box<Changed>),
}

/// [`write_one`] for an owner or state write, asking first: when the
/// service's copy differs from `seen` the way [`changed_since`] says,
/// nothing is written and the change comes back. `seen: None` (or
/// `force`) writes without asking. Writes that are not about the owner or
/// the state go straight through.
pub async fn write_checked(
    client: &Client,
    uuid: &str,
    name: &str,
    action: &Action,
    seen: Option<&Seen>,
    me: Option<&str>,
) -> Result<Checked, ApiError> {
    if let Some(seen) = seen.filter(|_| is_owner_write(action)) {
        let now = client.get_contact(&ContactId::from(uuid), false).await?;
        if let Some(what) = changed_since(seen, &now, action, me) {
            return Ok(Checked::Changed(Box::new(Changed { now, what })));
        }
    }
    Ok(Checked::Done(Box::new(
        write_one(client, uuid, name, action, None).await,
    )))
}

#[cfg(test)]
mod tests;
