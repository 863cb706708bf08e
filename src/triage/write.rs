//! Writes that act only on what they checked, on an account several agents
//! work at once.
//!
//! Each contact is read from the service just before its write; one that
//! no longer matches what it was chosen by (a view, `--older-than`) is
//! skipped, not written. Tags change one tag at a time: the write carries
//! the tags just read plus or minus that tag, is read back, and a lost
//! update (a colleague's write landed in between) is tried once more. A
//! write whose answer is lost or a 5xx is not a failure yet: a read settles
//! whether it was applied. What is reported is what the service shows.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures::StreamExt;

use super::bulk::{self, Action, with_tags, without_tags};
use super::facts::{Facts, same};
use super::view::ViewFilter;
use crate::api::{ApiError, Client, Contact, ContactId, ContactPatch, PageRequest};
use crate::index::Preview;

/// How many times a tag change lost to a concurrent write is tried again.
pub const LOST_UPDATE_RETRIES: usize = 1;

/// The shortest wait before an assignment is read back.
pub const SETTLE_MIN: Duration = Duration::from_millis(150);
/// The longest.
pub const SETTLE_MAX: Duration = Duration::from_secs(2);

/// What became of one contact, as the service shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum Settled {
    /// The service shows the change (or already showed it): the contact
    /// as it is after.
    Applied(Contact),
    /// Not written: the contact changed since it was listed and no longer
    /// matches what it was chosen by. The contact as it is now.
    Skipped(Contact),
    /// Not applied, and why.
    Failed(String),
    /// The answer was lost and no read could tell whether it was applied.
    Unknown(String),
}

impl Settled {
    /// `applied`, `skipped`, `failed` or `unknown`.
    pub fn label(&self) -> &'static str {
        match self {
            Settled::Applied(_) => "applied",
            Settled::Skipped(_) => "skipped",
            Settled::Failed(_) => "failed",
            Settled::Unknown(_) => "unknown",
        }
    }
}

/// The words a skipped contact is reported with.
pub const SKIPPED: &str = "skipped: changed since listed";

/// One contact's write, settled.
#[derive(Debug, Clone)]
pub struct Done {
    pub uuid: String,
    pub name: String,
    /// The contact as read just before the write (`None`: that read failed).
    pub before: Option<Contact>,
    pub settled: Settled,
    /// The service does not have the contact (it answered 404).
    pub missing: bool,
}

impl Done {
    /// The contact after, when the change is applied.
    pub fn after(&self) -> Option<&Contact> {
        match &self.settled {
            Settled::Applied(c) => Some(c),
            _ => None,
        }
    }
}

/// What the contacts were chosen by; checked again before each write.
#[derive(Debug, Clone, PartialEq)]
pub struct Chosen {
    pub filter: ViewFilter,
    /// The agent's email (the filter's "me").
    pub me: Option<String>,
    /// The moment the contacts were listed (for "older than").
    pub now: DateTime<Utc>,
}

impl Chosen {
    /// Whether `contact`, as just read, still matches. A filter on who
    /// wrote last reads the conversation's last message too.
    pub async fn still_matches(&self, client: &Client, contact: &Contact) -> Result<bool, ApiError> {
        let me = self.me.as_deref();
        let facts = Facts::new(contact, None);
        if !self.filter.needs_last_message() || !self.filter.matches_but_waiting(&facts, me, self.now) {
            return Ok(self.filter.matches(&facts, me, self.now));
        }
        let page = client
            .list_messages(&ContactId::from(contact.uuid.as_str()), &PageRequest::First)
            .await?;
        let preview = Preview::of(&page.items, contact.last_activity());
        Ok(self.filter.matches(&Facts::new(contact, Some(&preview)), me, self.now))
    }
}

/// Whether `contact` shows `action` done; `None` when a contact cannot
/// tell (the bot's state is not part of it).
pub fn shows(action: &Action, contact: &Contact) -> Option<bool> {
    let has = |t: &String| contact.tags.iter().any(|c| same(c, t));
    Some(match action {
        // Not said by the answer it was read from (a list's contact).
        Action::Close | Action::Reopen if contact.state_unknown => return None,
        Action::Close => !contact.is_open(),
        Action::Reopen => contact.is_open(),
        Action::Assign(who) => contact.assigned_user.as_deref().is_some_and(|a| same(a, who)),
        Action::Unassign => contact.assigned_user.as_deref().is_none_or(|a| a.trim().is_empty()),
        Action::Tag(tags) => tags.iter().all(has),
        Action::Untag(tags) => !tags.iter().any(has),
        Action::Team(team) => contact.team_uuid() == Some(team.as_str()),
        Action::SetTags(tags) => tags.len() == contact.tags.len() && tags.iter().all(has),
        Action::Note(note) => contact.note.as_deref().unwrap_or_default() == note,
        Action::Bot(_) | Action::Edit { .. } | Action::ConversationNote(_) => return None,
    })
}

