//! The loaded contacts, once, compactly: one [`Row`] per contact, indexed by
//! uuid, with the few distinct values of source, tags and assignee shared
//! (`Arc<str>`), what the list never shows in one compact string, and the
//! search haystacks kept beside them so `/` never rebuilds them.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::api::{Contact, ContactTeam, FieldValue};

/// Hands out one shared copy of each distinct string.
#[derive(Debug, Default)]
struct Interner(HashSet<Arc<str>>);

impl Interner {
    fn get(&mut self, s: &str) -> Arc<str> {
        if let Some(v) = self.0.get(s) {
            return v.clone();
        }
        let v: Arc<str> = Arc::from(s);
        self.0.insert(v.clone());
        v
    }
}

/// What a list row rarely needs (links, funnel, note, team, custom
/// fields), kept as one compact JSON string: one allocation instead of a
/// dozen, decoded only for the one contact a form or the details pane
/// works on.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Extra {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    avatar: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    href: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chat: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    funnel: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    team: Option<ContactTeam>,
    /// A text value as a string, a checkbox's as an array.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    fields: BTreeMap<String, Value>,
}

impl Extra {
    fn is_empty(&self) -> bool {
        self.avatar.is_none()
            && self.href.is_none()
            && self.chat.is_none()
            && self.funnel.is_none()
            && self.note.is_none()
            && self.team.is_none()
            && self.fields.is_empty()
    }
}

fn field_to_json(v: FieldValue) -> Value {
    match v {
        FieldValue::Text(s) => Value::String(s),
        FieldValue::List(items) => Value::from(items),
    }
}

fn field_from_json(v: Value) -> FieldValue {
    match v {
        Value::String(s) => FieldValue::Text(s),
        Value::Array(items) => FieldValue::List(
            items
                .into_iter()
                .filter_map(|i| i.as_str().map(str::to_string))
                .collect(),
        ),
        other => FieldValue::Text(other.to_string()),
    }
}

/// Who wrote a conversation's last message and when, kept on its row so a
/// view can ask without a lookup (100,000 lookups cost a frame).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastMessage {
    pub who: Option<crate::index::Who>,
    pub at: Option<DateTime<Utc>>,
    /// The contact's activity when it was fetched: a row whose activity
    /// moved since has a newer message, not known yet.
    pub activity: Option<DateTime<Utc>>,
}

impl From<&crate::index::Preview> for LastMessage {
    fn from(p: &crate::index::Preview) -> LastMessage {
        LastMessage {
            who: p.who,
            at: p.at,
            activity: p.activity,
        }
    }
}

/// One loaded contact as the list keeps it. Converted from `api::Contact`
/// on arrival; [`Row::to_contact`] gives the API shape back (without
/// `customFieldsMetadata`, which the details pane fetches with the contact).
#[derive(Debug, PartialEq)]
pub struct Row {
    pub uuid: Arc<str>,
    pub name: Box<str>,
    pub phone_number: Box<str>,
    pub source: Arc<str>,
    pub assigned_user: Option<Arc<str>>,
    pub tags: Box<[Arc<str>]>,
    pub created_at: Option<DateTime<Utc>>,
    pub closed_at: Option<DateTime<Utc>>,
    pub last_message_at: Option<DateTime<Utc>>,
    /// Uuid of the contact's team (views filter on it).
    pub team: Option<Arc<str>>,
    /// The `lastMessageAt` the agent has seen.
    pub seen: Option<DateTime<Utc>>,
    /// The conversation's last message, when the index has fetched it.
    pub last: Option<LastMessage>,
    extra: Option<Box<str>>,
}

impl Row {
    fn new(c: Contact, seen: Option<DateTime<Utc>>, strings: &mut Interner) -> Row {
        let team = c.team_uuid().map(|t| strings.get(t));
        let extra = Extra {
            avatar: c.avatar_url,
            href: c.href,
            chat: c.conversation_href,
            funnel: c.funnel_id,
            note: c.note,
            team: c.team,
            fields: c
                .custom_fields
                .into_iter()
                .map(|(k, v)| (k, field_to_json(v)))
                .collect(),
        };
        // Strings, maps of strings and plain values always serialise.
        let extra = (!extra.is_empty())
            .then(|| serde_json::to_string(&extra).ok().map(String::into_boxed_str))
            .flatten();
        Row {
            uuid: Arc::from(c.uuid),
            name: c.name.into_boxed_str(),
            phone_number: c.phone_number.into_boxed_str(),
            source: strings.get(&c.source),
            assigned_user: c.assigned_user.as_deref().map(|a| strings.get(a)),
            tags: c.tags.iter().map(|t| strings.get(t)).collect(),
            created_at: c.created_at,
            closed_at: c.closed_at,
            last_message_at: c.last_message_at,
            team,
            seen: seen.or(c.last_message_at),
            last: None,
            extra,
        }
    }

