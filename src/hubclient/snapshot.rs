//! The hub's snapshot (`GET /hub/v1/snapshot`, NDJSON: a header line, then
//! one contact a line), streamed into the local index in batches, so a new
//! agent has complete views without walking the account.
//!
//! A contact line may carry, under `hubPreview`, the last message of the
//! conversation as of the contact's activity (`{"status", "text",
//! "createdAt", "activity"}`): it goes into the index's preview storage,
//! so "who wrote last" (the Waiting view) is known at once. A line without
//! it reads as before, and a preview that does not match the contact's
//! activity, or does not read, is left out. With it may come the
//! conversation's waiting facts (`lastCustomerAt`, `lastReplyAt`: the
//! newest received and sent messages the hub holds): they go into the
//! stored page as messages without text, so the waiting rule reads when
//! the customer last wrote and the team last replied, not only who wrote
//! last.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde::Deserialize;

use super::client::HubClient;
use super::preview::LinePreview;
use crate::api::{ApiError, Contact};
use crate::index::sync::SyncError;
use crate::index::{Index, IndexAccess, IndexError, Thread};

/// Contacts stored per transaction.
const BATCH: usize = 500;
/// Contacts stored per transaction into an empty index: fewer, bigger
/// commits rewrite the same index pages less often (100,000 contacts went
/// in 6.9 s at 500 a commit, 3.2 s at 5,000), and no screen shows rows yet.
const BULK_BATCH: usize = 5_000;
/// The longest line read (one contact).
const MAX_LINE_BYTES: usize = 1024 * 1024;

/// The snapshot's first line.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SnapshotHeader {
    /// The last event id when the snapshot was taken: open the event
    /// stream after it.
    pub cursor: u64,
    /// How many contact lines follow.
    pub contacts: u64,
    /// The account's fingerprint, as the hub gives it.
    pub account: String,
    /// The hub had walked the whole account when it took the snapshot
    /// (false: counts made of it are lower bounds until a `resync`). A
    /// hub that does not say is taken as complete.
    #[serde(default = "complete_unless_told")]
    pub complete: bool,
}

fn complete_unless_told() -> bool {
    true
}

/// What a snapshot did to the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotReport {
    pub header: SnapshotHeader,
    /// Contact lines read.
    pub seen: u64,
    /// Stored new or changed.
    pub changed: u64,
    /// Removed from the index: the hub no longer has them.
    pub removed: u64,
    /// Lines that could not be read as a contact (skipped).
    pub skipped: u64,
    /// Conversations' last messages stored from the lines.
    pub previews: u64,
    /// The index held another account (or hub) and started over.
    pub started_over: bool,
    /// The index was empty: the contacts went in without their search
    /// rows, for the caller to build ([`Index::build_search`]) once the
    /// views are up.
    pub search_pending: bool,
}

fn decode(what: &str, line: &[u8], reason: impl std::fmt::Display) -> SyncError {
    SyncError::Api(ApiError::Decode {
        endpoint: "GET /hub/v1/snapshot".into(),
        reason: format!("{what}: {reason}"),
        excerpt: crate::api::excerpt(line),
    })
}