/// An error that proves the write was not carried out: the service
/// refused it, or it never left.
fn refused(e: &ApiError) -> bool {
    matches!(
        e,
        ApiError::Config(_)
            | ApiError::Unauthorized
            | ApiError::NotFound { .. }
            | ApiError::NotOffered { .. }
            | ApiError::Validation { .. }
            | ApiError::Pagination(_)
            | ApiError::Rejected { .. }
            | ApiError::RateLimited { .. }
    )
}

async fn read(client: &Client, uuid: &str) -> Result<Contact, ApiError> {
    client.get_contact(&ContactId::from(uuid), false).await
}

/// Sends `action`'s write for a contact that is `current`: a tag change
/// carries `current`'s tags plus or minus the tags.
async fn send(client: &Client, uuid: &str, action: &Action, current: &Contact) -> Result<Contact, ApiError> {
    let tags = match action {
        Action::Tag(add) => with_tags(&current.tags, add),
        Action::Untag(remove) => without_tags(&current.tags, remove),
        other => return bulk::apply_one(client, uuid, other).await,
    };
    let patch = ContactPatch {
        tags: Some(tags),
        ..Default::default()
    };
    client.update_contact(&ContactId::from(uuid), &patch).await
}

/// Reads `uuid` after a write whose answer was `error`, and settles it.
async fn settle(client: &Client, uuid: &str, action: &Action, error: &ApiError) -> Settled {
    match read(client, uuid).await {
        Ok(now) => match shows(action, &now) {
            Some(true) => Settled::Applied(now),
            Some(false) => Settled::Failed(format!("not applied (checked after the error): {error}")),
            None => Settled::Unknown(format!("{error}; whether it was applied cannot be read back")),
        },
        Err(e) => Settled::Unknown(format!("{error}; reading it back failed too: {e}")),
    }
}

/// Does `action` to the contact `uuid` with every check above: read just
/// before, skip when `chosen` no longer holds, settle a lost answer, read a
/// tag change back and try a lost one again.
pub async fn write_one(client: &Client, uuid: &str, name: &str, action: &Action, chosen: Option<&Chosen>) -> Done {
    let done = |before: Option<Contact>, settled| Done {
        uuid: uuid.to_string(),
        name: name.to_string(),
        before,
        settled,
        missing: false,
    };
    let before = match read(client, uuid).await {
        Ok(c) => c,
        Err(e) => {
            return Done {
                missing: matches!(e, ApiError::NotFound { .. }),
                ..done(None, Settled::Failed(e.to_string()))
            };
        }
    };
    if let Some(chosen) = chosen {
        match chosen.still_matches(client, &before).await {
            Ok(true) => {}
            Ok(false) => return done(Some(before.clone()), Settled::Skipped(before)),
            Err(e) => return done(Some(before), Settled::Failed(e.to_string())),
        }
    }
    let tags = matches!(action, Action::Tag(_) | Action::Untag(_));
    let mut current = before.clone();
    for attempt in 0..=LOST_UPDATE_RETRIES {
        if attempt > 0 {
            current = match read(client, uuid).await {
                Ok(c) => c,
                Err(e) => return done(Some(before), Settled::Unknown(e.to_string())),
            };
        }
        if shows(action, &current) == Some(true) {
            // Already so: a colleague taking it at this moment must not
            // leave this agent told it is theirs (a shift's script saw
            // "already assigned" on one side while the other took it).
            if attempt == 0 && matches!(action, Action::Assign(_)) {
                let settled = confirm_assignment(client, uuid, action, current, SETTLE_MIN).await;
                return done(Some(before), settled);
            }
            return done(Some(before), Settled::Applied(current));
        }
        let start = std::time::Instant::now();
        let answer = match send(client, uuid, action, &current).await {
            Ok(c) => c,
            Err(e) if refused(&e) => return done(Some(before), Settled::Failed(e.to_string())),
            Err(e) => {
                let settled = settle(client, uuid, action, &e).await;
                if tags && matches!(settled, Settled::Failed(_)) && attempt < LOST_UPDATE_RETRIES {
                    continue;
                }
                return done(Some(before), settled);
            }
        };
        if matches!(action, Action::Assign(_)) {
            // Two agents assigning at once: the one the service did not
            // keep is told (why: `owner`'s doc).
            let settled = confirm_assignment(client, uuid, action, answer, start.elapsed()).await;
            return done(Some(before), settled);
        }
        if !tags {
            return done(Some(before), Settled::Applied(answer));
        }
        // Read back: a colleague's tag write may have replaced ours.
        match read(client, uuid).await {
            Ok(now) if shows(action, &now) == Some(true) => return done(Some(before), Settled::Applied(now)),
            Ok(_) => {}
            Err(e) => {
                return done(
                    Some(before),
                    Settled::Unknown(format!("written, but reading it back failed: {e}")),
                );
            }
        }
    }
    let what = match action {
        Action::Untag(_) => "still shows the tag",
        _ => "does not show the tag",
    };
    done(
        Some(before),
        Settled::Failed(format!(
            "a concurrent edit replaced this change twice: the service {what}"
        )),
    )
}

