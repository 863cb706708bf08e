//! Reports over the local index (issue 24): conversations opened and
//! closed per day, first response and resolution times, and what is
//! waiting now, per agent, team or tag. Pure functions over
//! [`ReportRow`]s (see `Index::report_rows`); no API request. Every figure
//! is defined in docs/reports.md, with what the index cannot know.

mod stats;

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::index::{ReportRow, Who};
pub use stats::{BUCKET_LABELS, Timing, Waiting, bucket, human, percentile};

/// A cached page holding this many messages may not reach back to the
/// conversation's first one (the reference serves 20 a page): its first
/// response is not known.
pub const FULL_PAGE: usize = 20;

/// The group every report starts with: all conversations.
pub const ALL: &str = "all";

/// The period a report covers: from `from` up to (not including) `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Period {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
}

impl Period {
    /// The `span` before `now`.
    pub fn since(now: DateTime<Utc>, span: Duration) -> Period {
        Period {
            from: now - span,
            to: now,
        }
    }

    /// Whole UTC days, `first` to `last` inclusive; `None` when `last` is
    /// before `first`.
    pub fn days(first: NaiveDate, last: NaiveDate) -> Option<Period> {
        if last < first {
            return None;
        }
        let from = first.and_hms_opt(0, 0, 0)?.and_utc();
        let to = last.succ_opt()?.and_hms_opt(0, 0, 0)?.and_utc();
        Some(Period { from, to })
    }

    fn contains(&self, t: DateTime<Utc>) -> bool {
        self.from <= t && t < self.to
    }

    /// The UTC calendar days the period touches.
    pub fn dates(&self) -> Vec<NaiveDate> {
        let first = self.from.date_naive();
        let last = (self.to - Duration::microseconds(1)).date_naive().max(first);
        first.iter_days().take_while(|d| *d <= last).collect()
    }
}

/// How conversations are grouped besides [`ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum GroupBy {
    /// The assigned agent's email; `(unassigned)`.
    Agent,
    /// The team's name; `(no team)`.
    Team,
    /// Each of the conversation's tags; `(untagged)`.
    Tag,
}

impl GroupBy {
    fn groups(self, row: &ReportRow) -> Vec<String> {
        match self {
            GroupBy::Agent => vec![row.assignee.clone().unwrap_or_else(|| "(unassigned)".into())],
            GroupBy::Team => vec![row.team.clone().unwrap_or_else(|| "(no team)".into())],
            GroupBy::Tag if row.tags.is_empty() => vec!["(untagged)".into()],
            GroupBy::Tag => {
                let mut tags = row.tags.clone();
                tags.sort();
                tags.dedup();
                tags
            }
        }
    }
}

/// Conversations opened and closed on one UTC day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Day {
    pub day: NaiveDate,
    pub opened: u64,
    pub closed: u64,
    /// First responses to customer messages first asked this day.
    pub first_response: Timing,
}

/// The figures of one group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub group: String,
    pub opened: u64,
    pub closed: u64,
    pub days: Vec<Day>,
    pub first_response: Timing,
    pub resolution: Timing,
    pub waiting: Waiting,
}

/// What the index could not tell, for the footnote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unknown {
    /// Conversations active in the period whose first response the index
    /// cannot tell: no cached page, or a full one (older messages missing).
    pub first_response: u64,
    /// Open conversations whose last message the index does not hold (or
    /// holds from before their latest activity).
    pub waiting: u64,
}

/// A whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub period: Period,
    /// When "waiting now" was measured.
    pub now: DateTime<Utc>,
    pub by: Option<GroupBy>,
    /// Contacts the index holds.
    pub contacts: u64,
    /// [`ALL`] first, then the groups by name (the `(…)` ones last).
    pub groups: Vec<Group>,
    pub unknown: Unknown,
}

#[derive(Default)]
struct Acc {
    opened: Vec<u64>,
    closed: Vec<u64>,
    first_response: Vec<i64>,
    /// The same durations by the day the customer asked.
    first_response_days: Vec<Vec<i64>>,
    resolution: Vec<i64>,
    waiting: Waiting,
}

/// What one conversation adds to its groups.
#[derive(Default)]
struct Facts {
    opened_day: Option<usize>,
    closed_day: Option<usize>,
    first_response: Option<i64>,
    first_response_day: Option<usize>,
    resolution: Option<i64>,
    waiting: Option<Duration>,
}

/// What a conversation's cached page tells of its first response.
enum FirstResponse {
    /// The page may not reach back to the first message (or there is none).
    Unknown,
    /// No customer message, or none answered yet.
    None,
    /// The first customer message, and the first answer by a person after it.
    Answered(DateTime<Utc>, DateTime<Utc>),
}

