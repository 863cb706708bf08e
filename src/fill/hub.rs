//! Through a team hub: the hub's snapshot instead of a walk of the
//! account, then its event stream applied to the index as events arrive.
//! While the stream is live nothing is polled; while it is down the
//! refresh timer's passes go to the hub (which answers from its own
//! index) until the stream reconnects with `Last-Event-ID`. A `resync`
//! loads the snapshot again.

use std::time::Duration;

use chrono::Utc;
use tokio::sync::mpsc::UnboundedSender;

use super::link::Doing;
use super::load::{forward_changes, send_all_previews};
use super::msg::{HubLink, HubNote, IndexMsg, Outbox};
use crate::api::{ApiError, Message};
use crate::hubclient::{HubClient, HubEvent, HubItem, PresenceState, apply_to_index};
use crate::index::sync::{Progress, SyncError};
use crate::index::{IndexAccess, Preview, SharedIndex};

/// The longest pause between two tries of a failed snapshot.
const SNAPSHOT_RETRY_MAX: Duration = Duration::from_secs(30);
/// Messages kept in a contact's cached page when an event adds one.
const PAGE: usize = 50;

/// What following the hub tells the worker.
pub(super) enum Report {
    /// The snapshot's progress: contacts stored, of how many.
    Progress(Progress),
    /// The snapshot loaded (whether the hub had walked the whole account)
    /// or failed (why).
    Snapshot(Result<bool, String>),
    Link(HubLink),
}

/// Follows the hub until the worker ends (or the hub refuses the token).
pub(super) async fn follow<M: Outbox>(
    hub: HubClient,
    mut index: SharedIndex,
    tx: UnboundedSender<M>,
    done: impl Fn(Report) + Clone + 'static,
) {
    let link = |l: HubLink| done(Report::Link(l));
    let note = |n: HubNote| {
        let _ = tx.send(M::from(IndexMsg::Hub(n)));
    };
    match hub.whoami().await {
        Ok(me) => note(HubNote::Me(crate::text::sanitize_line(&me.agent))),
        Err(e) if refused(&e) => return link(HubLink::Refused(e.to_string())),
        Err(e) => tracing::warn!("asking the hub who this agent is failed: {e}"),
    }
    link(HubLink::Connecting);
    let Some(cursor) = snapshot(&hub, &mut index, &tx, &done).await else {
        return;
    };
    let mut stream = hub.events(Some(cursor));
    let mut live = false;
    loop {
        let item = match stream.next().await {
            Ok(item) => item,
            Err(e) => return link(HubLink::Refused(e.to_string())),
        };
        match item {
            HubItem::Connected => {
                live = true;
                link(HubLink::Live);
            }
            HubItem::Disconnected { error, retry_in } => {
                live = false;
                tracing::info!("the hub's event stream dropped: {error}");
                let retry_at = Utc::now() + chrono::Duration::from_std(retry_in).unwrap_or_default();
                link(HubLink::Down {
                    error: error.to_string(),
                    retry_at,
                });
            }
            HubItem::Event { event, .. } => {
                if let HubEvent::Resync { reason } = &event {
                    tracing::info!("the hub asks for a resync ({reason}): loading its snapshot again");
                    if let Some(cursor) = snapshot(&hub, &mut index, &tx, &done).await {
                        stream.skip_through(cursor);
                        if live {
                            // A failed try may have said "down" meanwhile.
                            link(HubLink::Live);
                        }
                    }
                    continue;
                }
                apply(&mut index, &event, &tx);
                if for_the_screen(&event) {
                    note(HubNote::Event(Box::new(event)));
                }
            }
        }
    }
}

/// A presence is renewed this often while it holds (the hub lets it go
/// 30 s after the last renewal).
pub const RENEW_SECS: i64 = 10;

/// How often this agent's presence is told again while it holds (the hub
/// lets one go 30 s after its last renewal).
pub(super) const RENEW: Duration = Duration::from_secs(RENEW_SECS as u64);

