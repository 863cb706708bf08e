//! An action on many contacts in flight: the jobs still to send, those in
//! flight, and each one's outcome. Requests go out a few at a time from
//! `update` (see `update/bulk.rs`), so the queue is plain data and every
//! rule of it is testable without a network.

use std::collections::{HashMap, VecDeque};

use crate::api::Contact;
use crate::triage::bulk::Action;
use crate::tui::msg::ReqId;

/// Requests of one run in flight at once: the CLI's bound.
pub const IN_FLIGHT: usize = crate::triage::bulk::CONCURRENCY;

/// What a run is for: the agent's action on marks (or one contact), or the
/// undo of an earlier action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Act,
    Undo,
}

/// One contact's part of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub uuid: String,
    /// For the summary (the row's label when the run began).
    pub name: String,
    pub action: Action,
    /// The contact as it was before (what an undo restores).
    pub before: Contact,
    /// Whether its bot was running before, when known.
    pub bot_before: Option<bool>,
}

/// A run of jobs.
#[derive(Debug, Clone)]
pub struct Run {
    /// Names the run in messages (`ReqId`s of its requests differ).
    pub id: ReqId,
    pub purpose: Purpose,
    /// For progress: `closing`, `undoing`…
    pub doing: String,
    pub queue: VecDeque<Job>,
    pub in_flight: HashMap<ReqId, Job>,
    /// Done, with the contact as the API returned it.
    pub ok: Vec<(Job, Contact)>,
    /// Failed, with why (one line).
    pub failed: Vec<(Job, String)>,
    pub total: usize,
    /// Cancelled: nothing more is sent; what is in flight still lands.
    pub cancelled: bool,
}

impl Run {
    pub fn new(id: ReqId, purpose: Purpose, doing: impl Into<String>, jobs: Vec<Job>) -> Run {
        Run {
            id,
            purpose,
            doing: doing.into(),
            total: jobs.len(),
            queue: jobs.into(),
            in_flight: HashMap::new(),
            ok: Vec::new(),
            failed: Vec::new(),
            cancelled: false,
        }
    }

    /// How many have an outcome.
    pub fn done(&self) -> usize {
        self.ok.len() + self.failed.len()
    }

    /// Nothing left to send and nothing in flight.
    pub fn finished(&self) -> bool {
        self.in_flight.is_empty() && (self.queue.is_empty() || self.cancelled)
    }

    /// The jobs never sent (after a cancel).
    pub fn not_sent(&self) -> usize {
        if self.cancelled { self.queue.len() } else { 0 }
    }

    /// The next job to send, while fewer than [`IN_FLIGHT`] are out.
    pub fn next_job(&mut self) -> Option<Job> {
        if self.cancelled || self.in_flight.len() >= IN_FLIGHT {
            return None;
        }
        self.queue.pop_front()
    }
}