    /// The contact in the API's shape (a fresh copy: for the one contact a
    /// form, a write or the details pane works on, never for every row).
    pub fn to_contact(&self) -> Contact {
        let x = self.extra();
        Contact {
            uuid: self.uuid.to_string(),
            name: self.name.to_string(),
            phone_number: self.phone_number.to_string(),
            source: self.source.to_string(),
            assigned_user: self.assigned_user.as_deref().map(str::to_string),
            tags: self.tags.iter().map(|t| t.to_string()).collect(),
            created_at: self.created_at,
            closed_at: self.closed_at,
            last_message_at: self.last_message_at,
            avatar_url: x.avatar,
            href: x.href,
            conversation_href: x.chat,
            funnel_id: x.funnel,
            note: x.note,
            team: x.team,
            custom_fields: x.fields.into_iter().map(|(k, v)| (k, field_from_json(v))).collect(),
            custom_fields_metadata: None,
        }
    }

    /// What the list keeps aside, decoded.
    fn extra(&self) -> Extra {
        self.extra
            .as_deref()
            .and_then(|s| serde_json::from_str(s).ok())
            .unwrap_or_default()
    }

    /// The note, decoded from what the list keeps aside.
    pub fn note(&self) -> Option<String> {
        self.extra().note
    }

    /// The custom fields, decoded from what the list keeps aside.
    pub fn custom_fields(&self) -> BTreeMap<String, FieldValue> {
        self.extra()
            .fields
            .into_iter()
            .map(|(k, v)| (k, field_from_json(v)))
            .collect()
    }

    pub fn is_open(&self) -> bool {
        self.closed_at.is_none()
    }

    /// The latest known activity: `lastMessageAt`, else `createdAt`.
    pub fn last_activity(&self) -> Option<DateTime<Utc>> {
        self.last_message_at.or(self.created_at)
    }

    /// True when `c`, a newer copy of this contact, brings a message this
    /// row did not have (a contact without messages yet does not count).
    pub fn new_message_in(&self, c: &Contact) -> bool {
        self.last_message_at.is_some() && c.last_message_at > self.last_message_at
    }

    /// True when the contact has a message the agent has not seen.
    pub fn has_new(&self) -> bool {
        match (self.last_message_at, self.seen) {
            (Some(at), Some(seen)) => at > seen,
            _ => false,
        }
    }

    /// The name, or the phone number for a contact without one.
    pub fn label(&self) -> &str {
        if self.name.is_empty() {
            &self.phone_number
        } else {
            &self.name
        }
    }

    /// The text `/` matches: name, phone and tags.
    fn haystack(&self) -> Box<str> {
        let mut s = String::with_capacity(self.name.len() + self.phone_number.len() + 2 + self.tags.len() * 8);
        s.push_str(&self.name);
        s.push(' ');
        s.push_str(&self.phone_number);
        s.push(' ');
        for (i, t) in self.tags.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(t);
        }
        s.into_boxed_str()
    }
}

/// What [`ContactStore::upsert_sorted`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upserted {
    New(usize),
    InPlace(usize),
    Moved { from: usize, to: usize },
}

/// The search haystacks in row order, shared with a search running off the
/// UI thread (copied only if the store changes while one holds them).
pub type Haystacks = Arc<Vec<Box<str>>>;

/// The loaded contacts in server order (most recent conversation first).
#[derive(Debug, Default)]
pub struct ContactStore {
    rows: Vec<Row>,
    index: HashMap<Arc<str>, usize>,
    hay: Haystacks,
    strings: Interner,
    /// Bumped when rows move (inserted in front, cleared): row numbers of
    /// an older layout no longer name the same contacts.
    layout: u64,
    /// Bumped on every change.
    version: u64,
    /// Bumped when only what the agent has seen changes (views, search
    /// and sorting do not depend on it).
    seen_version: u64,
}

impl ContactStore {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn get(&self, i: usize) -> Option<&Row> {
        self.rows.get(i)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter()
    }

    /// Row number of `uuid`: a hash lookup, no scan.
    pub fn position(&self, uuid: &str) -> Option<usize> {
        self.index.get(uuid).copied()
    }

    pub fn by_id(&self, uuid: &str) -> Option<&Row> {
        self.position(uuid).map(|i| &self.rows[i])
    }

    pub fn haystacks(&self) -> Haystacks {
        self.hay.clone()
    }

    pub fn layout(&self) -> u64 {
        self.layout
    }

    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn seen_version(&self) -> u64 {
        self.seen_version
    }

    /// Sets what the agent has seen of `uuid` (the row's `seen`); false
    /// when it is not loaded.
    pub fn set_seen(&mut self, uuid: &str, seen: impl FnOnce(&Row) -> Option<DateTime<Utc>>) -> bool {
        let Some(i) = self.position(uuid) else { return false };
        let row = &mut self.rows[i];
        row.seen = seen(row);
        self.seen_version += 1;
        true
    }

    /// Sets what is known of `uuid`'s last message; false when it is not
    /// loaded.
    pub fn set_last(&mut self, uuid: &str, last: LastMessage) -> bool {
        let Some(i) = self.position(uuid) else { return false };
        if self.rows[i].last != Some(last) {
            self.rows[i].last = Some(last);
            self.version += 1;
        }
        true
    }

