//! Counting many views in one pass, and a view's rows in its order.

use chrono::{DateTime, Utc};

use super::facts::{Facts, Subject};
use super::view::{Sort, State, View, ViewFilter};

impl ViewFilter {
    /// Whether the view asks for an open or a closed conversation: one of
    /// unknown state may belong to it (its count is then a lower bound).
    pub fn depends_on_state(&self) -> bool {
        !matches!(self.state, State::Any)
    }

    /// A contact of unknown state that may belong: the view asks for a
    /// state, and every other rule but `waiting` holds (its count is then a
    /// lower bound, `≥`).
    pub fn may_match_unknown_state<S: Subject + ?Sized>(&self, f: &S, me: Option<&str>, now: DateTime<Utc>) -> bool {
        f.state_unknown() && self.depends_on_state() && self.others_ok(f, me, now)
    }
}

/// How many of `facts` each of `views` holds, in one pass over the facts.
pub fn count_views<S: Subject>(facts: &[S], views: &[View], me: Option<&str>, now: DateTime<Utc>) -> Vec<usize> {
    let mut counts = vec![0usize; views.len()];
    for f in facts {
        for (n, v) in counts.iter_mut().zip(views) {
            if v.filter.matches(f, me, now) {
                *n += 1;
            }
        }
    }
    counts
}

/// The positions in `facts` of the contacts in `view`, in the view's
/// order: latest activity first, or the longest wait first.
pub fn select<S: Subject + Keyed>(facts: &[S], view: &View, me: Option<&str>, now: DateTime<Utc>) -> Vec<usize> {
    let mut rows: Vec<usize> = (0..facts.len())
        .filter(|&i| view.filter.matches(&facts[i], me, now))
        .collect();
    sort_positions(&mut rows, facts, view.sort);
    rows
}

/// What orders contacts of equal activity: their uuid.
pub trait Keyed {
    fn key(&self) -> &str;
}

impl Keyed for Facts {
    fn key(&self) -> &str {
        &self.uuid
    }
}

/// Sorts positions in `facts` by `sort`: latest activity first, or the
/// customer who has waited longest first, then the rest by activity.
pub fn sort_positions<S: Subject + Keyed>(rows: &mut [usize], facts: &[S], sort: Sort) {
    let by_activity = |a: &S, b: &S| {
        b.last_activity()
            .cmp(&a.last_activity())
            .then_with(|| b.key().cmp(a.key()))
    };
    match sort {
        Sort::Activity => rows.sort_by(|&a, &b| by_activity(&facts[a], &facts[b])),
        Sort::LongestWait => rows.sort_by(|&a, &b| {
            let (fa, fb) = (&facts[a], &facts[b]);
            match (fa.waiting_since(), fb.waiting_since()) {
                (Some(x), Some(y)) => x.cmp(&y).then_with(|| by_activity(fa, fb)),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => by_activity(fa, fb),
            }
        }),
    }
}

/// A count for a tab: `999`, `1.2k`, `12.4k`, `100k`, `1.5M`.
pub fn abbreviate_count(n: usize) -> String {
    let one = |v: f64, unit: &str| {
        if v < 99.95 {
            let s = format!("{v:.1}");
            format!("{}{unit}", s.strip_suffix(".0").unwrap_or(&s))
        } else {
            format!("{v:.0}{unit}")
        }
    };
    match n {
        0..=999 => n.to_string(),
        1_000..=999_949 => one(n as f64 / 1_000.0, "k"),
        _ => one(n as f64 / 1_000_000.0, "M"),
    }
}