impl HubClient {
    /// Reads the whole snapshot into `index`: every contact upserted, the
    /// ones the hub no longer has removed (only when the snapshot arrived
    /// whole and every line was read), the walk marked finished.
    /// `progress(done, expected)` follows along.
    pub async fn snapshot_into(
        &self,
        index: &mut impl IndexAccess,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<SnapshotReport, SyncError> {
        let started = Utc::now();
        let mut resp = self
            .open(&["snapshot"], &[("accept", "application/x-ndjson".into())])
            .await?;
        let mut header: Option<SnapshotHeader> = None;
        let mut report = SnapshotReport {
            header: SnapshotHeader {
                cursor: 0,
                contacts: 0,
                account: String::new(),
                complete: true,
            },
            seen: 0,
            changed: 0,
            removed: 0,
            skipped: 0,
            previews: 0,
            started_over: false,
            search_pending: false,
        };
        let mut seen = HashSet::new();
        let mut batch: Vec<Contact> = Vec::with_capacity(BATCH);
        let mut threads: Vec<Thread> = Vec::new();
        let mut line: Vec<u8> = Vec::new();
        let mut ended = false;
        while !ended {
            let chunk = self.chunk(&mut resp, self.timeout).await?;
            let bytes: &[u8] = match &chunk {
                Some(c) => c,
                None => {
                    ended = true;
                    b"\n"
                }
            };
            for piece in bytes.split_inclusive(|b| *b == b'\n') {
                let complete = piece.ends_with(b"\n");
                let piece = piece.strip_suffix(b"\n").unwrap_or(piece);
                if line.len() + piece.len() > MAX_LINE_BYTES {
                    return Err(decode("a line is too long", &line, MAX_LINE_BYTES));
                }
                line.extend_from_slice(piece);
                if !complete {
                    continue;
                }
                let text = std::mem::take(&mut line);
                if text.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let Some(h) = &header else {
                    let h: SnapshotHeader =
                        serde_json::from_slice(&text).map_err(|e| decode("the first line is no header", &text, e))?;
                    report.started_over = index.with(|ix| adopt_account(ix, &h.account))?;
                    // A new agent: the views first, search rows after.
                    report.search_pending = index.with(|ix| ix.is_empty())?;
                    header = Some(h);
                    continue;
                };
                match serde_json::from_slice::<Contact>(&text) {
                    Ok(c) if !c.uuid.is_empty() => {
                        if let Some(t) = preview_of(&c, &text) {
                            threads.push(t);
                        }
                        seen.insert(c.uuid.clone());
                        batch.push(c);
                        report.seen += 1;
                    }
                    Ok(_) | Err(_) => report.skipped += 1,
                }
                let limit = if report.search_pending { BULK_BATCH } else { BATCH };
                if batch.len() >= limit {
                    let bulk = report.search_pending;
                    let (changed, previews) = index.with(|ix| store_batch(ix, &batch, &mut threads, started, bulk))?;
                    report.changed += changed;
                    report.previews += previews;
                    batch.clear();
                    progress(report.seen, h.contacts);
                }
            }
        }
        let Some(h) = header else {
            return Err(decode("the snapshot is empty", &[], "no header line"));
        };
        let bulk = report.search_pending;
        let (changed, previews) = index.with(|ix| store_batch(ix, &batch, &mut threads, started, bulk))?;
        report.changed += changed;
        report.previews += previews;
        progress(report.seen, h.contacts);
        if report.seen + report.skipped < h.contacts {
            return Err(SyncError::Api(ApiError::Transport(format!(
                "the hub's snapshot ended after {} of {} contacts",
                report.seen + report.skipped,
                h.contacts
            ))));
        }
        if report.skipped == 0 {
            report.removed = index.with(|ix| ix.remove_missing(started, &seen))? as u64;
        }
        index.with(|ix| ix.finish_walk(Utc::now()))?;
        report.header = h;
        Ok(report)
    }
}

#[derive(Debug, Deserialize)]
struct WithPreview {
    #[serde(default, rename = "hubPreview")]
    preview: Option<LinePreview>,
}

/// The conversation's last message a line carries, as a one-message page
/// (an empty one for a conversation without messages), when it is as of
/// the contact's activity.
fn preview_of(c: &Contact, line: &[u8]) -> Option<Thread> {
    const KEY: &[u8] = b"\"hubPreview\"";
    if !line.windows(KEY.len()).any(|w| w == KEY) {
        return None;
    }
    let p = serde_json::from_slice::<WithPreview>(line).ok()?.preview?;
    let activity = c.last_activity();
    if p.activity != activity {
        return None;
    }
    Some((c.uuid.clone(), activity, p.page()))
}

/// Stores a batch of lines in one transaction: the contacts, and the
/// previews they carried, except where the index holds the
/// conversation's last page at that activity already (a whole page,
/// searchable, is worth more than its last message). Returns how many
/// contacts were new or changed and how many previews were stored.
/// `bulk`: into an index that was empty, without search rows.
fn store_batch(
    index: &mut Index,
    contacts: &[Contact],
    threads: &mut Vec<Thread>,
    seen_at: DateTime<Utc>,
    bulk: bool,
) -> Result<(u64, u64), IndexError> {
    if bulk {
        let changed = index.load_batch(contacts, threads, seen_at)? as u64;
        let n = threads.len() as u64;
        threads.clear();
        return Ok((changed, n));
    }
    if !threads.is_empty() {
        let held = {
            let uuids: Vec<&str> = threads.iter().map(|t| t.0.as_str()).collect();
            index.previews(&uuids)?
        };
        threads.retain(|(uuid, activity, _)| held.get(uuid).is_none_or(|p| p.activity != *activity));
    }
    let changed = if contacts.is_empty() && threads.is_empty() {
        0
    } else {
        index.upsert_with_threads(contacts, threads, seen_at)? as u64
    };
    let n = threads.len() as u64;
    threads.clear();
    Ok((changed, n))
}

/// Keeps the hub's account fingerprint; another account's index starts
/// over. True when it did.
fn adopt_account(index: &mut Index, account: &str) -> Result<bool, IndexError> {
    match index.account()? {
        Some(held) if held == account => Ok(false),
        Some(_) => {
            index.start_over(account)?;
            Ok(true)
        }
        None => {
            index.set_account(account)?;
            Ok(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(extra: &str) -> (Contact, Vec<u8>) {
        let text = format!(r#"{{"uuid":"u1","name":"Ana","activityAt":"2026-11-20T10:00:00Z"{extra}}}"#);
        let c: Contact = serde_json::from_str(&text).expect("a contact line reads");
        (c, text.into_bytes())
    }

    #[test]
    fn a_line_without_a_preview_reads_as_before() {
        let (c, l) = line("");
        assert_eq!(c.name, "Ana");
        assert!(preview_of(&c, &l).is_none());
    }

    #[test]
    fn a_current_preview_becomes_the_last_message() {
        let (c, l) = line(
            r#","hubPreview":{"status":"received","text":"where is it?","createdAt":"2026-11-20T10:00:00Z","activity":"2026-11-20T10:00:00Z"}"#,
        );
        let (uuid, activity, messages) = preview_of(&c, &l).expect("a preview");
        assert_eq!(uuid, "u1");
        assert_eq!(activity, c.last_activity());
        let p = crate::index::Preview::of(&messages, activity);
        assert!(p.waiting(), "{p:?}");
        assert_eq!(p.text, "where is it?");
        // A conversation without messages: an empty page.
        let (c, l) = line(r#","hubPreview":{"text":"","activity":"2026-11-20T10:00:00Z"}"#);
        assert_eq!(preview_of(&c, &l).expect("a preview").2, Vec::new());
    }

    #[test]
    fn the_waiting_facts_come_as_the_pages_older_messages() {
        // A note last; the customer wrote at 9, the team replied at 8.
        let (c, l) = line(
            r#","hubPreview":{"status":"note","text":"called","createdAt":"2026-11-20T10:00:00Z","activity":"2026-11-20T10:00:00Z","lastCustomerAt":"2026-11-20T09:00:00Z","lastReplyAt":"2026-11-20T08:00:00Z"}"#,
        );
        let (_, _, messages) = preview_of(&c, &l).expect("a preview");
        let got: Vec<(String, Option<String>)> = messages
            .iter()
            .map(|m| (m.status.to_string(), m.created_at.map(|t| t.to_rfc3339())))
            .collect();
        let at = |h: u32| Some(format!("2026-11-20T{h:02}:00:00+00:00"));
        assert_eq!(
            got,
            vec![
                ("note".to_string(), at(10)),
                ("received".to_string(), at(9)),
                ("sent".to_string(), at(8))
            ]
        );
        assert_eq!(messages[0].text, "called", "the last message keeps its text");
        // The last message is the customer's: not twice.
        let (c, l) = line(
            r#","hubPreview":{"status":"received","text":"hi","createdAt":"2026-11-20T10:00:00Z","activity":"2026-11-20T10:00:00Z","lastCustomerAt":"2026-11-20T10:00:00Z"}"#,
        );
        assert_eq!(preview_of(&c, &l).expect("a preview").2.len(), 1);
    }

    /// Run 8: `frontdesk mcp`, starting from the snapshot at the end of a
    /// shift, counted 4 more waiting than the service, each an agent's
    /// reply 2 to 4 s after the customer, which the three facts alone made
    /// a bot's. The hub names the reply's agent; and the clock runs from
    /// the customer's first unanswered message, not their latest.
    #[test]
    fn a_snapshot_line_waits_as_the_hubs_whole_page_does() {
        use crate::index::Wait;
        let wait = |extra: &str| {
            let (c, l) = line(&format!(
                r#","hubPreview":{{"status":"sent","text":"On it","createdAt":"2026-11-20T10:00:00Z","activity":"2026-11-20T10:00:00Z","lastCustomerAt":"2026-11-20T09:59:57Z","lastReplyAt":"2026-11-20T10:00:00Z"{extra}}}"#
            ));
            Wait::of(&preview_of(&c, &l).expect("a preview").2)
        };
        assert!(matches!(wait(""), Wait::Since { .. }), "unnamed: a bot's quick answer");
        assert_eq!(wait(r#","lastReplyBy":"alex""#), Wait::Answered);
        // Waiting behind a bot since 9, wrote again at 10.
        let at = |s: &str| {
            chrono::DateTime::parse_from_rfc3339(s)
                .ok()
                .map(|t| t.with_timezone(&Utc))
        };
        match wait(r#","waitingSince":"2026-11-20T09:00:00Z""#) {
            Wait::Since { since, .. } => assert_eq!(since, at("2026-11-20T09:00:00Z")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_stale_or_broken_preview_is_left_out_and_the_contact_still_reads() {
        for extra in [
            r#","hubPreview":{"status":"received","text":"old","activity":"2026-11-19T10:00:00Z"}"#,
            r#","hubPreview":"nonsense""#,
            r#","hubPreview":{"status":7,"activity":[]}"#,
        ] {
            let (c, l) = line(extra);
            assert_eq!(c.uuid, "u1");
            assert!(preview_of(&c, &l).is_none(), "{extra}");
        }
    }
}