    /// Drops everything.
    pub fn clear(&mut self) {
        self.rows.clear();
        self.index.clear();
        self.hay = Haystacks::default();
        self.layout += 1;
        self.version += 1;
    }

    /// Replaces a known contact in place (keeping what the agent has seen);
    /// false when it is not loaded.
    pub fn replace(&mut self, c: Contact) -> bool {
        let Some(i) = self.position(&c.uuid) else { return false };
        let mut row = Row::new(c, self.rows[i].seen, &mut self.strings);
        row.last = self.rows[i].last;
        Arc::make_mut(&mut self.hay)[i] = row.haystack();
        self.rows[i] = row;
        self.version += 1;
        true
    }

    /// Appends `c`, or replaces it in place when it is already loaded (a
    /// refresh put it on top): never a duplicate. True when it was new.
    pub fn push(&mut self, c: Contact) -> bool {
        if self.index.contains_key(c.uuid.as_str()) {
            self.replace(c);
            return false;
        }
        let row = Row::new(c, None, &mut self.strings);
        self.index.insert(row.uuid.clone(), self.rows.len());
        Arc::make_mut(&mut self.hay).push(row.haystack());
        self.rows.push(row);
        self.version += 1;
        true
    }

    /// Inserts new contacts (none of them loaded) before row `at`, in their
    /// order.
    pub fn insert(&mut self, at: usize, fresh: Vec<Contact>) {
        if fresh.is_empty() {
            return;
        }
        let at = at.min(self.rows.len());
        let n = fresh.len();
        let rows: Vec<Row> = fresh
            .into_iter()
            .map(|c| Row::new(c, None, &mut self.strings))
            .collect();
        let hay = Arc::make_mut(&mut self.hay);
        hay.splice(at..at, rows.iter().map(Row::haystack));
        for v in self.index.values_mut() {
            if *v >= at {
                *v += n;
            }
        }
        for (k, r) in rows.iter().enumerate() {
            self.index.insert(r.uuid.clone(), at + k);
        }
        self.rows.splice(at..at, rows);
        self.layout += 1;
        self.version += 1;
    }

    /// Changes one row in place (an optimistic close, what the agent has
    /// seen); false when it is not loaded.
    pub fn update(&mut self, uuid: &str, f: impl FnOnce(&mut Row)) -> bool {
        let Some(i) = self.position(uuid) else { return false };
        f(&mut self.rows[i]);
        self.version += 1;
        true
    }

    /// Re-points the index at rows `from..to` after they moved.
    fn reindex(&mut self, from: usize, to: usize) {
        for i in from..to.min(self.rows.len()) {
            if let Some(v) = self.index.get_mut(&*self.rows[i].uuid) {
                *v = i;
            }
        }
    }

    /// Removes `uuid`; false when it is not loaded.
    pub fn remove(&mut self, uuid: &str) -> bool {
        let Some(i) = self.index.remove(uuid) else { return false };
        self.rows.remove(i);
        Arc::make_mut(&mut self.hay).remove(i);
        self.reindex(i, self.rows.len());
        self.layout += 1;
        self.version += 1;
        true
    }

    /// Where a contact with latest activity `at` goes in a list sorted
    /// newest first (after the rows as new as it).
    fn sorted_position(&self, at: Option<DateTime<Utc>>) -> usize {
        self.rows.partition_point(|r| r.last_activity() >= at)
    }

    /// Stores `c` where its latest activity puts it (the list is kept
    /// newest first): in place when that has not changed, else moved or
    /// inserted. Only the rows between the old and new places are
    /// re-pointed, so a contact moving to the top of 100,000 costs what
    /// lies above it.
    pub fn upsert_sorted(&mut self, c: Contact) -> Upserted {
        let at = c.last_activity();
        let Some(old) = self.position(&c.uuid) else {
            let to = self.sorted_position(at);
            let row = Row::new(c, None, &mut self.strings);
            self.index.insert(row.uuid.clone(), to);
            Arc::make_mut(&mut self.hay).insert(to, row.haystack());
            self.rows.insert(to, row);
            self.reindex(to + 1, self.rows.len());
            self.layout += 1;
            self.version += 1;
            return Upserted::New(to);
        };
        if self.rows[old].last_activity() == at {
            self.replace(c);
            return Upserted::InPlace(old);
        }
        let seen = self.rows[old].seen;
        let mut row = Row::new(c, seen, &mut self.strings);
        row.last = self.rows[old].last;
        let hay = row.haystack();
        self.rows.remove(old);
        Arc::make_mut(&mut self.hay).remove(old);
        let to = self.sorted_position(at);
        self.rows.insert(to, row);
        Arc::make_mut(&mut self.hay).insert(to, hay);
        self.reindex(old.min(to), old.max(to) + 1);
        self.layout += 1;
        self.version += 1;
        Upserted::Moved { from: old, to }
    }

    /// Replaces everything loaded.
    pub fn set(&mut self, contacts: Vec<Contact>) {
        self.clear();
        for c in contacts {
            self.push(c);
        }
    }
}

#[cfg(test)]
mod tests;
