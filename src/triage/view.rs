//! Views: a name, a filter over [`Facts`], and an order. The five built-in
//! ones and the matching rules.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::facts::{Subject, same};

/// Which conversations, by state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum State {
    Open,
    Closed,
    #[default]
    Any,
}

impl State {
    /// `open`, `closed` or `any` (any case).
    pub fn parse(s: &str) -> Option<State> {
        match s.trim().to_ascii_lowercase().as_str() {
            "open" => Some(State::Open),
            "closed" => Some(State::Closed),
            "any" | "all" => Some(State::Any),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            State::Open => "open",
            State::Closed => "closed",
            State::Any => "any",
        }
    }
}

/// Whose conversations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assignee {
    /// The agent's own collaborator email (`user_email`).
    Me,
    /// Nobody is assigned.
    Nobody,
    /// This collaborator (email, any case).
    Email(String),
}

impl Assignee {
    /// `me`, `nobody` (or `none`), or an email address.
    pub fn parse(s: &str) -> Assignee {
        let t = s.trim();
        if t.eq_ignore_ascii_case("me") {
            Assignee::Me
        } else if t.eq_ignore_ascii_case("nobody") || t.eq_ignore_ascii_case("none") {
            Assignee::Nobody
        } else {
            Assignee::Email(t.to_string())
        }
    }

    /// As the config file writes it.
    pub fn as_text(&self) -> &str {
        match self {
            Assignee::Me => "me",
            Assignee::Nobody => "nobody",
            Assignee::Email(e) => e,
        }
    }
}

/// The order of a view's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// Latest activity first (the API's order).
    #[default]
    Activity,
    /// The customer who has waited longest first; then the rest by
    /// activity.
    LongestWait,
}

impl Sort {
    /// `activity` or `waiting`.
    pub fn parse(s: &str) -> Option<Sort> {
        match s.trim().to_ascii_lowercase().as_str() {
            "activity" | "newest" => Some(Sort::Activity),
            "waiting" | "longest-wait" | "longest_wait" => Some(Sort::LongestWait),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Sort::Activity => "activity",
            Sort::LongestWait => "waiting",
        }
    }
}

/// The rules a contact must meet to be in a view; every rule set must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewFilter {
    pub state: State,
    pub assignee: Option<Assignee>,
    /// The customer wrote last, longer ago than this (zero: at all).
    pub waiting: Option<Duration>,
    /// Integration type (any case).
    pub source: Option<String>,
    /// The contact has every one of these tags (any case).
    pub tags_all: Vec<String>,
    /// The contact has at least one of these tags (any case).
    pub tags_any: Vec<String>,
    /// Team uuid.
    pub team: Option<String>,
    /// Custom field name = value (any case; a checkbox field matches when
    /// one of its options is the value).
    pub fields: Vec<(String, String)>,
    /// Case-insensitive text in the name, phone number, tags or note.
    pub text: Option<String>,
    /// The last activity is older than this.
    pub older_than: Option<Duration>,
    /// The contact carries this badge (the TUI's, such as `snoozed`). A
    /// contact with a badge that hides is only in views that ask for it
    /// and in a view with no rules.
    pub badge: Option<String>,
    /// The Breaching view's: the customer waited past one of these
    /// thresholds, in a view it names (empty: no such rule).
    pub breach_of: Vec<Breach>,
}

/// One way into the Breaching view: in a view (its rules; none for the
/// file's top-level `breach_after`) and waiting longer than its
/// `breach_after`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breach {
    pub view: ViewFilter,
    pub after: Duration,
}

/// How long ago `t` was, when it was more than `d` ago.
fn older(t: Option<DateTime<Utc>>, d: Duration, now: DateTime<Utc>) -> bool {
    let Some(t) = t else { return false };
    match chrono::Duration::from_std(d) {
        Ok(d) => now.signed_duration_since(t) > d,
        Err(_) => false,
    }
}

impl ViewFilter {
    /// Whether the contact is in the view for the agent `me` (their
    /// collaborator email) at `now`. Without `me`, an "assigned to me"
    /// rule matches nothing.
    pub fn matches<S: Subject + ?Sized>(&self, f: &S, me: Option<&str>, now: DateTime<Utc>) -> bool {
        // The cheap rules that rule out most contacts first.
        self.state_ok(f) && self.waiting_ok(f, now) && self.others_ok(f, me, now) && self.breach_ok(f, me, now)
    }

    fn breach_ok<S: Subject + ?Sized>(&self, f: &S, me: Option<&str>, now: DateTime<Utc>) -> bool {
        self.breach_of.is_empty()
            || self
                .breach_of
                .iter()
                .any(|b| older(f.waiting_since(), b.after, now) && b.view.matches(f, me, now))
    }

    /// Every rule but `waiting`: the contacts whose last message decides.
    pub fn matches_but_waiting<S: Subject + ?Sized>(&self, f: &S, me: Option<&str>, now: DateTime<Utc>) -> bool {
        self.state_ok(f) && self.others_ok(f, me, now)
    }

