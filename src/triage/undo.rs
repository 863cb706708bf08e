//! Undo that reverts only what is still as frontdesk left it: each field a
//! write changed is compared, on the contact as it is now, with the value
//! the write left; those that still match are reverted, the others are
//! conflicts naming the field and its current value (a colleague changed
//! it since, and their edit stands).

use super::bulk::{Action, with_tags};
use super::facts::same;
use crate::api::Contact;

/// A field someone changed after the write: it is left as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// `conversation`, `assignee`, `tag vip`, `tags`, `team`, `note`.
    pub field: String,
    /// The value the write left.
    pub wrote: String,
    /// The value it has now.
    pub now: String,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is now {} (the run left {})", self.field, self.now, self.wrote)
    }
}

/// What an undo of one contact does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UndoPlan {
    /// The writes that revert the fields still as the run left them.
    pub revert: Vec<Action>,
    /// The fields changed since; not reverted.
    pub conflicts: Vec<Conflict>,
    /// Changes the API cannot take back, and why.
    pub cannot: Vec<&'static str>,
}

fn state(c: &Contact) -> String {
    match c.state() {
        crate::api::ConversationState::Open => "open",
        crate::api::ConversationState::Closed => "closed",
        crate::api::ConversationState::Unknown => "unknown",
    }
    .into()
}

fn assignee(c: &Contact) -> Option<String> {
    c.assigned_user.clone().filter(|a| !a.trim().is_empty())
}

fn shown(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "(none)".into())
}

fn has(c: &Contact, tag: &str) -> bool {
    c.tags.iter().any(|t| same(t, tag))
}

/// The undo of a write that took the contact from `before` to `after`
/// (`action` names it), against the contact as it is `now`.
pub fn plan_undo(action: &Action, before: &Contact, after: &Contact, now: &Contact) -> UndoPlan {
    let mut plan = UndoPlan::default();
    let mut field = |name: &str, wrote: String, current: String, revert: Action, changed: bool| {
        if !changed {
            return;
        }
        if same(&wrote, &current) {
            plan.revert.push(revert);
        } else {
            plan.conflicts.push(Conflict {
                field: name.into(),
                wrote,
                now: current,
            });
        }
    };
    match action {
        Action::Close | Action::Reopen if before.state_unknown => {
            plan.cannot
                .push("whether the conversation was open before is not known");
        }
        Action::Close | Action::Reopen => {
            let revert = if before.is_open() {
                Action::Reopen
            } else {
                Action::Close
            };
            field(
                "conversation",
                state(after),
                state(now),
                revert,
                state(before) != state(after),
            );
        }
        Action::Assign(_) | Action::Unassign => {
            let revert = match assignee(before) {
                Some(a) => Action::Assign(a),
                None => Action::Unassign,
            };
            let changed = !same(&shown(&assignee(before)), &shown(&assignee(after)));
            field(
                "assignee",
                shown(&assignee(after)),
                shown(&assignee(now)),
                revert,
                changed,
            );
        }
        Action::Tag(_) | Action::Untag(_) | Action::SetTags(_) => {
            // Tag by tag: a tag the run added (or removed) is reverted when
            // it is still there (still gone).
            let mut untag = Vec::new();
            let mut retag = Vec::new();
            let word = |b: bool| if b { "present" } else { "absent" }.to_string();
            for t in after.tags.iter().filter(|t| !has(before, t)) {
                if has(now, t) {
                    untag.push(t.clone());
                } else {
                    plan.conflicts.push(Conflict {
                        field: format!("tag {t}"),
                        wrote: word(true),
                        now: word(false),
                    });
                }
            }
            for t in before.tags.iter().filter(|t| !has(after, t)) {
                if has(now, t) {
                    plan.conflicts.push(Conflict {
                        field: format!("tag {t}"),
                        wrote: word(false),
                        now: word(true),
                    });
                } else {
                    retag.push(t.clone());
                }
            }
            if !untag.is_empty() {
                plan.revert.push(Action::Untag(untag));
            }
            if !retag.is_empty() {
                plan.revert.push(Action::Tag(with_tags(&[], &retag)));
            }
        }
        Action::Team(_) => {
            let (b, a, n) = (before.team_uuid(), after.team_uuid(), now.team_uuid());
            if b != a {
                match b {
                    Some(t) => field(
                        "team",
                        shown(&a.map(str::to_string)),
                        shown(&n.map(str::to_string)),
                        Action::Team(t.to_string()),
                        true,
                    ),
                    None => plan.cannot.push("the API cannot clear a team"),
                }
            }
        }
        Action::Note(_) => {
            let note = |c: &Contact| c.note.clone().unwrap_or_default();
            let changed = note(before) != note(after);
            if changed && note(after) == note(now) {
                plan.revert.push(Action::Note(note(before)));
            } else if changed {
                plan.conflicts.push(Conflict {
                    field: "note".into(),
                    wrote: note(after),
                    now: note(now),
                });
            }
        }
        Action::Bot(_) => plan.cannot.push("the bot's state is not part of the contact"),
        Action::Edit { .. } => plan.cannot.push("an edit of fields is not taken back"),
        Action::ConversationNote(_) => plan.cannot.push("the service cannot delete a note"),
    }
    plan
}

