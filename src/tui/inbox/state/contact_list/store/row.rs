//! One loaded contact as the list keeps it, compactly: the few distinct
//! values of source, tags, assignee, funnel, team and dashboard address
//! shared (`Arc`), the dashboard links reduced to what is not derivable
//! (the conversation's id, as 16 bytes), and what the list never shows in
//! one compact string. At 100,000 contacts this is about 60% of the
//! memory a plain `Contact` takes.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::api::{Contact, ContactTeam, FieldValue};

/// Between a haystack's words and its funnel's uuid (a control character
/// nothing typed holds).
pub const FUNNEL_MARK: char = '\u{1f}';

/// Hands out one shared copy of each distinct string, and of each
/// distinct [`Common`].
#[derive(Debug, Default)]
pub struct Interner {
    strings: HashSet<Arc<str>>,
    commons: HashSet<Arc<Common>>,
    /// Reused to write a row's JSON before it is copied at its size.
    scratch: Vec<u8>,
}

impl Interner {
    fn get(&mut self, s: &str) -> Arc<str> {
        if let Some(v) = self.strings.get(s) {
            return v.clone();
        }
        let v: Arc<str> = Arc::from(s);
        self.strings.insert(v.clone());
        v
    }

    fn common(&mut self, c: Common) -> Arc<Common> {
        if let Some(v) = self.commons.get(&c) {
            return v.clone();
        }
        let v = Arc::new(c);
        self.commons.insert(v.clone());
        v
    }
}

/// A contact's team as listed: its uuid and name, either maybe absent.
type Team = (Option<Box<str>>, Option<Box<str>>);

/// What many contacts have alike: the dashboard's address (their links
/// are `<dashboard>/contacts/<uuid>` and `<dashboard>/chat/<id>`), the
/// funnel and the team.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Common {
    dashboard: Option<Box<str>>,
    funnel: Option<Box<str>>,
    team: Option<Team>,
}

impl Common {
    fn is_empty(&self) -> bool {
        self.dashboard.is_none() && self.funnel.is_none() && self.team.is_none()
    }
}

/// The dashboard address `href` is `<dashboard>/contacts/<uuid>` of.
fn dashboard_of<'a>(href: &'a str, uuid: &str) -> Option<&'a str> {
    href.strip_suffix(uuid)?.strip_suffix("/contacts/")
}

/// A conversation link `<dashboard>/chat/<32 lowercase hex digits>`, as
/// the 16 bytes of its id.
fn chat_id(chat: &str, dashboard: &str) -> Option<[u8; 16]> {
    let hex = chat.strip_prefix(dashboard)?.strip_prefix("/chat/")?;
    if hex.len() != 32 || !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let mut id = [0u8; 16];
    for (i, byte) in id.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(id)
}

