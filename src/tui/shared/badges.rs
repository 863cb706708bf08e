//! Badges: what a slice puts on a contact's row, kept by the root. A row
//! shows its first badge's label where its state ("open") stands, and a
//! view can ask for a badge (`ViewFilter::badge`). A badge that `hides`
//! takes the contact out of every view but one that asks for it and the
//! view with no rules (All): a snoozed conversation leaves the work.

use std::collections::HashMap;

/// One kind of badge, named by the slice that sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Badge {
    /// What a view names it by (`badge = "snoozed"`).
    pub name: &'static str,
    /// What the row shows (seven columns at most).
    pub label: &'static str,
    /// Whether it takes the contact out of the views that do not ask for it.
    pub hides: bool,
}

/// On a closed conversation the customer wrote in again: it counts as
/// open (it is in Waiting) until its thread is opened or the agent acts
/// on it. Set by `notify/`; the inbox's views read it.
pub const REOPENED: Badge = Badge {
    name: "reopened",
    label: "reopen",
    hides: false,
};

/// The badges on contacts, by uuid.
#[derive(Debug, Clone, Default)]
pub struct Badges {
    on: HashMap<String, Vec<Badge>>,
    /// Bumped by every change: the views' rows and counts depend on it.
    pub version: u64,
}

impl Badges {
    /// Puts `badge` on `uuid` (`on`) or takes it off.
    pub fn set(&mut self, uuid: &str, badge: Badge, on: bool) {
        let list = self.on.entry(uuid.to_string()).or_default();
        let had = list.iter().position(|b| b.name == badge.name);
        match (had, on) {
            (None, true) => list.push(badge),
            (Some(i), false) => {
                list.remove(i);
            }
            _ => return,
        }
        if list.is_empty() {
            self.on.remove(uuid);
        }
        self.version += 1;
    }

    /// `uuid`'s badges, first set first.
    pub fn of(&self, uuid: &str) -> &[Badge] {
        self.on.get(uuid).map_or(&[], |v| v.as_slice())
    }

    /// Whether `uuid` carries the badge named `name`.
    pub fn has(&self, uuid: &str, name: &str) -> bool {
        self.of(uuid).iter().any(|b| b.name == name)
    }

    /// How many contacts carry the badge named `name`.
    pub fn count(&self, name: &str) -> usize {
        self.on.values().filter(|v| v.iter().any(|b| b.name == name)).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const Z: Badge = Badge {
        name: "snoozed",
        label: "snoozed",
        hides: true,
    };
    const B: Badge = Badge {
        name: "back",
        label: "back",
        hides: false,
    };

    #[test]
    fn set_and_take_off_bump_the_version_only_when_something_changes() {
        let mut b = Badges::default();
        b.set("a", Z, true);
        b.set("a", Z, true);
        assert_eq!(b.version, 1, "setting it twice is one change");
        b.set("a", B, true);
        assert_eq!(b.of("a"), &[Z, B]);
        assert!(b.has("a", "back") && !b.has("x", "back"));
        assert_eq!(b.count("snoozed"), 1);
        b.set("a", Z, false);
        b.set("a", B, false);
        b.set("a", B, false);
        assert_eq!(b.version, 4);
        assert!(b.of("a").is_empty());
        assert_eq!(b.count("snoozed"), 0);
    }
}
