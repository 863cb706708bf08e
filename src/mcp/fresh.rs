//! How fresh and how complete the index is, as the background worker
//! (the TUI's own, `fill`) reports it, and what each result
//! says of it: `asOf`, `complete`, and what is `missing`.
//!
//! `frontdesk mcp` answers `initialize` at once: the index fills in the
//! background exactly as the TUI fills it (a full walk first, then last
//! messages, open conversations newest first), through the hub's snapshot
//! and stream when a hub is configured, and is kept fresh by an
//! incremental pass every [`REFRESH`].

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use crate::fill::IndexCmd;
use crate::fill::msg::{HubLink, IndexMsg, SyncStatus};

/// How often an incremental pass keeps the index fresh (none runs while
/// the hub's stream is live: the worker says).
pub const REFRESH: Duration = Duration::from_secs(20);

/// What the worker last said.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    pub status: SyncStatus,
    /// A failure that trying again will not cure (a refused key).
    pub problem: Option<String>,
    /// The first request found the service unreachable (cleared once a
    /// pass succeeds).
    pub unreachable: Option<String>,
}

/// The worker's reports, kept for the tools; and its command line.
#[derive(Clone)]
pub struct Fresh {
    seen: Arc<Mutex<Seen>>,
    cmds: Option<UnboundedSender<IndexCmd>>,
    /// The service, for messages naming it.
    pub service: String,
}

impl Fresh {
    /// Fresh with nothing heard yet and no worker (tests, an in-memory run).
    pub fn new(service: &str) -> Fresh {
        Fresh {
            seen: Arc::new(Mutex::new(Seen::default())),
            cmds: None,
            service: service.to_string(),
        }
    }

    /// Follows the worker's messages on `rx` and asks it for an
    /// incremental pass every [`REFRESH`], until `rx` ends.
    pub fn follow(mut self, mut rx: UnboundedReceiver<IndexMsg>, cmds: UnboundedSender<IndexCmd>) -> Fresh {
        self.cmds = Some(cmds.clone());
        let seen = self.seen.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(REFRESH);
            tick.tick().await;
            loop {
                tokio::select! {
                    m = rx.recv() => match m {
                        Some(m) => note(&seen, m),
                        None => break,
                    },
                    _ = tick.tick() => {
                        if cmds.send(IndexCmd::Incremental).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        self
    }

    /// One request to the service at once (no retries), so a refused key
    /// or a dead service is known in seconds, not after the walk's retries.
    pub fn probe(&self, client: crate::api::Client) {
        let seen = self.seen.clone();
        tokio::spawn(async move {
            let first = client
                .list_contacts(&crate::api::ContactFilter::default(), &crate::api::PageRequest::First)
                .await;
            let Ok(mut s) = seen.lock() else { return };
            match first {
                Ok(_) => {}
                Err(e @ crate::api::ApiError::Unauthorized) => {
                    s.problem = Some(e.to_string());
                }
                Err(e @ (crate::api::ApiError::Transport(_) | crate::api::ApiError::Timeout(_))) => {
                    s.unreachable = Some(e.to_string());
                }
                Err(_) => {}
            }
        });
    }

    /// Replaces what is known of the index (a team hub's `/mcp` says how
    /// its own index stands before each call: `crate::hub::mcp`).
    pub fn set(&self, seen: Seen) {
        if let Ok(mut s) = self.seen.lock() {
            *s = seen;
        }
    }

    pub fn seen(&self) -> Seen {
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Asks the worker to fetch these last messages first (a tool needed
    /// them), as the TUI asks for the rows on screen.
    pub fn want(&self, wanted: Vec<crate::index::Wanted>) {
        if let Some(c) = &self.cmds
            && !wanted.is_empty()
        {
            let _ = c.send(IndexCmd::Previews(wanted));
        }
    }

    /// Asks for an incremental pass now (after a write).
    pub fn nudge(&self) {
        if let Some(c) = &self.cmds {
            let _ = c.send(IndexCmd::Incremental);
        }
    }

    /// Stores a contact as a write returned it.
    pub fn store(&self, c: &crate::api::Contact) {
        if let Some(cmds) = &self.cmds {
            let _ = cmds.send(IndexCmd::Store(Box::new(c.clone())));
        }
    }
}

fn note(seen: &Mutex<Seen>, m: IndexMsg) {
    let Ok(mut s) = seen.lock() else { return };
    match m {
        IndexMsg::Status(status) => {
            if status.synced_at.is_some() && !status.offline && status.walking.is_none() {
                s.problem = None;
                s.unreachable = None;
            }
            s.status = status;
        }
        IndexMsg::Problem(p) => s.problem = Some(p),
        _ => {}
    }
}

/// Why the index cannot answer at all yet, as a tool error naming the
/// fix: nothing in it and the service refused or cannot be reached.
pub fn cannot_answer(seen: &Seen, service: &str, empty: bool) -> Option<String> {
    if !empty || seen.status.complete {
        return None;
    }
    if let Some(p) = &seen.problem {
        return Some(format!(
            "{}. The local index is empty, so nothing can be answered yet; once fixed, \
             restart `frontdesk mcp` (or check with `frontdesk doctor`).",
            crate::text::sanitize_line(p)
        ));
    }
    if let Some(HubLink::Refused(e)) = &seen.status.hub {
        return Some(format!(
            "the team hub refused this machine's token ({}): check `hub_token` in the config; \
             the local index is empty",
            crate::text::sanitize_line(e)
        ));
    }
    if let Some(e) = &seen.unreachable {
        return Some(format!(
            "the service at {service} cannot be reached ({}) and the local index is empty: check the network \
             and `base_url` (`frontdesk doctor`); the index fills as soon as it answers",
            crate::text::sanitize_line(e)
        ));
    }
    if seen.status.offline {
        return Some(format!(
            "the service at {service} cannot be reached and the local index is empty: check the network \
             and `base_url` (`frontdesk doctor`); the index fills as soon as it answers"
        ));
    }
    None
}

/// What a result says of the index: `asOf` (when it last matched the
/// service), `complete`, and what is missing (each a sentence).
pub fn meta(seen: &Seen, mut missing: Vec<String>) -> Value {
    let st = &seen.status;
    if !st.complete {
        missing.insert(
            0,
            match st.walking {
                Some((done, Some(of))) => {
                    format!("contacts: the first walk of the account is under way ({done} of about {of} read)")
                }
                Some((done, None)) => format!("contacts: the first walk of the account is under way ({done} read)"),
                None => "contacts: the first walk of the account has not finished".into(),
            },
        );
    }
    if let Some((done, of)) = st.indexing {
        missing.push(format!("search: {done} of {of} contacts' search rows written"));
    }
    if let Some(e) = &seen.unreachable {
        missing.push(format!(
            "the service cannot be reached ({}): the index shows it as of asOf",
            crate::text::sanitize_line(e)
        ));
    } else if st.offline {
        missing.push("the service cannot be reached: the index shows it as of asOf".into());
    }
    if let Some(p) = &seen.problem {
        missing.push(crate::text::sanitize_line(p));
    }
    json!({
        "asOf": st.synced_at.map(|t: DateTime<Utc>| t.to_rfc3339()),
        "complete": missing.is_empty(),
        "missing": missing,
    })
}

#[cfg(test)]
mod tests;
