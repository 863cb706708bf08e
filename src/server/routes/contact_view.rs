//! The server's own contact row and its JSON form.

use rusqlite::{Connection, OptionalExtension, Row};
use serde_json::{Map, Value, json};

use crate::server::db::iso;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::DASHBOARD;
use crate::server::validate::FieldDef;

pub const SELECT: &str = "SELECT c.id, c.uuid, c.conversation_uuid, c.name, c.phone, c.avatar_url, c.created_at,
  c.source, c.assigned_user, t.uuid, t.name, c.closed_at, c.funnel_uuid, c.note, c.tags, c.custom_fields,
  c.last_activity, c.bsuid, c.blocked_at, t.created_at, t.is_default,
  (SELECT COUNT(*) FROM team_members m WHERE m.team_id = t.id), ch.uuid, ch.title, ch.type, ch.main
  FROM contacts c LEFT JOIN teams t ON t.id = c.team_id
  LEFT JOIN channels ch ON ch.id = COALESCE(c.channel_id, (SELECT id FROM channels WHERE main = 1 ORDER BY id LIMIT 1))";

/// A team as the documentation's Team object shows it.
pub struct TeamRef {
    pub uuid: String,
    pub name: String,
    pub created_at: i64,
    pub default: bool,
    pub members: i64,
}

/// A channel as the Channel object shows it.
pub struct ChannelRef {
    pub uuid: String,
    pub title: String,
    pub kind: String,
    pub main: bool,
}

pub struct ContactRow {
    pub id: i64,
    pub uuid: String,
    pub conversation_uuid: String,
    pub name: String,
    /// Null for a contact known only by its bsuid.
    pub phone: Option<String>,
    pub avatar_url: Option<String>,
    pub created_at: i64,
    pub source: String,
    pub assigned_user: Option<String>,
    pub team: Option<TeamRef>,
    pub closed_at: Option<i64>,
    pub funnel_uuid: String,
    pub note: Option<String>,
    pub tags: String,
    pub custom_fields: String,
    /// Orders the list (most recent conversation first); never shown: the
    /// service has no `lastMessageAt`.
    pub last_activity: i64,
    /// WhatsApp Business Suite User ID, where known.
    pub bsuid: Option<String>,
    pub blocked_at: Option<i64>,
    pub channel: Option<ChannelRef>,
}

impl ContactRow {
    pub fn from_row(r: &Row<'_>) -> rusqlite::Result<Self> {
        let team = match r.get::<_, Option<String>>(9)? {
            Some(uuid) => Some(TeamRef {
                uuid,
                name: r.get(10)?,
                created_at: r.get(19)?,
                default: r.get(20)?,
                members: r.get(21)?,
            }),
            None => None,
        };
        let channel = match r.get::<_, Option<String>>(22)? {
            Some(uuid) => Some(ChannelRef {
                uuid,
                title: r.get(23)?,
                kind: r.get(24)?,
                main: r.get(25)?,
            }),
            None => None,
        };
        Ok(ContactRow {
            id: r.get(0)?,
            uuid: r.get(1)?,
            conversation_uuid: r.get(2)?,
            name: r.get(3)?,
            phone: r.get(4)?,
            avatar_url: r.get(5)?,
            created_at: r.get(6)?,
            source: r.get(7)?,
            assigned_user: r.get(8)?,
            team,
            closed_at: r.get(11)?,
            funnel_uuid: r.get(12)?,
            note: r.get(13)?,
            tags: r.get(14)?,
            custom_fields: r.get(15)?,
            last_activity: r.get(16)?,
            bsuid: r.get(17)?,
            blocked_at: r.get(18)?,
            channel,
        })
    }