/// One contact taken back by [`revert`].
#[derive(Debug, Clone, PartialEq)]
pub struct Reverted {
    /// The contact as read just before the undo (`None`: that read failed).
    pub now: Option<Contact>,
    /// The contact as the service shows it after the undo (`None`: the
    /// read failed).
    pub after: Option<Contact>,
    /// How many fields were written back.
    pub reverted: usize,
    /// The fields left as someone changed them, and what the API cannot
    /// take back, in words.
    pub conflicts: Vec<String>,
    /// Why a read or a write failed.
    pub error: Option<String>,
}

impl Reverted {
    /// `reverted`, `partly` (some fields reverted, others in conflict),
    /// `conflict`, `nothing` (nothing left to revert) or `failed`.
    pub fn outcome(&self) -> &'static str {
        match (self.error.is_some(), self.reverted == 0, self.conflicts.is_empty()) {
            (true, _, _) => "failed",
            (false, true, true) => "nothing",
            (false, true, false) => "conflict",
            (false, false, true) => "reverted",
            (false, false, false) => "partly",
        }
    }
}

/// Takes back `action`, which took the contact `uuid` from `before` to
/// `after`: reads it as it is now, and writes back (through the one write
/// pipeline, [`write_one`]) only the fields still as the action left them.
/// The CLI's `undo`, the TUI's `u` and the history all come here.
///
/// [`write_one`]: super::write::write_one
pub async fn revert(
    client: &crate::api::Client,
    action: &Action,
    uuid: &str,
    name: &str,
    before: &Contact,
    after: &Contact,
) -> Reverted {
    use super::write::{Settled, write_one};
    let now = match client.get_contact(&crate::api::ContactId::from(uuid), false).await {
        Ok(c) => c,
        Err(e) => {
            return Reverted {
                now: None,
                after: None,
                reverted: 0,
                conflicts: Vec::new(),
                error: Some(e.to_string()),
            };
        }
    };
    let plan = plan_undo(action, before, after, &now);
    let conflicts = plan
        .conflicts
        .iter()
        .map(ToString::to_string)
        .chain(plan.cannot.iter().map(|c| format!("not reverted: {c}")))
        .collect();
    let mut current = now.clone();
    let mut error = None;
    let mut reverted = 0;
    for revert in &plan.revert {
        match write_one(client, uuid, name, revert, None).await.settled {
            Settled::Applied(c) => {
                current = c;
                reverted += 1;
            }
            Settled::Failed(m) | Settled::Unknown(m) => error = Some(m),
            Settled::Skipped(_) => {}
        }
    }
    Reverted {
        now: Some(now),
        after: Some(current),
        reverted,
        conflicts,
        error,
    }
}
