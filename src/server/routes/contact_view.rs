//! The server's own contact row and its JSON form.

use rusqlite::{Connection, OptionalExtension, Row};
use serde_json::{Map, Value, json};

use crate::server::db::iso;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::DASHBOARD;
use crate::server::validate::FieldDef;

pub const SELECT: &str = "SELECT c.id, c.uuid, c.conversation_uuid, c.name, c.phone, c.avatar_url, c.created_at,
  c.source, c.assigned_user, t.uuid, t.name, c.closed_at, c.funnel_uuid, c.note, c.tags, c.custom_fields,
  c.last_activity
  FROM contacts c LEFT JOIN teams t ON t.id = c.team_id";

pub struct ContactRow {
    pub id: i64,
    pub uuid: String,
    pub conversation_uuid: String,
    pub name: String,
    pub phone: String,
    pub avatar_url: Option<String>,
    pub created_at: i64,
    pub source: String,
    pub assigned_user: Option<String>,
    pub team: Option<(String, String)>,
    pub closed_at: Option<i64>,
    pub funnel_uuid: String,
    pub note: Option<String>,
    pub tags: String,
    pub custom_fields: String,
    pub last_activity: i64,
}

impl ContactRow {
    pub fn from_row(r: &Row<'_>) -> rusqlite::Result<Self> {
        let team_uuid: Option<String> = r.get(9)?;
        let team_name: Option<String> = r.get(10)?;
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
            team: team_uuid.zip(team_name),
            closed_at: r.get(11)?,
            funnel_uuid: r.get(12)?,
            note: r.get(13)?,
            tags: r.get(14)?,
            custom_fields: r.get(15)?,
            last_activity: r.get(16)?,
        })
    }

    /// The contact as the wire shows it; with `fields`, also
    /// `customFieldsMetadata` for every field of the account.
    pub fn to_json(&self, fields: Option<&[FieldDef]>) -> Value {
        let tags: Value = serde_json::from_str(&self.tags).unwrap_or_else(|_| json!([]));
        let custom: Map<String, Value> = serde_json::from_str(&self.custom_fields).unwrap_or_default();
        let team = match &self.team {
            Some((uuid, name)) => json!({ "uuid": uuid, "name": name }),
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
            "lastMessageAt": iso(self.last_activity),
        });
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

/// A contact by uuid, or by identifier (phone number) as PATCH's path may carry.
pub fn find_contact(conn: &Connection, key: &str) -> ApiResult<i64> {
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
