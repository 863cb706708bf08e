//! `/` finds a customer the loaded contacts and the index do not hold yet:
//! a query that reads as a phone number (digits, an optional leading `+`,
//! spaces and dashes; 6 digits at least) or as a bsuid (`US.1234567…`,
//! or `bsuid_…` as the documentation's example) is looked up on the
//! service (GET /contacts/phone/:phone or /contacts/bsuid/:bsuid) when no
//! match holds it. The answer shows as a row of its own above the
//! matches; Enter opens it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::api::Contact;

/// Digits a query needs before it reads as a phone number.
pub const MIN_DIGITS: usize = 6;

/// What a query is looked up by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LookupKey {
    /// The number as sent: its digits, after a `+` when one was typed.
    Phone(String),
    Bsuid(String),
}

impl LookupKey {
    /// The key `query` reads as, if any.
    pub fn of(query: &str) -> Option<LookupKey> {
        let q = query.trim();
        if let Some(b) = bsuid(q) {
            return Some(LookupKey::Bsuid(b.to_string()));
        }
        let body = q.strip_prefix('+').unwrap_or(q);
        if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit() || c == ' ' || c == '-') {
            return None;
        }
        let digits: String = body.chars().filter(char::is_ascii_digit).collect();
        if digits.len() < MIN_DIGITS {
            return None;
        }
        let plus = if q.starts_with('+') { "+" } else { "" };
        Some(LookupKey::Phone(format!("{plus}{digits}")))
    }

    /// As the agent reads it: `+5511912345678`, `bsuid US.123…`.
    pub fn label(&self) -> String {
        match self {
            LookupKey::Phone(p) => p.clone(),
            LookupKey::Bsuid(b) => format!("bsuid {b}"),
        }
    }

    /// Whether a contact with this phone number (or bsuid) is the one
    /// looked for: the same digits, or the one number ending with the
    /// other (a number typed without its country code).
    pub fn held_by(&self, phone: &str, bsuid: Option<&str>) -> bool {
        match self {
            LookupKey::Phone(p) => {
                let want: String = p.chars().filter(char::is_ascii_digit).collect();
                let have: String = phone.chars().filter(char::is_ascii_digit).collect();
                have.len() >= MIN_DIGITS && (have.ends_with(&want) || want.ends_with(&have))
            }
            LookupKey::Bsuid(b) => bsuid == Some(b.as_str()),
        }
    }
}

/// A bsuid as Meta writes them (`US.13491208655302741918`: a country,
/// a dot, digits) or as the documentation's example (`bsuid_abc123`).
fn bsuid(q: &str) -> Option<&str> {
    if q.contains(char::is_whitespace) {
        return None;
    }
    if q.strip_prefix("bsuid_").is_some_and(|rest| !rest.is_empty()) {
        return Some(q);
    }
    let (cc, digits) = q.split_once('.')?;
    let cc_ok = cc.len() == 2 && cc.chars().all(|c| c.is_ascii_uppercase());
    let digits_ok = digits.len() >= MIN_DIGITS && digits.chars().all(|c| c.is_ascii_digit());
    (cc_ok && digits_ok).then_some(q)
}

/// Where a lookup stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Looked {
    /// Asked; the answer has not come.
    Looking,
    /// The service holds this contact.
    Found(Box<Contact>),
    /// The service answered that nobody has it.
    Missing,
    /// The lookup failed (why, in words).
    Failed(String),
}

/// The lookup of the query being searched, if it reads as one.
#[derive(Debug, Clone, Default)]
pub struct Lookup {
    /// What the current query reads as (none: no lookup).
    pub key: Option<LookupKey>,
    pub state: Option<Looked>,
    /// Bumped with each lookup asked or dropped.
    pub id: u64,
    /// The newest id: a lookup still waiting to go sees a newer one (or
    /// the search closed) and does not go.
    pub latest: Arc<AtomicU64>,
    /// The agent moved the selection among the matches (Up, Down): Enter
    /// opens that row, not the found one.
    pub picked: bool,
}

impl Lookup {
    /// The query changed to `query`: a lookup for another key is dropped.
    /// True when the key changed.
    pub fn query_changed(&mut self, query: &str) -> bool {
        let key = LookupKey::of(query);
        if key == self.key {
            return false;
        }
        self.key = key;
        self.state = None;
        self.picked = false;
        self.bump();
        true
    }

    /// A new id; a lookup waiting to go with an older one stays home.
    pub fn bump(&mut self) -> u64 {
        self.id += 1;
        self.latest.store(self.id, Ordering::Relaxed);
        self.id
    }

    /// Stops whatever lookup is waiting (the search closed).
    pub fn stop(&self) {
        self.latest.store(u64::MAX, Ordering::Relaxed);
    }

    /// The contact found, when Enter opens it rather than a match.
    pub fn found_first(&self) -> Option<&Contact> {
        match &self.state {
            Some(Looked::Found(c)) if !self.picked => Some(c),
            _ => None,
        }
    }

    /// The contact found (whether or not it has the cursor).
    pub fn found(&self) -> Option<&Contact> {
        match &self.state {
            Some(Looked::Found(c)) => Some(c),
            _ => None,
        }
    }
}

/// One lookup for the runner: it waits a moment (the agent may still be
/// typing), then goes only if no newer lookup was asked meanwhile.
#[derive(Debug, Clone)]
pub struct LookupJob {
    pub id: u64,
    pub key: LookupKey,
    pub latest: Arc<AtomicU64>,
}

impl LookupJob {
    /// Whether a newer lookup (or the search closing) made this one moot.
    pub fn stale(&self) -> bool {
        self.latest.load(Ordering::Relaxed) != self.id
    }
}

impl PartialEq for LookupJob {
    fn eq(&self, other: &Self) -> bool {
        (self.id, &self.key) == (other.id, &other.key) && Arc::ptr_eq(&self.latest, &other.latest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phone_numbers_and_bsuids_read_as_keys_and_names_do_not() {
        let phone = |s: &str| Some(LookupKey::Phone(s.to_string()));
        assert_eq!(LookupKey::of("+55 11 91234-5678"), phone("+5511912345678"));
        assert_eq!(LookupKey::of(" 912 345 "), phone("912345"));
        assert_eq!(LookupKey::of("12345"), None, "five digits are not a number yet");
        assert_eq!(LookupKey::of("ana 123456"), None);
        assert_eq!(LookupKey::of("++123456"), None);
        assert_eq!(
            LookupKey::of("US.1234567890"),
            Some(LookupKey::Bsuid("US.1234567890".into()))
        );
        assert_eq!(
            LookupKey::of("bsuid_abc123"),
            Some(LookupKey::Bsuid("bsuid_abc123".into()))
        );
        assert_eq!(LookupKey::of("us.1234567"), None);
        assert_eq!(LookupKey::of("Ana"), None);
    }

    #[test]
    fn a_number_without_its_country_code_is_held_by_the_full_one() {
        let k = LookupKey::of("91234-5678").unwrap();
        assert!(k.held_by("+55 11 91234-5678", None));
        assert!(!k.held_by("+55 11 91234-0000", None));
        assert!(!k.held_by("", None));
        let b = LookupKey::of("US.1234567").unwrap();
        assert!(b.held_by("", Some("US.1234567")));
        assert!(!b.held_by("1234567", None));
    }
}
