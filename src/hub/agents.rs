//! Agents and their tokens. A token is shown once, when the agent is
//! added; the file keeps only its SHA-256. Only the hub's command line
//! adds and removes agents: no token grants that.

use chrono::{SecondsFormat, Utc};
use rand::RngCore;
use rusqlite::{OptionalExtension, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::HubError;
use super::store::Store;

/// One agent of the team, as the hub knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Agent {
    pub name: String,
    pub email: String,
    pub user_uuid: Option<String>,
    pub created_at: String,
}

/// The prefix that tells a hub token from an API key.
pub const TOKEN_PREFIX: &str = "fdh_";

/// The stored form of a token: hex SHA-256 of the whole token.
pub fn hash_token(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{TOKEN_PREFIX}{hex}")
}

/// A name is what the others see next to a contact ("dana viewing"):
/// short, and letters, digits, `.`, `_`, `-` only.
pub fn check_name(name: &str) -> Result<(), HubError> {
    let ok = (1..=40).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(HubError::Usage(format!(
            "agent name {:?} must be 1 to 40 letters, digits, '.', '_' or '-'",
            crate::text::sanitize_line(name)
        )))
    }
}

fn check_email(email: &str) -> Result<(), HubError> {
    let ok = email.len() <= 254
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        && email
            .split_once('@')
            .is_some_and(|(a, b)| !a.is_empty() && b.contains('.'));
    if ok {
        Ok(())
    } else {
        Err(HubError::Usage(format!(
            "{:?} is not an email address",
            crate::text::sanitize_line(email)
        )))
    }
}

fn check_user_uuid(uuid: &str) -> Result<(), HubError> {
    let ok = (1..=64).contains(&uuid.len()) && uuid.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if ok {
        Ok(())
    } else {
        Err(HubError::Usage(format!(
            "user uuid {:?} must be letters, digits and '-'",
            crate::text::sanitize_line(uuid)
        )))
    }
}

/// Adds an agent and returns its token (the only time it is shown).
pub fn add(store: &Store, name: &str, email: &str, user_uuid: Option<&str>) -> Result<String, HubError> {
    check_name(name)?;
    check_email(email)?;
    if let Some(u) = user_uuid {
        check_user_uuid(u)?;
    }
    let token = new_token();
    let at = Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true);
    let inserted = store.conn().execute(
        "INSERT INTO agents (name, email, user_uuid, token_hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (name) DO NOTHING",
        params![name, email, user_uuid, hash_token(&token), at],
    )?;
    if inserted == 0 {
        return Err(HubError::Usage(format!(
            "an agent named {name} exists: remove it first (frontdesk hub agents remove {name})"
        )));
    }
    Ok(token)
}

/// Every agent, by name.
pub fn list(store: &Store) -> Result<Vec<Agent>, HubError> {
    let conn = store.conn();
    let mut stmt = conn.prepare("SELECT name, email, user_uuid, created_at FROM agents ORDER BY name")?;
    let rows = stmt.query_map([], |r| {
        Ok(Agent {
            name: r.get(0)?,
            email: r.get(1)?,
            user_uuid: r.get(2)?,
            created_at: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Removes an agent: its token is refused from now on.
pub fn remove(store: &Store, name: &str) -> Result<(), HubError> {
    check_name(name)?;
    let n = store.conn().execute("DELETE FROM agents WHERE name = ?1", [name])?;
    if n == 0 {
        return Err(HubError::Usage(format!("no agent named {name}")));
    }
    Ok(())
}

/// The agent a token belongs to, if it is still valid.
pub fn by_token(store: &Store, token: &str) -> Result<Option<Agent>, HubError> {
    by_hash(store, &hash_token(token))
}

/// The agent whose token hashes to `hash`, if still there.
pub fn by_hash(store: &Store, hash: &str) -> Result<Option<Agent>, HubError> {
    Ok(store
        .conn()
        .query_row(
            "SELECT name, email, user_uuid, created_at FROM agents WHERE token_hash = ?1",
            [hash],
            |r| {
                Ok(Agent {
                    name: r.get(0)?,
                    email: r.get(1)?,
                    user_uuid: r.get(2)?,
                    created_at: r.get(3)?,
                })
            },
        )
        .optional()?)
}
