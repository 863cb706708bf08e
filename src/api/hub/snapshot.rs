//! The hub's snapshot (`GET /hub/v1/snapshot`, NDJSON: a header line, then
//! one contact a line), streamed into the local index in batches, so a new
//! agent has complete views without walking the account.

use std::collections::HashSet;

use chrono::Utc;
use serde::Deserialize;

use super::HubClient;
use crate::api::{ApiError, Contact};
use crate::index::sync::SyncError;
use crate::index::{Index, IndexAccess, IndexError};

/// Contacts stored per transaction.
const BATCH: usize = 500;
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
    /// The index held another account (or hub) and started over.
    pub started_over: bool,
}

fn decode(what: &str, line: &[u8], reason: impl std::fmt::Display) -> SyncError {
    SyncError::Api(ApiError::Decode {
        endpoint: "GET /hub/v1/snapshot".into(),
        reason: format!("{what}: {reason}"),
        excerpt: crate::api::response::excerpt(line),
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
            },
            seen: 0,
            changed: 0,
            removed: 0,
            skipped: 0,
            started_over: false,
        };
        let mut seen = HashSet::new();
        let mut batch: Vec<Contact> = Vec::with_capacity(BATCH);
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
                    header = Some(h);
                    continue;
                };
                match serde_json::from_slice::<Contact>(&text) {
                    Ok(c) if !c.uuid.is_empty() => {
                        seen.insert(c.uuid.clone());
                        batch.push(c);
                        report.seen += 1;
                    }
                    Ok(_) | Err(_) => report.skipped += 1,
                }
                if batch.len() >= BATCH {
                    report.changed += index.with(|ix| ix.upsert_contacts(&batch, started))? as u64;
                    batch.clear();
                    progress(report.seen, h.contacts);
                }
            }
        }
        let Some(h) = header else {
            return Err(decode("the snapshot is empty", &[], "no header line"));
        };
        if !batch.is_empty() {
            report.changed += index.with(|ix| ix.upsert_contacts(&batch, started))? as u64;
        }
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
