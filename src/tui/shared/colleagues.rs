//! What the team hub says colleagues are doing: who views or answers which
//! customer now, and who last sent to whom. Kept by the root (set by the
//! `hub/` slice from the hub's event stream); the rows, the thread's header
//! and the composer's send read it. Empty without a hub.
//!
//! Names came from the hub: they are made inert where they are shown.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};

pub use crate::fill::Doing;

/// How long a presence holds without renewal (the hub's own rule: it
/// announces `idle` then, this is the fallback when that is missed).
pub const PRESENCE_TTL_SECS: i64 = 30;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    agent: String,
    doing: Doing,
    until: DateTime<Utc>,
}

#[derive(Debug, Clone, Default)]
pub struct Colleagues {
    /// This agent's own name on the hub (`whoami`): its own presence and
    /// sends are not a colleague's.
    pub me: Option<String>,
    on: HashMap<String, Vec<Seen>>,
    /// The newest send by a colleague to each contact: who, when, and
    /// the count of sends heard when it came ([`Colleagues::heard`]).
    sent: HashMap<String, (String, DateTime<Utc>, u64)>,
    /// Sends heard so far: what a composer notes when it opens, so a send
    /// heard later is asked about whatever the clocks say.
    heard: u64,
    /// Bumped by every change the screen shows.
    pub version: u64,
    /// The hub says the service is unreachable or limiting it, since when
    /// (`service_status`); `None` while it is up.
    pub service: Option<(crate::hubclient::ServiceState, DateTime<Utc>)>,
}

impl Colleagues {
    fn is_me(&self, agent: &str) -> bool {
        self.me.as_deref() == Some(agent)
    }

    /// `agent` views or composes on `contact` until `until` (`None`: idle,
    /// their presence there ends). Another contact's presence of the same
    /// agent ends too: one agent is on one conversation at a time.
    pub fn set(&mut self, agent: &str, contact: &str, doing: Option<Doing>, until: DateTime<Utc>) {
        if self.is_me(agent) {
            return;
        }
        for seen in self.on.values_mut() {
            seen.retain(|s| s.agent != agent);
        }
        self.on.retain(|_, v| !v.is_empty());
        if let Some(doing) = doing {
            self.on.entry(contact.to_string()).or_default().push(Seen {
                agent: agent.to_string(),
                doing,
                until,
            });
        }
        self.version += 1;
    }

    /// A colleague sent to `contact` at `at`.
    pub fn sent(&mut self, agent: &str, contact: &str, at: DateTime<Utc>) {
        if self.is_me(agent) {
            return;
        }
        self.heard += 1;
        let newer = self.sent.get(contact).is_none_or(|(_, t, _)| *t <= at);
        if newer {
            self.sent
                .insert(contact.to_string(), (agent.to_string(), at, self.heard));
            self.version += 1;
        }
    }

    /// How many colleagues' sends were heard so far.
    pub fn heard(&self) -> u64 {
        self.heard
    }

    /// Drops presences past their time; true when one went.
    pub fn expire(&mut self, now: DateTime<Utc>) -> bool {
        let before: usize = self.on.values().map(Vec::len).sum();
        for seen in self.on.values_mut() {
            seen.retain(|s| s.until > now);
        }
        self.on.retain(|_, v| !v.is_empty());
        let after: usize = self.on.values().map(Vec::len).sum();
        if after != before {
            self.version += 1;
        }
        after != before
    }

    fn here(&self, contact: &str, now: DateTime<Utc>) -> Vec<&Seen> {
        let mut seen: Vec<&Seen> = self
            .on
            .get(contact)
            .map(|v| v.iter().filter(|s| s.until > now).collect())
            .unwrap_or_default();
        // Whoever answers comes first, then by name: the label is stable.
        seen.sort_by(|a, b| {
            (b.doing == Doing::Composing)
                .cmp(&(a.doing == Doing::Composing))
                .then(a.agent.cmp(&b.agent))
        });
        seen
    }

    /// What a row and the thread's header say: "dana viewing", "dana
    /// replying…", "dana +1 replying…". `None` when nobody else is there.
    pub fn label(&self, contact: &str, now: DateTime<Utc>) -> Option<String> {
        let seen = self.here(contact, now);
        let first = seen.first()?;
        let more = match seen.len() {
            1 => String::new(),
            n => format!(" +{}", n - 1),
        };
        let doing = match first.doing {
            Doing::Composing => "replying…",
            Doing::Viewing => "viewing",
        };
        Some(format!("{}{more} {doing}", first.agent))
    }

    /// Whether a colleague is answering `contact` now.
    pub fn composing(&self, contact: &str, now: DateTime<Utc>) -> bool {
        self.here(contact, now).iter().any(|s| s.doing == Doing::Composing)
    }

    /// Why to ask before sending to `contact` from a composer opened when
    /// `since` sends had been heard: a colleague sent to them since, or is
    /// answering now.
    pub fn before_send(&self, contact: &str, since: u64, now: DateTime<Utc>) -> Option<String> {
        if let Some((agent, at, _)) = self.sent.get(contact).filter(|(_, _, n)| *n > since) {
            return Some(replied(agent, *at, now));
        }
        self.answering(contact, now)
    }

    /// Why to ask before a macro sends to `contact` (no composer, so no
    /// "since it opened"): a colleague sent to them in the last
    /// [`RECENT_SECS`], or is answering now.
    pub fn before_macro(&self, contact: &str, now: DateTime<Utc>) -> Option<String> {
        if let Some((agent, at, _)) = self
            .sent
            .get(contact)
            .filter(|(_, at, _)| now - *at <= Duration::seconds(RECENT_SECS))
        {
            return Some(replied(agent, *at, now));
        }
        self.answering(contact, now)
    }

