//! The act slice's one request: an action on one contact. Every write on
//! an existing contact is a run of these (the root's `Effect::Apply`, run
//! by [`perform`] and answered by `Msg::Applied`).
//!
//! A write goes through `triage::write::write_one`: the contact is read
//! just before it, a tag change carries the tags just read plus or minus
//! its tags (and is read back), and a lost answer or a 5xx is settled by a
//! read before it counts as failed. An undo's write carries a [`Guard`]:
//! the contact is read again, and only the fields still as the action left
//! them are written back (`triage::undo::revert`); the others are
//! conflicts, left as a colleague changed them.

use crate::api::{Client, Contact};
use crate::triage::bulk::Action;
use crate::triage::undo::revert;
use crate::triage::write::{Settled, write_one};
use crate::tui::shared::ReqId;

use super::run::Guard;

#[derive(Debug, Clone, PartialEq)]
pub enum ActEffect {
    /// Does `action` to the contact `uuid` (an undo: only what `guard`
    /// says is still as the action left it).
    Apply {
        id: ReqId,
        uuid: String,
        action: Action,
        guard: Option<Box<Guard>>,
    },
    /// Reads or appends the run history file.
    Runs(super::runs::RunsEffect),
}

/// The answer to one write, as the service shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The contact after, or why not (one line, from the service: make it
    /// inert before drawing it).
    pub result: Result<Contact, String>,
    /// The contact as read just before the write, when it was read.
    pub before: Option<Box<Contact>>,
    /// An undo's fields left as someone changed them since, in words
    /// (`assignee is now bob@… (the run left ana@…)`).
    pub conflicts: Vec<String>,
    /// An undo's: how many fields it wrote back (`None`: not an undo).
    pub reverted: Option<usize>,
    /// Not written: the contact no longer matches the view it was chosen
    /// in (`result` holds it as it is now).
    pub skipped: bool,
    /// Not written: a colleague changed its owner or state since this
    /// agent saw it (`result` holds it as it is now), in words naming
    /// them (`triage::owner::changed_since`; from the service: inert
    /// before it is shown). The agent is asked.
    pub changed: Option<String>,
}

impl Answer {
    /// The answer of a write that went through.
    pub fn ok(contact: Contact) -> Answer {
        Answer {
            result: Ok(contact),
            before: None,
            conflicts: Vec::new(),
            reverted: None,
            skipped: false,
            changed: None,
        }
    }

    /// The answer of a write that did not.
    pub fn failed(why: impl Into<String>) -> Answer {
        Answer {
            result: Err(why.into()),
            before: None,
            conflicts: Vec::new(),
            reverted: None,
            skipped: false,
            changed: None,
        }
    }
}

/// Runs one write (see the module's words).
pub async fn perform(client: &Client, uuid: &str, action: &Action, guard: Option<&Guard>) -> Answer {
    let chosen = match guard {
        Some(Guard::Chosen(c)) => Some(c),
        _ => None,
    };
    if let Some(Guard::Undo { action, before, after }) = guard {
        let r = revert(client, action, uuid, "", before, after).await;
        let result = match (r.error, r.after) {
            (Some(e), _) => Err(e),
            (None, Some(c)) => Ok(c),
            (None, None) => Err("the contact could not be read".into()),
        };
        return Answer {
            result,
            before: r.now.map(Box::new),
            conflicts: r.conflicts,
            reverted: Some(r.reverted),
            skipped: false,
            changed: None,
        };
    }
    if let Some(Guard::Owner { seen, me, hub }) = guard {
        return owner_checked(client, uuid, action, seen, me.as_deref(), hub.as_ref()).await;
    }
    Answer::from(write_one(client, uuid, "", action, chosen).await)
}

/// An owner or state write checked against what the agent saw
/// (`triage::owner::write_checked`): a colleague's change since comes
/// back unwritten, with the contact as it is now.
async fn owner_checked(
    client: &Client,
    uuid: &str,
    action: &Action,
    seen: &crate::triage::owner::Seen,
    me: Option<&str>,
    hub: Option<&super::run::Hub>,
) -> Answer {
    use crate::triage::owner::{Checked, write_checked};
    match write_checked(client, uuid, "", action, Some(seen), me).await {
        Ok(Checked::Changed(c)) => {
            // When, as the hub's timeline of the conversation says (a
            // short wait: the question matters more than its date).
            let when = match hub {
                Some(hub) => tokio::time::timeout(std::time::Duration::from_secs(2), hub.0.timeline(uuid))
                    .await
                    .ok()
                    .and_then(Result::ok)
                    .and_then(|events| last_owner_change(&events, chrono::Utc::now())),
                None => None,
            };
            let what = match when {
                Some(when) => format!("{}; {when}", c.what),
                None => c.what,
            };
            Answer {
                changed: Some(what),
                ..Answer::ok(c.now)
            }
        }
        Ok(Checked::Done(done)) => Answer::from(*done),
        Err(e) => Answer::failed(e.to_string()),
    }
}

/// "bea assigned to bea@… 40 s ago": the newest change of the owner or
/// the state in a conversation's timeline (oldest first), with who made
/// it through the hub ("someone" when it was made elsewhere).
pub fn last_owner_change(
    events: &[crate::hubclient::TimelineEvent],
    now: chrono::DateTime<chrono::Utc>,
) -> Option<String> {
    let owner_or_state = |w: &str| {
        ["assigned", "unassigned", "closed", "opened"]
            .iter()
            .any(|k| w.starts_with(k))
    };
    let e = events.iter().rev().find(|e| owner_or_state(&e.what))?;
    let at = chrono::DateTime::parse_from_rfc3339(&e.at)
        .ok()?
        .with_timezone(&chrono::Utc);
    let secs = (now - at).num_seconds().max(0);
    let ago = match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min", secs / 60),
        3600..86400 => format!("{} h", secs / 3600),
        _ => format!("{} d", secs / 86400),
    };
    let who = e
        .agent
        .as_deref()
        .map(crate::text::sanitize_line)
        .unwrap_or_else(|| "someone".into());
    Some(format!("{who} {} {ago} ago", crate::text::sanitize_line(&e.what)))
}

impl From<crate::triage::write::Done> for Answer {
    /// One contact's settled write: the contact, or why not.
    fn from(done: crate::triage::write::Done) -> Answer {
        let skipped = matches!(done.settled, Settled::Skipped(_));
        let result = match done.settled {
            Settled::Applied(c) | Settled::Skipped(c) => Ok(c),
            Settled::Failed(e) => Err(e),
            Settled::Unknown(e) => Err(format!("unknown whether it was applied: {e}")),
        };
        Answer {
            result,
            before: done.before.map(Box::new),
            conflicts: Vec::new(),
            reverted: None,
            skipped,
            changed: None,
        }
    }
}

impl From<Result<Contact, crate::api::ApiError>> for Answer {
    /// A plain answer: the contact, or the error in words.
    fn from(r: Result<Contact, crate::api::ApiError>) -> Answer {
        match r {
            Ok(c) => Answer::ok(c),
            Err(e) => Answer::failed(e.to_string()),
        }
    }
}
