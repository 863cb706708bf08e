//! An action on many contacts in flight: the jobs still to send, those in
//! flight, and each one's outcome. Requests go out a few at a time from
//! `update`, so the queue is plain data and every
//! rule of it is testable without a network.

use std::collections::{HashMap, VecDeque};

use crate::api::Contact;
use crate::triage::bulk::Action;
use crate::tui::shared::ReqId;

/// Requests of one run in flight at once: the CLI's bound.
pub const IN_FLIGHT: usize = crate::triage::bulk::CONCURRENCY;

/// What a run is for: the agent's action on marks (or one contact), or the
/// undo of an earlier action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Act,
    Undo,
}

/// What a write checks on the contact, as read just before it.
#[derive(Debug, Clone, PartialEq)]
// Always boxed where it is kept (a job, an effect).
#[allow(clippy::large_enum_variant)]
pub enum Guard {
    /// An undo's: it takes back `action`, which took the contact from
    /// `before` to `after`, only where the contact is still as it left it.
    Undo {
        action: Action,
        before: Contact,
        after: Contact,
    },
    /// A run on the marks of a whole view (`*`): a contact that no longer
    /// matches the view (a colleague answered it, took it) is skipped.
    Chosen(crate::triage::write::Chosen),
    /// An owner or state write (assign, unassign, close, reopen): when the
    /// service's copy differs from what this agent last saw (`seen`), it
    /// is not written and the agent is asked (`triage::owner`). `me` is
    /// this agent's email; through a team hub, its timeline says when the
    /// colleague acted.
    Owner {
        seen: crate::triage::owner::Seen,
        me: Option<String>,
        hub: Option<Hub>,
    },
}

/// The team hub a request goes to.
#[derive(Debug, Clone)]
pub struct Hub(pub crate::hubclient::HubClient);

impl PartialEq for Hub {
    fn eq(&self, other: &Hub) -> bool {
        self.0.root() == other.0.root()
    }
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
    /// An undo's: what it takes back, so only what is still as the action
    /// left it is written back.
    pub guard: Option<Box<Guard>>,
}

/// A macro's run: what the history and the summary call it. A contact
/// whose step fails (or is skipped) gets none of its later steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The macro's label.
    pub label: String,
    /// What follows on each contact every step went through on: a snooze
    /// (`snooze::parse_until`'s words), the root's to do.
    pub snooze: Option<String>,
    /// Its message (the root's to send, or to put in the composer), by
    /// contact: the text, variables filled. Only those every step went
    /// through on get theirs.
    pub message: Vec<(String, crate::snippets::Filled)>,
    /// True when the message is sent; false: it goes in the composer.
    pub send: bool,
    /// Contacts left out before the run, and why (a variable with no
    /// value): none of their steps ran.
    pub refused: Vec<(String, String)>,
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
    /// An undo's contacts with fields left as a colleague changed them
    /// since, in words (such a contact may be in `ok` too, for the fields
    /// it did take back).
    pub conflicts: Vec<(Job, Vec<String>)>,
    /// Not written: no longer in the view they were chosen in, with the
    /// contact as it is now.
    pub skipped: Vec<(Job, Contact)>,
    pub total: usize,
    /// Cancelled: nothing more is sent; what is in flight still lands.
    pub cancelled: bool,
    /// A macro's run.
    pub named: Option<Named>,
    /// Said after its counts: what it could not do (an undo's messages
    /// that stay sent).
    pub note: Option<String>,
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
            conflicts: Vec::new(),
            skipped: Vec::new(),
            cancelled: false,
            named: None,
            note: None,
        }
    }

    /// How many have an outcome.
    pub fn done(&self) -> usize {
        let kept = self
            .conflicts
            .iter()
            .filter(|(j, _)| !self.ok.iter().any(|(o, _)| o.uuid == j.uuid));
        self.ok.len() + self.failed.len() + self.skipped.len() + kept.count()
    }

    /// Nothing left to send and nothing in flight.
    pub fn finished(&self) -> bool {
        self.in_flight.is_empty() && (self.queue.is_empty() || self.cancelled)
    }

    /// The jobs never sent (after a cancel).
    pub fn not_sent(&self) -> usize {
        if self.cancelled { self.queue.len() } else { 0 }
    }

    /// The next job to send, while fewer than [`IN_FLIGHT`] are out. A
    /// contact has one request out at a time (a tags change that adds and
    /// removes is two jobs, each reading the tags the other wrote).
    pub fn next_job(&mut self) -> Option<Job> {
        if self.cancelled || self.in_flight.len() >= IN_FLIGHT {
            return None;
        }
        let busy = |j: &Job| self.in_flight.values().any(|f| f.uuid == j.uuid);
        let i = self.queue.iter().position(|j| !busy(j))?;
        self.queue.remove(i)
    }

    /// By contact (a tags change is two jobs each): how many went through
    /// whole, how many had a job fail, how many had one never sent, and how
    /// many contacts the run was for.
    pub fn contacts(&self) -> Counts {
        use std::collections::HashSet;
        let failed: HashSet<&str> = self.failed.iter().map(|(j, _)| j.uuid.as_str()).collect();
        let unsent: HashSet<&str> = if self.cancelled {
            self.queue
                .iter()
                .map(|j| j.uuid.as_str())
                .filter(|u| !failed.contains(u))
                .collect()
        } else {
            HashSet::new()
        };
        let kept: HashSet<&str> = self
            .conflicts
            .iter()
            .map(|(j, _)| j.uuid.as_str())
            .filter(|u| !failed.contains(u))
            .collect();
        let skipped: HashSet<&str> = self
            .skipped
            .iter()
            .map(|(j, _)| j.uuid.as_str())
            .filter(|u| !failed.contains(u))
            .collect();
        let ok: HashSet<&str> = self
            .ok
            .iter()
            .map(|(j, _)| j.uuid.as_str())
            .filter(|u| !failed.contains(u) && !unsent.contains(u))
            .collect();
        // Done, but every write on it changed nothing (a close of a closed
        // one, an untag of an absent tag): a no-op, as `history` says.
        let no_op: HashSet<&str> = ok
            .iter()
            .copied()
            .filter(|u| {
                self.ok
                    .iter()
                    .filter(|(j, _)| j.uuid == *u)
                    .all(|(j, after)| crate::triage::history::unchanged(&j.action, &j.before, after))
            })
            .collect();
        let all: HashSet<&str> = self
            .queue
            .iter()
            .chain(self.in_flight.values())
            .chain(self.ok.iter().map(|(j, _)| j))
            .chain(self.failed.iter().map(|(j, _)| j))
            .chain(self.conflicts.iter().map(|(j, _)| j))
            .chain(self.skipped.iter().map(|(j, _)| j))
            .map(|j| j.uuid.as_str())
            .collect();
        Counts {
            ok: ok.len() - no_op.len(),
            no_op: no_op.len(),
            failed: failed.len(),
            not_sent: unsent.len(),
            conflicts: kept.len(),
            skipped: skipped.len(),
            of: all.len(),
        }
    }

    /// Whether a job of `uuid` is out now (its row shows a spinner).
    pub fn sending(&self, uuid: &str) -> bool {
        self.in_flight.values().any(|j| j.uuid == uuid)
    }
}

