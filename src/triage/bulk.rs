//! Acting on many contacts at once: close, reopen, assign, unassign, tag
//! and untag, a few requests at a time, each contact's outcome kept.
//!
//! These are the agent's own actions, not background work: they are not
//! spaced by the sync budget, only bounded in how many run at once, and
//! each request gets the client's retry policy (a 429 waits and tries
//! again; close and open are safe to repeat after a 5xx). Tags are added
//! and removed, never replaced: the contact is read first and the PATCH
//! carries its own tags with the change, so its other tags stay.

use futures::StreamExt;

use crate::api::{ApiError, BotAction, Client, Contact, ContactId, ContactPatch};

/// Requests in flight at once unless told otherwise.
pub const CONCURRENCY: usize = 4;

/// What to do to each contact.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "do", content = "with", rename_all = "snake_case")]
pub enum Action {
    Close,
    Reopen,
    /// Assign to this collaborator (email).
    Assign(String),
    Unassign,
    /// Add these tags, keeping the others.
    Tag(Vec<String>),
    /// Remove these tags (any case), keeping the others.
    Untag(Vec<String>),
    /// Set the team (uuid). The API cannot clear a team.
    Team(String),
    /// Replace the tags with exactly these (an undo of a tags edit).
    SetTags(Vec<String>),
    /// Set the note (`""` clears it).
    Note(String),
    /// Start (`true`) or stop the bot.
    Bot(bool),
    /// Write an internal note on the conversation (the team sees it, the
    /// customer does not). The service cannot delete one.
    ConversationNote(String),
    /// Set the name and these custom fields (a contact's edit form); a
    /// field left out stays as it is.
    Edit {
        name: Option<String>,
        fields: std::collections::BTreeMap<String, serde_json::Value>,
    },
}

/// How to take an action back on one contact, from the contact as it was
/// before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reverse {
    /// The action changed nothing on this contact.
    Nothing,
    /// Doing this restores it.
    Do(Action),
    /// The API cannot restore it, and why.
    Cannot(&'static str),
}