    /// "dana is replying now (Ana, +1 more)": the first of `targets`
    /// (uuid, name) a colleague is answering or just answered, and how
    /// many more are.
    pub fn busy_among<'a>(
        &self,
        targets: impl Iterator<Item = (&'a str, &'a str)>,
        now: DateTime<Utc>,
    ) -> Option<String> {
        let busy: Vec<(String, &str)> = targets
            .filter_map(|(uuid, name)| Some((self.before_macro(uuid, now)?, name)))
            .collect();
        let (why, name) = busy.first()?;
        let more = match busy.len() - 1 {
            0 => String::new(),
            k => format!(", +{k} more"),
        };
        Some(format!("{why} ({name}{more})"))
    }

    /// "dana is replying now", when a colleague composes to `contact`.
    fn answering(&self, contact: &str, now: DateTime<Utc>) -> Option<String> {
        let seen = self.here(contact, now);
        let answering = seen.iter().find(|s| s.doing == Doing::Composing)?;
        Some(format!("{} is replying now", answering.agent))
    }

    /// When the soonest presence runs out (the loop wakes then).
    pub fn next_expiry(&self) -> Option<DateTime<Utc>> {
        self.on.values().flatten().map(|s| s.until).min()
    }
}

/// A colleague's reply this recent makes a macro's send ask first.
pub const RECENT_SECS: i64 = 120;

/// "dana replied 20 s ago".
fn replied(agent: &str, at: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let secs = (now - at).num_seconds().max(0);
    let ago = match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min", secs / 60),
        _ => format!("{} h", secs / 3600),
    };
    format!("{agent} replied {ago} ago")
}

/// The end of a presence heard now, when the hub gave none.
pub fn default_until(now: DateTime<Utc>) -> DateTime<Utc> {
    now + Duration::seconds(PRESENCE_TTL_SECS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    #[test]
    fn a_colleague_viewing_then_composing_then_leaving() {
        let mut c = Colleagues {
            me: Some("bea".into()),
            ..Default::default()
        };
        c.set("dana", "ana", Some(Doing::Viewing), t(30));
        assert_eq!(c.label("ana", t(1)).as_deref(), Some("dana viewing"));
        c.set("dana", "ana", Some(Doing::Composing), t(40));
        assert_eq!(c.label("ana", t(2)).as_deref(), Some("dana replying…"));
        assert!(c.composing("ana", t(2)));
        // dana moves on to another customer: no longer on ana.
        c.set("dana", "bob", Some(Doing::Viewing), t(40));
        assert_eq!(c.label("ana", t(3)), None);
        assert_eq!(c.label("bob", t(3)).as_deref(), Some("dana viewing"));
        c.set("dana", "bob", None, t(40));
        assert_eq!(c.label("bob", t(4)), None);
    }

    #[test]
    fn my_own_presence_and_sends_are_not_a_colleagues() {
        let mut c = Colleagues {
            me: Some("bea".into()),
            ..Default::default()
        };
        c.set("bea", "ana", Some(Doing::Composing), t(30));
        c.sent("bea", "ana", t(1));
        assert_eq!(c.label("ana", t(2)), None);
        assert_eq!(c.before_send("ana", 0, t(2)), None);
    }

    #[test]
    fn presence_runs_out_without_renewal() {
        let mut c = Colleagues::default();
        c.set("dana", "ana", Some(Doing::Viewing), t(30));
        c.set("farah", "ana", Some(Doing::Composing), t(60));
        assert_eq!(c.label("ana", t(10)).as_deref(), Some("farah +1 replying…"));
        assert_eq!(c.next_expiry(), Some(t(30)));
        assert!(c.expire(t(31)));
        assert_eq!(c.label("ana", t(31)).as_deref(), Some("farah replying…"));
        assert!(!c.expire(t(32)));
        assert_eq!(c.label("ana", t(61)), None, "past its time it shows no more");
    }

    #[test]
    fn a_macro_asks_when_a_colleague_replied_lately_or_is_replying() {
        let mut c = Colleagues::default();
        c.sent("dana", "ana", t(100));
        assert_eq!(c.before_macro("ana", t(130)).as_deref(), Some("dana replied 30 s ago"));
        assert_eq!(c.before_macro("ana", t(100 + RECENT_SECS + 1)), None, "long enough ago");
        c.set("farah", "bob", Some(Doing::Composing), t(300));
        assert_eq!(c.before_macro("bob", t(200)).as_deref(), Some("farah is replying now"));
        assert_eq!(c.before_macro("chidi", t(200)), None);
    }

    #[test]
    fn a_send_asks_when_a_colleague_replied_since_the_composer_opened() {
        let mut c = Colleagues::default();
        let opened = c.heard();
        c.sent("dana", "ana", t(100));
        assert_eq!(
            c.before_send("ana", opened, t(120)).as_deref(),
            Some("dana replied 20 s ago")
        );
        // Their reply came before the composer opened: the agent saw it.
        assert_eq!(c.before_send("ana", c.heard(), t(120)), None);
        // An older send never replaces a newer one.
        c.sent("farah", "ana", t(50));
        assert_eq!(
            c.before_send("ana", opened, t(220)).as_deref(),
            Some("dana replied 2 min ago")
        );
        c.set("farah", "bob", Some(Doing::Composing), t(300));
        assert_eq!(
            c.before_send("bob", 0, t(200)).as_deref(),
            Some("farah is replying now")
        );
        c.set("farah", "bob", Some(Doing::Viewing), t(300));
        assert_eq!(c.before_send("bob", 0, t(200)), None, "viewing alone does not ask");
    }
}