/// A run's outcome by contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Done and changed something.
    pub ok: usize,
    /// Done, but already as the action leaves it.
    pub no_op: usize,
    pub failed: usize,
    pub not_sent: usize,
    /// An undo's contacts with a field left as a colleague changed it.
    pub conflicts: usize,
    /// Contacts not written: no longer in the view they were chosen in.
    pub skipped: usize,
    pub of: usize,
}

/// The forms of an action on marks: each ends in an [`Action`] for all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ManyForm {
    Assign,
    Team,
    /// Tags to add and tags to remove.
    Tags,
    /// Start or stop.
    Bot,
}

/// An action on many waiting for `y` (above [`CONFIRM_ABOVE`] contacts).
#[derive(Debug, Clone)]
pub struct Confirm {
    /// "Close 120 conversations?"
    pub question: String,
    pub doing: String,
    /// The actions, for `.` to repeat.
    pub actions: Vec<Action>,
    pub jobs: Vec<Job>,
    /// Marked contacts already as asked (a closed one for a close): they
    /// are unmarked when the run starts.
    pub already: Vec<String>,
    /// A macro's (by its index in the session): `y` runs it again, asked.
    pub rerun: Option<u16>,
    /// One contact's write instead of a run: `y` sends it.
    pub single: Option<Box<Single>>,
}

/// One contact's owner or state write put to the agent before it is sent
/// (a colleague changed the conversation since, or is replying to it).
#[derive(Debug, Clone, PartialEq)]
pub struct Single {
    pub uuid: String,
    pub action: Action,
    /// The contact as the agent now knows it (what `seen` is taken from).
    pub before: Contact,
    /// Whether the write still checks the service's copy against `before`
    /// (false once the agent answered that check: they know).
    pub checked: bool,
}

/// More contacts than this and an action on many asks first.
pub const CONFIRM_ABOVE: usize = 20;

/// The end of a run that did not all go well: what went through, what
/// failed and why, what was never sent. Scrolls when long.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub title: String,
    /// The counts, one line.
    pub counts: String,
    /// `name: why`, one per failed job (and, for an undo, per contact
    /// with fields left as a colleague changed them).
    pub failures: Vec<String>,
    /// What heads them: `Failed:`.
    pub heading: String,
    /// What to do next (`.` retries), if anything.
    pub hint: Option<String>,
    pub scroll: u16,
}

impl Summary {
    /// Failure lines that fit a screen `height` rows high (borders, the
    /// counts, "Failed:", the hint and the keys take the rest).
    pub fn room(&self, height: u16) -> usize {
        let fixed = 2 + 1 + u16::from(self.hint.is_some()) + 1 + u16::from(!self.failures.is_empty());
        height.saturating_sub(2).saturating_sub(fixed).max(1) as usize
    }

    /// The furthest the failures scroll on a screen `height` rows high.
    pub fn max_scroll(&self, height: u16) -> u16 {
        let over = self.failures.len().saturating_sub(self.room(height));
        u16::try_from(over).unwrap_or(u16::MAX)
    }
}