impl Action {
    /// The command's verb: `close`, `reopen`, `assign`…
    pub fn verb(&self) -> &'static str {
        match self {
            Action::Close => "close",
            Action::Reopen => "reopen",
            Action::Assign(_) => "assign",
            Action::Unassign => "unassign",
            Action::Tag(_) => "tag",
            Action::Untag(_) => "untag",
            Action::Team(_) => "set the team of",
            Action::SetTags(_) => "set the tags of",
            Action::Note(_) => "set the note of",
            Action::Bot(true) => "start the bot of",
            Action::Bot(false) => "stop the bot of",
            Action::Edit { .. } => "edit",
            Action::ConversationNote(_) => "write a note on",
        }
    }

    /// For progress: `closing`, `reopening`…
    pub fn doing(&self) -> &'static str {
        match self {
            Action::Close => "closing",
            Action::Reopen => "reopening",
            Action::Assign(_) => "assigning",
            Action::Unassign => "unassigning",
            Action::Tag(_) => "tagging",
            Action::Untag(_) => "untagging",
            Action::Team(_) => "setting the team",
            Action::SetTags(_) => "setting tags",
            Action::Note(_) => "setting the note",
            Action::Bot(true) => "starting the bot",
            Action::Bot(false) => "stopping the bot",
            Action::Edit { .. } => "editing",
            Action::ConversationNote(_) => "writing a note",
        }
    }

    /// For a summary: `closed`, `assigned to a@b.c`, `tagged vip, gold`.
    pub fn done(&self) -> String {
        match self {
            Action::Close => "closed".into(),
            Action::Reopen => "reopened".into(),
            Action::Assign(who) => format!("assigned to {who}"),
            Action::Unassign => "unassigned".into(),
            Action::Tag(tags) => format!("tagged {}", tags.join(", ")),
            Action::Untag(tags) => format!("untagged {}", tags.join(", ")),
            Action::Team(team) => format!("team set to {team}"),
            Action::SetTags(tags) if tags.is_empty() => "tags cleared".into(),
            Action::SetTags(tags) => format!("tags set to {}", tags.join(", ")),
            Action::Note(n) if n.is_empty() => "note cleared".into(),
            Action::Note(_) => "note set".into(),
            Action::Bot(true) => "bot started".into(),
            Action::Bot(false) => "bot stopped".into(),
            Action::Edit { .. } => "edited".into(),
            Action::ConversationNote(_) => "internal note written".into(),
        }
    }

    /// What takes this action back on a contact that was `before` (and
    /// whose bot was running or not, when known).
    pub fn reverse(&self, before: &Contact, bot_before: Option<bool>) -> Reverse {
        let lacked = |tags: &[String]| -> Vec<String> {
            tags.iter()
                .filter(|t| !before.tags.iter().any(|b| b.eq_ignore_ascii_case(t)))
                .cloned()
                .collect()
        };
        let had = |tags: &[String]| -> Vec<String> {
            before
                .tags
                .iter()
                .filter(|b| tags.iter().any(|t| t.eq_ignore_ascii_case(b)))
                .cloned()
                .collect()
        };
        let assignee = before.assigned_user.clone().filter(|a| !a.trim().is_empty());
        let or_nothing = |a: Action, changed: bool| if changed { Reverse::Do(a) } else { Reverse::Nothing };
        match self {
            // Read from a list that carries no state: whether it was open
            // is not known, so neither is what takes it back.
            Action::Close | Action::Reopen if before.state_unknown => {
                Reverse::Cannot("whether the conversation was open before is not known")
            }
            Action::Close => or_nothing(Action::Reopen, before.is_open()),
            Action::Reopen => or_nothing(Action::Close, !before.is_open()),
            Action::Assign(who) => match assignee {
                Some(a) if a.eq_ignore_ascii_case(who) => Reverse::Nothing,
                Some(a) => Reverse::Do(Action::Assign(a)),
                None => Reverse::Do(Action::Unassign),
            },
            Action::Unassign => match assignee {
                Some(a) => Reverse::Do(Action::Assign(a)),
                None => Reverse::Nothing,
            },
            Action::Tag(add) => {
                let added = lacked(add);
                or_nothing(Action::Untag(added.clone()), !added.is_empty())
            }
            Action::Untag(remove) => {
                let removed = had(remove);
                or_nothing(Action::Tag(removed.clone()), !removed.is_empty())
            }
            Action::Team(team) => match before.team_uuid() {
                Some(t) if t == team => Reverse::Nothing,
                Some(t) => Reverse::Do(Action::Team(t.to_string())),
                None => Reverse::Cannot("the API cannot clear a team"),
            },
            Action::SetTags(tags) => or_nothing(Action::SetTags(before.tags.clone()), *tags != before.tags),
            Action::Note(note) => {
                let was = before.note.clone().unwrap_or_default();
                or_nothing(Action::Note(was.clone()), *note != was)
            }
            Action::Bot(on) => match bot_before {
                Some(was) => or_nothing(Action::Bot(was), was != *on),
                None => Reverse::Cannot("the bot's state before is not known"),
            },
            Action::Edit { .. } => Reverse::Cannot("an edit of fields is not taken back"),
            Action::ConversationNote(_) => Reverse::Cannot("the service cannot delete a note"),
        }
    }
}

/// What happened to one contact.
#[derive(Debug)]
pub struct Outcome {
    pub uuid: String,
    pub name: String,
    /// The contact as the API returned it, or why it failed.
    pub result: Result<Contact, ApiError>,
}

impl Outcome {
    pub fn ok(&self) -> bool {
        self.result.is_ok()
    }
}

/// `tags` with `add` added (those it lacks, any case), in order.
pub fn with_tags(tags: &[String], add: &[String]) -> Vec<String> {
    let mut out = tags.to_vec();
    for t in add {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(t)) {
            out.push(t.clone());
        }
    }
    out
}