/// Tells the hub again the presence last told, when it is due.
pub(super) fn renew(presence: &mut Option<(String, Doing, tokio::time::Instant)>, hub: Option<&HubClient>) {
    let (Some((contact, doing, told)), Some(hub)) = (presence.as_mut(), hub) else {
        return;
    };
    let now = tokio::time::Instant::now();
    if now < *told + RENEW {
        return;
    }
    *told = now;
    tokio::task::spawn_local(self::presence(hub.clone(), contact.clone(), Some(*doing)));
}

/// Posts this agent's presence (`None`: idle) on `contact`.
pub(super) async fn presence(hub: HubClient, contact: String, doing: Option<Doing>) {
    let state = match doing {
        Some(Doing::Viewing) => PresenceState::Viewing,
        Some(Doing::Composing) => PresenceState::Composing,
        None => PresenceState::Idle,
    };
    if let Err(e) = hub.presence(&contact, state).await {
        tracing::warn!("telling the hub this agent's presence failed: {e}");
    }
}

fn refused(e: &ApiError) -> bool {
    matches!(e, ApiError::Rejected { status: 401, .. })
}

/// Events the screen takes beyond the index: presence, sends (who sent),
/// agent status and kinds a newer hub adds.
fn for_the_screen(event: &HubEvent) -> bool {
    !matches!(
        event,
        HubEvent::ContactChanged { .. }
            | HubEvent::ContactDeleted { .. }
            | HubEvent::ConversationOpened(_)
            | HubEvent::ConversationClosed(_)
            | HubEvent::MessageStatus { .. }
            | HubEvent::LastMessage { .. }
            | HubEvent::Resync { .. }
    )
}

/// The snapshot into the index, tried again (after a growing pause) until
/// it loads; its cursor, or `None` when the hub refuses the token.
async fn snapshot<M: Outbox>(
    hub: &HubClient,
    index: &mut SharedIndex,
    tx: &UnboundedSender<M>,
    done: &(impl Fn(Report) + Clone),
) -> Option<u64> {
    let mut pause = Duration::from_secs(1);
    loop {
        let mut journal = index.clone();
        let progress = done.clone();
        let result = hub
            .snapshot_into(index, &mut |n, expected| {
                progress(Report::Progress(Progress {
                    done: n,
                    expected: Some(expected),
                }));
                forward_changes(&mut journal, tx);
            })
            .await;
        forward_changes(index, tx);
        match result {
            Ok(report) => {
                tracing::info!(
                    seen = report.seen,
                    changed = report.changed,
                    removed = report.removed,
                    previews = report.previews,
                    "the hub's snapshot loaded"
                );
                // Its last messages: the Waiting view is whole at once.
                if report.previews > 0 {
                    send_all_previews(index, &|m| {
                        let _ = tx.send(M::from(m));
                    });
                }
                done(Report::Snapshot(Ok(report.header.complete)));
                return Some(report.header.cursor);
            }
            Err(SyncError::Api(e)) if refused(&e) => {
                done(Report::Link(HubLink::Refused(e.to_string())));
                return None;
            }
            Err(e) => {
                tracing::warn!("loading the hub's snapshot failed: {e}");
                let retry_at = Utc::now() + chrono::Duration::from_std(pause).unwrap_or_default();
                done(Report::Snapshot(Err(e.to_string())));
                done(Report::Link(HubLink::Down {
                    error: e.to_string(),
                    retry_at,
                }));
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(SNAPSHOT_RETRY_MAX);
            }
        }
    }
}