    /// The contact as the wire shows it; with `fields`, also
    /// `customFieldsMetadata` for every field of the account.
    pub fn to_json(&self, fields: Option<&[FieldDef]>) -> Value {
        let tags: Value = serde_json::from_str(&self.tags).unwrap_or_else(|_| json!([]));
        let custom: Map<String, Value> = serde_json::from_str(&self.custom_fields).unwrap_or_default();
        let team = match &self.team {
            Some(t) => json!({
                "uuid": t.uuid,
                "name": t.name,
                "createdAt": iso(t.created_at),
                "default": t.default,
                "members": t.members,
            }),
            None => json!({}),
        };
        let mut v = json!({
            "uuid": self.uuid,
            "name": self.name,
            "phoneNumber": self.phone,
            "avatarUrl": self.avatar_url,
            "createdAt": iso(self.created_at),
            "source": self.source,
            "href": format!("{DASHBOARD}/contacts/{}", self.uuid),
            "conversationHref": format!("{DASHBOARD}/chat/{}", self.conversation_uuid),
            "assignedUser": self.assigned_user,
            "tags": tags,
            "customFields": custom,
            "closedAt": self.closed_at.map(iso),
            "funnelId": self.funnel_uuid,
            "team": team,
            "note": self.note,
            "blockedAt": self.blocked_at.map(iso),
            "channel": self.channel_json(),
        });
        if let (Some(b), Some(obj)) = (&self.bsuid, v.as_object_mut()) {
            // Only present for contacts with a known bsuid (the documentation).
            obj.insert("bsuid".into(), json!(b));
        }
        if let (Some(defs), Some(obj)) = (fields, v.as_object_mut()) {
            let mut meta = Map::new();
            for d in defs {
                let raw = custom.get(&d.name).and_then(Value::as_str);
                let value = match (d.kind.as_str(), raw) {
                    ("checkbox", Some(s)) => serde_json::from_str(s).unwrap_or_else(|_| json!([])),
                    ("checkbox", None) => json!([]),
                    (_, Some(s)) => json!(s),
                    (_, None) => Value::Null,
                };
                let mut m = json!({ "value": value, "type": d.kind });
                if matches!(d.kind.as_str(), "checkbox" | "dropdown") {
                    m["options"] = json!(d.options);
                }
                meta.insert(d.name.clone(), m);
            }
            obj.insert("customFieldsMetadata".into(), Value::Object(meta));
        }
        v
    }
}

impl ContactRow {
    fn channel_json(&self) -> Value {
        match &self.channel {
            Some(c) => json!({ "uuid": c.uuid, "title": c.title, "type": c.kind, "main": c.main }),
            None => Value::Null,
        }
    }

    /// The short contact webhook payloads carry (the documentation's
    /// examples): no assignee, custom fields, team, note or closed state.
    pub fn short_json(&self) -> Value {
        let tags: Value = serde_json::from_str(&self.tags).unwrap_or_else(|_| json!([]));
        json!({
            "href": format!("{DASHBOARD}/contacts/{}", self.uuid),
            "conversationHref": format!("{DASHBOARD}/chat/{}", self.conversation_uuid),
            "name": self.name,
            "tags": tags,
            "uuid": self.uuid,
            "source": self.source,
            "avatarUrl": self.avatar_url,
            "createdAt": iso(self.created_at),
            "phoneNumber": self.phone,
        })
    }

    /// The Conversation object of `conversation_opened` and
    /// `conversation_closed`: `closingReason` only on a close.
    pub fn conversation_json(&self, closing_reason: Option<Option<&str>>) -> Value {
        let mut v = json!({
            "source": self.source,
            "href": format!("{DASHBOARD}/chat/{}", self.conversation_uuid),
            "contact": self.short_json(),
            "createdAt": iso(self.created_at),
            "closedAt": self.closed_at.map(iso),
        });
        if let (Some(reason), Some(obj)) = (closing_reason, v.as_object_mut()) {
            obj.insert("closingReason".into(), json!(reason));
        }
        v
    }
}

/// A contact by uuid: a contact's own path takes only its uuid (a phone
/// number is looked up at /contacts/phone/:number).
pub fn find_contact(conn: &Connection, key: &str) -> ApiResult<i64> {
    conn.query_row("SELECT id FROM contacts WHERE uuid = ?1", [key], |r| r.get(0))
        .optional()?
        .ok_or_else(|| ApiError::not_found("contact"))
}

/// A contact by uuid, or by its identifier (a phone number): PATCH's path
/// may carry either ("The identifier of the contact (e.g. phone number in
/// WhatsApp)").
pub fn find_patched(conn: &Connection, key: &str) -> ApiResult<i64> {
    conn.query_row(
        "SELECT id FROM (SELECT id, 0 AS k FROM contacts WHERE uuid = ?1
                         UNION ALL SELECT id, 1 FROM contacts WHERE phone = ?1) ORDER BY k LIMIT 1",
        [key],
        |r| r.get(0),
    )
    .optional()?
    .ok_or_else(|| ApiError::not_found("contact"))
}

pub fn load_contact(conn: &Connection, id: i64) -> ApiResult<ContactRow> {
    conn.prepare_cached(&format!("{SELECT} WHERE c.id = ?1"))?
        .query_row([id], ContactRow::from_row)
        .optional()?
        .ok_or_else(|| ApiError::not_found("contact"))
}