    fn state_ok<S: Subject + ?Sized>(&self, f: &S) -> bool {
        match self.state {
            State::Open => !f.state_unknown() && !f.closed(),
            State::Closed => !f.state_unknown() && f.closed(),
            State::Any => true,
        }
    }

    pub(super) fn others_ok<S: Subject + ?Sized>(&self, f: &S, me: Option<&str>, now: DateTime<Utc>) -> bool {
        self.assignee_ok(f, me)
            && self.source.as_deref().is_none_or(|s| same(f.source(), s))
            && self
                .team
                .as_deref()
                .is_none_or(|t| f.team().is_some_and(|ft| same(ft, t)))
            && self.tags_all.iter().all(|t| f.has_tag(t))
            && (self.tags_any.is_empty() || self.tags_any.iter().any(|t| f.has_tag(t)))
            && self.fields.iter().all(|(k, v)| f.field_is(k, v))
            && self.older_than.is_none_or(|d| older(f.last_activity(), d, now))
            && self.text.as_deref().is_none_or(|t| f.has_text(t.trim()))
            && self.badge_ok(f)
    }

    fn badge_ok<S: Subject + ?Sized>(&self, f: &S) -> bool {
        match (&self.badge, f.hidden_by()) {
            (Some(b), _) => f.has_badge(b),
            (None, None) => true,
            (None, Some(_)) => *self == ViewFilter::default(),
        }
    }

    fn assignee_ok<S: Subject + ?Sized>(&self, f: &S, me: Option<&str>) -> bool {
        match &self.assignee {
            None => true,
            Some(Assignee::Nobody) => f.assignee().is_none(),
            Some(Assignee::Me) => match (me, f.assignee()) {
                (Some(me), Some(a)) => same(a, me),
                _ => false,
            },
            Some(Assignee::Email(e)) => f.assignee().is_some_and(|a| same(a, e)),
        }
    }

    fn waiting_ok<S: Subject + ?Sized>(&self, f: &S, now: DateTime<Utc>) -> bool {
        match self.waiting {
            None => true,
            Some(d) if d.is_zero() => f.is_waiting(),
            Some(d) => older(f.waiting_since(), d, now),
        }
    }

    /// The rules in words, for a list of views: `open, assigned to me,
    /// customer waiting > 2h`; `everything` without rules.
    pub fn describe(&self) -> String {
        let d = |d: Duration| super::duration::format_duration(d);
        let mut parts: Vec<String> = Vec::new();
        if self.state != State::Any {
            parts.push(self.state.as_str().into());
        }
        match &self.assignee {
            Some(Assignee::Me) => parts.push("assigned to me".into()),
            Some(Assignee::Nobody) => parts.push("unassigned".into()),
            Some(Assignee::Email(e)) => parts.push(format!("assigned to {e}")),
            None => {}
        }
        match self.waiting {
            Some(w) if w.is_zero() => parts.push("customer waiting".into()),
            Some(w) => parts.push(format!("customer waiting > {}", d(w))),
            None => {}
        }
        if let Some(s) = &self.source {
            parts.push(format!("source {s}"));
        }
        if !self.tags_all.is_empty() {
            parts.push(format!("tags {}", self.tags_all.join(" and ")));
        }
        if !self.tags_any.is_empty() {
            parts.push(format!("tags {}", self.tags_any.join(" or ")));
        }
        if let Some(t) = &self.team {
            parts.push(format!("team {t}"));
        }
        for (k, v) in &self.fields {
            parts.push(format!("{k} = {v}"));
        }
        if let Some(t) = &self.text {
            parts.push(format!("text \"{t}\""));
        }
        if let Some(o) = self.older_than {
            parts.push(format!("idle > {}", d(o)));
        }
        if let Some(b) = &self.badge {
            parts.push(b.clone());
        }
        if !self.breach_of.is_empty() {
            parts.push("past its view's breach_after".into());
        }
        if parts.is_empty() {
            "everything".into()
        } else {
            parts.join(", ")
        }
    }

    /// True when the view depends on who wrote last (so the last message
    /// of each candidate must be known).
    pub fn needs_last_message(&self) -> bool {
        self.waiting.is_some()
    }

    /// True when the view depends on the agent's own email.
    pub fn needs_me(&self) -> bool {
        self.assignee == Some(Assignee::Me)
    }
}

/// A named view: a filter and an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub name: String,
    /// The name on an 80-column tab strip (at most 8 characters).
    pub short: String,
    pub filter: ViewFilter,
    pub sort: Sort,
    /// A new customer message in it raises a notification (`notify = true`).
    pub notify: bool,
    /// Its own wait thresholds (`warn_after`, `breach_after`); unset ones
    /// fall back to the file's top-level ones.
    pub thresholds: Thresholds,
}

/// How long a customer may wait before the row says so: past `warn` the
/// waiting time is drawn as a warning, past `breach` as an error.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Thresholds {
    pub warn: Option<Duration>,
    pub breach: Option<Duration>,
}

/// Where a wait stands against [`Thresholds`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitLevel {
    /// No threshold set: a wait is simply a wait.
    Unrated,
    /// Under every threshold set.
    Calm,
    Warn,
    Breach,
}