/// Reads an assignment back once a colleague's write made at the same time
/// would have landed (`took`: how long this write took): `answer` stands
/// when the service still shows it, else the agent is told who has it.
async fn confirm_assignment(client: &Client, uuid: &str, action: &Action, answer: Contact, took: Duration) -> Settled {
    let Action::Assign(to) = action else {
        return Settled::Applied(answer);
    };
    tokio::time::sleep((took * 2).clamp(SETTLE_MIN, SETTLE_MAX)).await;
    match client.get_contact(&ContactId::from(uuid), false).await {
        Ok(now) => match now.assigned_user.clone().filter(|a| !a.trim().is_empty()) {
            Some(a) if same(&a, to) => Settled::Applied(now),
            Some(a) => Settled::Failed(format!(
                "{a} was assigned at the same moment and the service kept theirs: it is {a}'s"
            )),
            None => Settled::Failed("unassigned again at the same moment: nobody has it".into()),
        },
        // The write's own answer showed it: keep it, unconfirmed.
        Err(_) => Settled::Applied(answer),
    }
}

/// [`write_one`] for every target, at most `concurrency` at once; `on_done`
/// hears of each as it settles. Once `stop` is set no new write starts,
/// the ones under way settle, and only the contacts begun come back (in
/// the order of `targets`).
pub async fn write_all(
    client: &Client,
    targets: &[Contact],
    action: &Action,
    chosen: Option<&Chosen>,
    concurrency: usize,
    stop: &AtomicBool,
    on_done: &mut dyn FnMut(&Done),
) -> Vec<Done> {
    let mut results: Vec<Option<Done>> = targets.iter().map(|_| None).collect();
    let mut running = futures::stream::iter(targets.iter().enumerate())
        .map(|(i, c)| async move {
            if stop.load(Ordering::SeqCst) {
                return (i, None);
            }
            (i, Some(write_one(client, &c.uuid, &c.name, action, chosen).await))
        })
        .buffer_unordered(concurrency.max(1));
    let mut finished = Vec::new();
    while let Some((i, done)) = running.next().await {
        let Some(done) = done else { continue };
        if !matches!(action, Action::Tag(_) | Action::Untag(_)) {
            on_done(&done);
        }
        if let Some(slot) = results.get_mut(i) {
            *slot = Some(done);
            finished.push(i);
        }
    }
    drop(running);
    if matches!(action, Action::Tag(_) | Action::Untag(_)) {
        // A colleague's write that read the tags before ours and landed
        // after our read-back replaced our change unseen: one more read of
        // each, once every write of the run is made, repairs it.
        let checked: Vec<(usize, Done)> = futures::stream::iter(finished)
            .filter_map(|i| {
                let d = results.get_mut(i).and_then(Option::take);
                async move { d.map(|d| (i, d)) }
            })
            .map(|(i, d)| async move { (i, recheck(client, action, d).await) })
            .buffer_unordered(concurrency.max(1))
            .collect()
            .await;
        for (i, d) in checked {
            on_done(&d);
            if let Some(slot) = results.get_mut(i) {
                *slot = Some(d);
            }
        }
    }
    results.into_iter().flatten().collect()
}

/// Reads an applied tag change again; one the service no longer shows is
/// made again (and read back), else reported lost.
async fn recheck(client: &Client, action: &Action, mut done: Done) -> Done {
    if !matches!(done.settled, Settled::Applied(_)) {
        return done;
    }
    let now = match read(client, &done.uuid).await {
        Ok(c) => c,
        Err(_) => return done,
    };
    if shows(action, &now) == Some(true) {
        done.settled = Settled::Applied(now);
        return done;
    }
    let again = write_one(client, &done.uuid, &done.name, action, None).await;
    done.settled = match again.settled {
        Settled::Applied(c) => Settled::Applied(c),
        Settled::Failed(e) | Settled::Unknown(e) => {
            Settled::Failed(format!("a concurrent edit replaced this change: {e}"))
        }
        Settled::Skipped(c) => Settled::Skipped(c),
    };
    done
}
