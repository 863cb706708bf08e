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

use crate::api::{ApiError, Client, Contact, ContactId, ContactPatch};

/// Requests in flight at once unless told otherwise.
pub const CONCURRENCY: usize = 4;

/// What to do to each contact.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    let patch = |p: ContactPatch| async move { client.update_contact(&id, &p).await };
    match action {
        Action::Close => client.close_conversation(&ContactId::from(uuid)).await,
        Action::Reopen => client.open_conversation(&ContactId::from(uuid)).await,
        Action::Assign(who) => {
            patch(ContactPatch {
                assigned_user: Some(who.clone()),
                ..Default::default()
            })
            .await
        }
        Action::Unassign => {
            patch(ContactPatch {
                unassign_user: Some(true),
                ..Default::default()
            })
            .await
        }
        Action::Tag(change) | Action::Untag(change) => {
            // The contact as it is now, not as the index last saw it: a
            // tag someone else added since must survive.
            let now = client.get_contact(&ContactId::from(uuid), false).await?;
            let tags = match action {
                Action::Tag(_) => with_tags(&now.tags, change),
                _ => without_tags(&now.tags, change),
            };
            if tags == now.tags {
                return Ok(now);
            }
            patch(ContactPatch {
                tags: Some(tags),
                ..Default::default()
            })
            .await
        }
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