/// `tags` without `remove` (any case).
pub fn without_tags(tags: &[String], remove: &[String]) -> Vec<String> {
    tags.iter()
        .filter(|t| !remove.iter().any(|r| r.eq_ignore_ascii_case(t)))
        .cloned()
        .collect()
}

/// Does `action` to the contact `uuid`; the contact as the API returns it.
pub async fn apply_one(client: &Client, uuid: &str, action: &Action) -> Result<Contact, ApiError> {
    let id = ContactId::from(uuid);
    match action {
        Action::Close => client.close_conversation(&id).await,
        Action::Reopen => client.open_conversation(&id).await,
        Action::Tag(change) | Action::Untag(change) => {
            // The contact as it is now, not as the index last saw it: a
            // tag someone else added since must survive.
            let now = client.get_contact(&id, false).await?;
            let tags = match action {
                Action::Tag(_) => with_tags(&now.tags, change),
                _ => without_tags(&now.tags, change),
            };
            if tags == now.tags {
                return Ok(now);
            }
            let patch = ContactPatch {
                tags: Some(tags),
                ..Default::default()
            };
            client.update_contact(&id, &patch).await
        }
        // Its own request; the contact as it is after.
        Action::ConversationNote(text) => {
            client.add_note(&id, text).await?;
            client.get_contact(&id, false).await
        }
        other => client.update_contact(&id, &other.patch().unwrap_or_default()).await,
    }
}

impl Action {
    /// The PATCH that does it, for an action that is one plain PATCH
    /// (close and reopen have their own requests; tag and untag read the
    /// contact first).
    pub fn patch(&self) -> Option<ContactPatch> {
        let p = ContactPatch::default();
        Some(match self {
            Action::Close | Action::Reopen | Action::Tag(_) | Action::Untag(_) | Action::ConversationNote(_) => {
                return None;
            }
            Action::Assign(who) => ContactPatch {
                assigned_user: Some(who.clone()),
                ..p
            },
            Action::Unassign => ContactPatch {
                unassign_user: Some(true),
                ..p
            },
            Action::Team(team) => ContactPatch {
                team_uuid: Some(team.clone()),
                ..p
            },
            Action::SetTags(tags) => ContactPatch {
                tags: Some(tags.clone()),
                ..p
            },
            Action::Note(note) => ContactPatch {
                note: Some(note.clone()),
                ..p
            },
            Action::Bot(on) => ContactPatch {
                bot_status: Some(if *on { BotAction::Start } else { BotAction::End }),
                ..p
            },
            Action::Edit { name, fields } => ContactPatch {
                name: name.clone(),
                custom_fields: (!fields.is_empty()).then(|| fields.clone()),
                ..p
            },
        })
    }
}

/// Does `action` to every contact in `targets`, at most `concurrency` at
/// once. `on_done` hears of each outcome as it comes (for progress); the
/// outcomes come back in the order of `targets`. A failure never stops the
/// others.
pub async fn apply(
    client: &Client,
    targets: &[Contact],
    action: &Action,
    concurrency: usize,
    on_done: &mut dyn FnMut(&Outcome),
) -> Vec<Outcome> {
    let mut results: Vec<Option<Outcome>> = targets.iter().map(|_| None).collect();
    let mut running = futures::stream::iter(targets.iter().enumerate())
        .map(|(i, c)| async move {
            let result = apply_one(client, &c.uuid, action).await;
            (
                i,
                Outcome {
                    uuid: c.uuid.clone(),
                    name: c.name.clone(),
                    result,
                },
            )
        })
        .buffer_unordered(concurrency.max(1));
    while let Some((i, outcome)) = running.next().await {
        on_done(&outcome);
        if let Some(slot) = results.get_mut(i) {
            *slot = Some(outcome);
        }
    }
    results.into_iter().flatten().collect()
}