impl Thresholds {
    /// These, with the unset ones taken from `defaults`.
    pub fn or(self, defaults: Thresholds) -> Thresholds {
        Thresholds {
            warn: self.warn.or(defaults.warn),
            breach: self.breach.or(defaults.breach),
        }
    }

    pub fn is_set(&self) -> bool {
        self.warn.is_some() || self.breach.is_some()
    }

    /// Where a wait of `waited` stands (past means longer than).
    pub fn level(&self, waited: Duration) -> WaitLevel {
        if !self.is_set() {
            WaitLevel::Unrated
        } else if self.breach.is_some_and(|b| waited > b) {
            WaitLevel::Breach
        } else if self.warn.is_some_and(|w| waited > w) {
            WaitLevel::Warn
        } else {
            WaitLevel::Calm
        }
    }
}

/// How long a short name may be.
pub const SHORT_MAX: usize = 8;

/// How to tell frontdesk who "me" is.
pub const SET_EMAIL: &str = "set user_email in the config file, FRONTDESK_USER_EMAIL or --email";

impl View {
    /// A view called `name`, its short name its first characters.
    pub fn new(name: &str, filter: ViewFilter) -> View {
        let sort = if filter.waiting.is_some() {
            Sort::LongestWait
        } else {
            Sort::Activity
        };
        View {
            name: name.trim().to_string(),
            short: short_name(name),
            filter,
            sort,
            notify: false,
            thresholds: Thresholds::default(),
        }
    }

    /// Why the view is empty whatever the account holds, if it must be:
    /// "assigned to me" without a collaborator email.
    pub fn why_empty(&self, me: Option<&str>) -> Option<String> {
        (self.filter.needs_me() && me.is_none_or(|m| m.trim().is_empty())).then(|| {
            format!(
                "{} shows the contacts assigned to you, and your collaborator email is not set: {SET_EMAIL}",
                self.name
            )
        })
    }

    /// Whether `name` names this view (its name or short name, any case).
    pub fn is_named(&self, name: &str) -> bool {
        same(&self.name, name) || same(&self.short, name)
    }
}

/// The first [`SHORT_MAX`] characters of a name, trimmed.
pub fn short_name(name: &str) -> String {
    name.trim()
        .chars()
        .take(SHORT_MAX)
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// Mine, Unassigned, Waiting, Open and All.
pub fn builtin_views() -> Vec<View> {
    let open = ViewFilter {
        state: State::Open,
        ..Default::default()
    };
    let mut waiting = View::new(
        "Waiting",
        ViewFilter {
            waiting: Some(Duration::ZERO),
            ..open.clone()
        },
    );
    waiting.sort = Sort::LongestWait;
    let mut unassigned = View::new(
        "Unassigned",
        ViewFilter {
            assignee: Some(Assignee::Nobody),
            ..open.clone()
        },
    );
    unassigned.short = "Unassign".into();
    vec![
        View::new(
            "Mine",
            ViewFilter {
                assignee: Some(Assignee::Me),
                ..open.clone()
            },
        ),
        unassigned,
        waiting,
        View::new("Open", open),
        View::new("All", ViewFilter::default()),
    ]
}

/// The name of the view of conversations waiting past `breach_after`.
pub const BREACHING: &str = "Breaching";

/// Open conversations whose customer has waited longer than `breach`
/// (the file's top-level `breach_after`), longest first.
pub fn breaching_view(breach: Duration) -> View {
    let mut v = View::new(
        BREACHING,
        ViewFilter {
            state: State::Open,
            waiting: Some(breach),
            ..Default::default()
        },
    );
    v.short = "Breach".into();
    v.thresholds.breach = Some(breach);
    v
}

/// The Breaching view for the file's top-level `breach_after` (`top`)
/// and the views' own: an open conversation is in it when its customer
/// waited past `top`, or past the `breach_after` of a view it is in.
/// `None` when no threshold is set.
pub fn breaching_view_of(top: Option<Duration>, views: &[View]) -> Option<View> {
    let own: Vec<Breach> = views
        .iter()
        .filter(|v| !v.is_named(BREACHING))
        .filter_map(|v| {
            let after = v.thresholds.breach?;
            // The top level catches it as soon: nothing to add.
            (top.is_none_or(|t| after < t)).then(|| Breach {
                view: v.filter.clone(),
                after,
            })
        })
        .collect();
    let least = own.iter().map(|b| b.after).chain(top).min()?;
    let mut v = breaching_view(least);
    if !own.is_empty() {
        v.filter.breach_of = top
            .map(|after| Breach {
                view: ViewFilter::default(),
                after,
            })
            .into_iter()
            .chain(own)
            .collect();
    }
    Some(v)
}

/// The view called `name` (any case, name or short name): a built-in one
/// first, then the agent's own in `custom`.
pub fn find_view(name: &str, custom: &[View]) -> Option<View> {
    builtin_views()
        .into_iter()
        .chain(custom.iter().cloned())
        .find(|v| v.is_named(name))
}