fn first_response(row: &ReportRow) -> FirstResponse {
    let Some(page) = row.page.as_ref().filter(|p| p.len < FULL_PAGE) else {
        return FirstResponse::Unknown;
    };
    let Some(start) = page.messages.iter().position(|m| m.who == Who::Customer) else {
        return FirstResponse::None;
    };
    let asked = page.messages[start].at;
    // Only a person's answer: a bot's or an automation's is not one (the
    // waiting rule tells them apart).
    match page.messages[start..]
        .iter()
        .find(|m| m.who == Who::Agent && !m.automatic)
    {
        Some(m) => FirstResponse::Answered(asked, m.at),
        None => FirstResponse::None,
    }
}

fn facts(row: &ReportRow, period: &Period, now: DateTime<Utc>, unknown: &mut Unknown) -> Facts {
    let day_of = |t: DateTime<Utc>| usize::try_from((t.date_naive() - period.from.date_naive()).num_days()).ok();
    let mut f = Facts::default();
    if let Some(c) = row.created_at.filter(|t| period.contains(*t)) {
        f.opened_day = day_of(c);
    }
    if let Some(closed) = row.closed_at.filter(|t| period.contains(*t)) {
        f.closed_day = day_of(closed);
        f.resolution = row.created_at.map(|c| (closed - c).num_seconds().max(0));
    }
    if row.activity.is_some_and(|a| a >= period.from) {
        match first_response(row) {
            FirstResponse::Answered(asked, answered) if period.contains(asked) => {
                f.first_response = Some((answered - asked).num_seconds().max(0));
                f.first_response_day = day_of(asked);
            }
            FirstResponse::Answered(..) | FirstResponse::None => {}
            FirstResponse::Unknown => unknown.first_response += 1,
        }
    }
    if row.closed_at.is_none() {
        let current = row
            .page
            .as_ref()
            .filter(|p| p.activity.is_none() || p.activity == row.activity);
        match current {
            None => unknown.waiting += 1,
            Some(p) => {
                // The one waiting rule; a wait with no date counts from the
                // last message.
                let (who, at) = (p.last.map(|l| l.who), p.last.map(|l| l.at));
                if let Some(w) = crate::index::waiting(p.wait, who, at) {
                    f.waiting = w.since.or(at).map(|since| now - since);
                }
            }
        }
    }
    f
}

impl Acc {
    fn new(days: usize) -> Acc {
        Acc {
            opened: vec![0; days],
            closed: vec![0; days],
            first_response_days: vec![Vec::new(); days],
            ..Acc::default()
        }
    }

    fn add(&mut self, f: &Facts) {
        if let Some(n) = f.opened_day.and_then(|d| self.opened.get_mut(d)) {
            *n += 1;
        }
        if let Some(n) = f.closed_day.and_then(|d| self.closed.get_mut(d)) {
            *n += 1;
        }
        self.first_response.extend(f.first_response);
        if let (Some(secs), Some(day)) = (f.first_response, f.first_response_day)
            && let Some(v) = self.first_response_days.get_mut(day)
        {
            v.push(secs);
        }
        self.resolution.extend(f.resolution);
        if let Some(age) = f.waiting {
            self.waiting.add(age);
        }
    }

    fn finish(mut self, group: String, dates: &[NaiveDate]) -> Group {
        let firsts = std::mem::take(&mut self.first_response_days);
        let days: Vec<Day> = dates
            .iter()
            .zip(self.opened.iter().zip(&self.closed))
            .zip(firsts)
            .map(|((day, (o, c)), first)| Day {
                day: *day,
                opened: *o,
                closed: *c,
                first_response: Timing::of(first),
            })
            .collect();
        Group {
            group,
            opened: self.opened.iter().sum(),
            closed: self.closed.iter().sum(),
            days,
            first_response: Timing::of(self.first_response),
            resolution: Timing::of(self.resolution),
            waiting: self.waiting,
        }
    }
}

/// The report of `rows` over `period`, "waiting now" as of `now`.
pub fn compute(rows: &[ReportRow], period: Period, now: DateTime<Utc>, by: Option<GroupBy>) -> Report {
    let dates = period.dates();
    let mut unknown = Unknown::default();
    let mut all = Acc::new(dates.len());
    let mut groups: BTreeMap<String, Acc> = BTreeMap::new();
    for row in rows {
        let f = facts(row, &period, now, &mut unknown);
        all.add(&f);
        if let Some(by) = by {
            for g in by.groups(row) {
                groups.entry(g).or_insert_with(|| Acc::new(dates.len())).add(&f);
            }
        }
    }
    let mut out = vec![all.finish(ALL.into(), &dates)];
    let (named, none): (Vec<_>, Vec<_>) = groups.into_iter().partition(|(g, _)| !g.starts_with('('));
    out.extend(named.into_iter().chain(none).map(|(g, acc)| acc.finish(g, &dates)));
    Report {
        period,
        now,
        by,
        contacts: rows.len() as u64,
        groups: out,
        unknown,
    }
}

#[cfg(test)]
mod tests;
