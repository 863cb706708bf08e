//! The manifest: a JSON description of the seeded account, written by
//! `frontdesk serve --manifest PATH` and returned by `start`.

use std::collections::BTreeMap;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use super::db;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub base_url: String,
    pub api_key: String,
    pub contacts: usize,
    pub users: Vec<ManifestUser>,
    pub collaborators: Vec<String>,
    pub tags: Vec<String>,
    pub sources: Vec<String>,
    pub teams: Vec<ManifestTeam>,
    pub channels: Vec<ManifestChannel>,
    pub custom_fields: BTreeMap<String, ManifestField>,
    pub custom_statuses: Vec<ManifestStatus>,
    pub bot_enabled: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestUser {
    pub uuid: String,
    pub email: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestTeam {
    pub uuid: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestChannel {
    pub uuid: String,
    pub title: String,
    #[serde(rename = "type")]
    pub channel_type: String,
    pub main: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestField {
    #[serde(rename = "type")]
    pub field_type: String,
    pub options: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestStatus {
    pub id: String,
    pub name: String,
}

pub fn build(conn: &Connection, base_url: &str, api_key: &str) -> rusqlite::Result<Manifest> {
    let contacts: i64 = conn.query_row("SELECT COUNT(*) FROM contacts", [], |r| r.get(0))?;
    let users = conn
        .prepare("SELECT uuid, email, name FROM users ORDER BY id")?
        .query_map([], |r| {
            Ok(ManifestUser {
                uuid: r.get(0)?,
                email: r.get(1)?,
                name: r.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let collaborators = users.iter().map(|u| u.email.clone()).collect();
    let tags = conn
        .prepare("SELECT name FROM tags ORDER BY id")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    let sources = db::get_setting(conn, "sources")?
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default();
    let teams = conn
        .prepare("SELECT uuid, name FROM teams ORDER BY id")?
        .query_map([], |r| {
            Ok(ManifestTeam {
                uuid: r.get(0)?,
                name: r.get(1)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let channels = conn
        .prepare("SELECT uuid, title, type, main FROM channels ORDER BY id")?
        .query_map([], |r| {
            Ok(ManifestChannel {
                uuid: r.get(0)?,
                title: r.get(1)?,
                channel_type: r.get(2)?,
                main: r.get(3)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let custom_fields = conn
        .prepare("SELECT name, type, options FROM custom_fields ORDER BY id")?
        .query_map([], |r| {
            let options: String = r.get(2)?;
            Ok((
                r.get::<_, String>(0)?,
                ManifestField {
                    field_type: r.get(1)?,
                    options: serde_json::from_str(&options).unwrap_or_default(),
                },
            ))
        })?
        .collect::<Result<BTreeMap<_, _>, _>>()?;
    let custom_statuses = conn
        .prepare("SELECT uuid, name FROM custom_statuses ORDER BY id")?
        .query_map([], |r| {
            Ok(ManifestStatus {
                id: r.get(0)?,
                name: r.get(1)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let bot_enabled = db::get_setting(conn, "bot_enabled")?.as_deref() == Some("true");
    Ok(Manifest {
        base_url: base_url.to_string(),
        api_key: api_key.to_string(),
        contacts: contacts as usize,
        users,
        collaborators,
        tags,
        sources,
        teams,
        channels,
        custom_fields,
        custom_statuses,
        bot_enabled,
    })
}