fn chat_link(dashboard: &str, id: &[u8; 16]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(dashboard.len() + 6 + 32);
    s.push_str(dashboard);
    s.push_str("/chat/");
    for b in id {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// What a list row rarely needs and no other contact shares (the avatar,
/// a link of another shape, the note, custom fields), kept as one compact
/// JSON string: one allocation instead of a dozen, decoded only for the
/// one contact a form or the details pane works on.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Extra {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    avatar: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    href: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chat: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    /// A text value as a string, a checkbox's as an array.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    fields: BTreeMap<String, Value>,
}

impl Extra {
    fn is_empty(&self) -> bool {
        self.avatar.is_none()
            && self.href.is_none()
            && self.chat.is_none()
            && self.note.is_none()
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
    /// What the page said about waiting.
    pub wait: crate::index::Wait,
}

impl From<&crate::index::Preview> for LastMessage {
    fn from(p: &crate::index::Preview) -> LastMessage {
        LastMessage {
            who: p.who,
            at: p.at,
            activity: p.activity,
            wait: p.wait,
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
    /// No answer read so far said whether the conversation is open
    /// ([`Contact::state_unknown`]).
    pub state_unknown: bool,
    pub activity_at: Option<DateTime<Utc>>,
    /// Uuid of the contact's team (views filter on it).
    pub team: Option<Arc<str>>,
    /// The `lastMessageAt` the agent has seen.
    pub seen: Option<DateTime<Utc>>,
    /// The conversation's last message, when the index has fetched it.
    pub last: Option<LastMessage>,
    pub(super) common: Option<Arc<Common>>,
    /// The id in the conversation's link, when it has the usual shape.
    pub(super) chat: Option<[u8; 16]>,
    extra: Option<Box<str>>,
}

impl Row {
    pub(super) fn new(c: Contact, seen: Option<DateTime<Utc>>, strings: &mut Interner) -> Row {
        let team = c.team_uuid().map(|t| strings.get(t));
        let dashboard: Option<Box<str>> = c.href.as_deref().and_then(|h| dashboard_of(h, &c.uuid)).map(Box::from);
        let chat = c
            .conversation_href
            .as_deref()
            .zip(dashboard.as_deref())
            .and_then(|(chat, d)| chat_id(chat, d));
        let standard_href = dashboard.is_some();
        let common = Common {
            dashboard,
            funnel: c.funnel_id.map(String::into_boxed_str),
            team: c
                .team
                .map(|t| (t.uuid.map(String::into_boxed_str), t.name.map(String::into_boxed_str))),
        };
        let common = (!common.is_empty()).then(|| strings.common(common));
        let extra = Extra {
            avatar: c.avatar_url,
            href: c.href.filter(|_| !standard_href),
            chat: c.conversation_href.filter(|_| chat.is_none()),
            note: c.note,
            fields: c
                .custom_fields
                .into_iter()
                .map(|(k, v)| (k, field_to_json(v)))
                .collect(),
        };
        // Strings, maps of strings and plain values always serialise.
        // Written into the interner's scratch buffer, then copied once at
        // its exact size: a string grown and shrunk in place leaves a small
        // hole after every row, which at 100,000 rows is megabytes.
        let extra = if extra.is_empty() {
            None
        } else {
            strings.scratch.clear();
            serde_json::to_writer(&mut strings.scratch, &extra)
                .ok()
                .and_then(|()| std::str::from_utf8(&strings.scratch).ok())
                .map(Box::from)
        };
        Row {
            uuid: Arc::from(c.uuid),
            name: c.name.into_boxed_str(),
            phone_number: c.phone_number.into_boxed_str(),
            source: strings.get(&c.source),
            assigned_user: c.assigned_user.as_deref().map(|a| strings.get(a)),
            tags: c.tags.iter().map(|t| strings.get(t)).collect(),
            created_at: c.created_at,
            closed_at: c.closed_at,
            state_unknown: c.state_unknown,
            activity_at: c.activity_at,
            team,
            seen: seen.or(c.activity_at),
            last: None,
            common,
            chat,
            extra,
        }
    }

    /// The contact in the API's shape (a fresh copy: for the one contact a
    /// form, a write or the details pane works on, never for every row).
    pub fn to_contact(&self) -> Contact {
        let x = self.extra();
        let common = self.common.as_deref();
        let dashboard = common.and_then(|c| c.dashboard.as_deref());
        Contact {
            uuid: self.uuid.to_string(),
            name: self.name.to_string(),
            phone_number: self.phone_number.to_string(),
            source: self.source.to_string(),
            assigned_user: self.assigned_user.as_deref().map(str::to_string),
            tags: self.tags.iter().map(|t| t.to_string()).collect(),
            created_at: self.created_at,
            closed_at: self.closed_at,
            state_unknown: self.state_unknown,
            activity_at: self.activity_at,
            avatar_url: x.avatar,
            href: x
                .href
                .or_else(|| dashboard.map(|d| format!("{d}/contacts/{}", self.uuid))),
            conversation_href: x
                .chat
                .or_else(|| dashboard.zip(self.chat.as_ref()).map(|(d, id)| chat_link(d, id))),
            funnel_id: common.and_then(|c| c.funnel.as_deref()).map(str::to_string),
            note: x.note,
            team: common.and_then(|c| c.team.as_ref()).map(|(uuid, name)| ContactTeam {
                uuid: uuid.as_deref().map(str::to_string),
                name: name.as_deref().map(str::to_string),
            }),
            custom_fields: x.fields.into_iter().map(|(k, v)| (k, field_from_json(v))).collect(),
            custom_fields_metadata: None,
            // Not kept by the list: a send reads them from the service.
            channel: None,
            bsuid: None,
            blocked_at: None,
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
        self.activity_at.or(self.created_at)
    }

    /// True when `c`, a newer copy of this contact, brings a message this
    /// row did not have (a contact without messages yet does not count).
    pub fn new_message_in(&self, c: &Contact) -> bool {
        self.activity_at.is_some() && c.activity_at > self.activity_at
    }

    /// True when the contact has a message the agent has not seen.
    pub fn has_new(&self) -> bool {
        match (self.activity_at, self.seen) {
            (Some(at), Some(seen)) => at > seen,
            _ => false,
        }
    }

    /// The uuid of the funnel the conversation is in, when the list said.
    pub fn funnel(&self) -> Option<&str> {
        self.common.as_deref().and_then(|c| c.funnel.as_deref())
    }

    /// The name, or the phone number for a contact without one.
    pub fn label(&self) -> &str {
        if self.name.is_empty() {
            &self.phone_number
        } else {
            &self.name
        }
    }

    /// The text `/` matches: name, phone and tags; then, after
    /// [`FUNNEL_MARK`], the funnel's uuid, which `funnel:` filters on and
    /// the typed words never match.
    pub(super) fn haystack(&self) -> Box<str> {
        // The exact size: grown or shrunk, it would leave a hole behind.
        let tags: usize = self.tags.iter().map(|t| t.len() + 1).sum();
        let funnel = self.funnel().map_or(0, |f| FUNNEL_MARK.len_utf8() + f.len());
        let mut s =
            String::with_capacity(self.name.len() + self.phone_number.len() + 2 + tags.saturating_sub(1) + funnel);
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
        if let Some(f) = self.funnel() {
            s.push(FUNNEL_MARK);
            s.push_str(f);
        }
        s.into_boxed_str()
    }
}