/// One event into the index; what changed goes to the screen, and a new
/// message becomes the contact's last message at once (no fetch of it).
fn apply<M: Outbox>(index: &mut SharedIndex, event: &HubEvent, tx: &UnboundedSender<M>) {
    // The CLI beside this TUI may have stored this very change in the
    // file already: then the event finds nothing to store, and only this
    // tells the screen.
    if let Err(e) = index.with(|ix| ix.note_outside_writes()) {
        tracing::debug!("looking for other processes' writes to the index failed: {e}");
    }
    let changed = match index.with(|ix| apply_to_index(ix, event)) {
        Ok(changed) => changed,
        Err(e) => {
            tracing::warn!("applying a hub event to the index failed: {e}");
            false
        }
    };
    // A last message the hub read itself: the Waiting view and the counts
    // take it as a snapshot's.
    if let HubEvent::LastMessage { contact, preview } = event
        && changed
    {
        let p = Preview::of(&preview.clone().page(), preview.activity());
        let _ = tx.send(M::from(IndexMsg::Previews(vec![(contact.clone(), p)])));
    }
    if let HubEvent::MessageCreated { contact, message, .. } = event
        && let Some(preview) = store_message(index, contact, message)
    {
        let _ = tx.send(M::from(IndexMsg::Previews(vec![(contact.clone(), preview)])));
    }
    forward_changes(index, tx);
}

/// Puts `message` on top of the contact's cached page; the new preview,
/// unless the index does not hold the contact or had the message.
fn store_message(index: &mut SharedIndex, contact: &str, message: &Message) -> Option<Preview> {
    index.with(|ix| {
        let activity = ix.get(contact).ok()??.last_activity();
        let held = ix.messages(contact).ok().flatten();
        let held_at = held.as_ref().and_then(|(at, _)| *at);
        let mut page = held.map(|(_, m)| m).unwrap_or_default();
        if message.uuid.is_some() && page.iter().any(|m| m.uuid == message.uuid) {
            // Held already (this agent's CLI stored its own send), but the
            // event moved the activity: the page is as of the new activity,
            // else its last message reads as stale and Waiting says `≥`.
            if held_at == activity {
                return None;
            }
        } else {
            page.insert(0, message.clone());
        }
        page.truncate(PAGE);
        if let Err(e) = ix.store_messages(contact, activity, &page) {
            tracing::warn!("storing a hub message in the index failed: {e}");
            return None;
        }
        Some(Preview::of(&page, activity))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Index;

    fn at(s: &str) -> chrono::DateTime<Utc> {
        chrono::DateTime::parse_from_rfc3339(s).unwrap().to_utc()
    }

    /// This agent's CLI stored its own send; the hub's event for it then
    /// moves the contact's activity a millisecond on. The page follows the
    /// activity, so its last message is not read as stale (a shift's TUIs
    /// kept Waiting `≥` for two such conversations).
    #[test]
    fn a_message_held_already_follows_the_activity_the_event_moved() {
        let mut index = SharedIndex::new(Index::in_memory().unwrap());
        let mut c: crate::api::Contact = serde_json::from_str(r#"{"uuid": "c1", "name": "Li"}"#).unwrap();
        c.activity_at = Some(at("2026-11-28T03:38:31.139Z"));
        let sent: Message = serde_json::from_str(
            r#"{"uuid": "m1", "text": "On it", "status": "sent", "createdAt": "2026-11-28T03:38:31.139Z"}"#,
        )
        .unwrap();
        index.with(|ix| {
            ix.upsert_contacts(std::slice::from_ref(&c), Utc::now()).unwrap();
            ix.store_messages("c1", c.activity_at, std::slice::from_ref(&sent))
                .unwrap();
        });
        // Same activity, same message: nothing to do.
        assert_eq!(store_message(&mut index, "c1", &sent), None);
        // The event's apply moved the activity on.
        c.activity_at = Some(at("2026-11-28T03:38:31.140Z"));
        index.with(|ix| ix.upsert_contacts(std::slice::from_ref(&c), Utc::now()).unwrap());
        let p = store_message(&mut index, "c1", &sent).expect("the page follows");
        assert_eq!(p.activity, c.activity_at);
        let held = index.with(|ix| ix.previews(&["c1"]).unwrap().remove("c1").unwrap());
        assert_eq!(held.activity, c.activity_at, "current as of the contact's activity");
        let page = index.with(|ix| ix.messages("c1").unwrap().unwrap().1);
        assert_eq!(page.len(), 1, "the message once");
    }
}
