//! Agents and their tokens. A token is shown once, when the agent is
//! added; the file keeps only its SHA-256. Only the hub's command line
//! adds and removes agents: no token grants that. Each agent has a role
//! (`agent` or `admin`, see `route`) and its token may expire.

use chrono::{DateTime, SecondsFormat, Utc};
use rand::RngCore;
use rusqlite::{OptionalExtension, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::error::HubError;
use super::store::Store;

/// One agent of the team, as the hub knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Agent {
    pub name: String,
    pub email: String,
    pub user_uuid: Option<String>,
    pub created_at: String,
    pub role: Role,
    /// When its token stops working (RFC 3339), if ever.
    pub expires_at: Option<String>,
}

/// What an agent's token reaches of the service (see `route`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// What an agent does in the inbox.
    #[default]
    Agent,
    /// Also the account's settings: webhook, renames, custom statuses, others' status.
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Agent => "agent",
            Role::Admin => "admin",
        }
    }

    fn parse(s: &str) -> Role {
        if s == "admin" { Role::Admin } else { Role::Agent }
    }
}

impl Agent {
    /// True once its token's expiry has passed.
    pub fn expired(&self, now: DateTime<Utc>) -> bool {
        self.expires_at
            .as_deref()
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .is_some_and(|t| t <= now)
    }
}

const COLUMNS: &str = "name, email, user_uuid, created_at, role, expires_at";

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Agent> {
    Ok(Agent {
        name: r.get(0)?,
        email: r.get(1)?,
        user_uuid: r.get(2)?,
        created_at: r.get(3)?,
        role: Role::parse(&r.get::<_, String>(4)?),
        expires_at: r.get(5)?,
    })
}

/// `30d`, `12h`, `90m` or `3600s` (a bare number is days) as a duration.
pub fn parse_lifetime(s: &str) -> Result<chrono::Duration, HubError> {
    let s = s.trim();
    let (num, unit) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&s[..i], c),
        _ => (s, 'd'),
    };
    let n: i64 = num
        .parse()
        .ok()
        .filter(|n| *n > 0 && *n <= 3650 * 86_400)
        .ok_or_else(|| {
            HubError::Usage(format!(
                "--expires {:?} must be a positive number followed by d, h, m or s (30d)",
                crate::text::sanitize_line(s)
            ))
        })?;
    let secs = match unit {
        'd' => n.checked_mul(86_400),
        'h' => n.checked_mul(3600),
        'm' => n.checked_mul(60),
        's' => Some(n),
        _ => None,
    }
    .filter(|s| *s <= 3650 * 86_400)
    .ok_or_else(|| HubError::Usage("--expires takes d, h, m or s, at most 10 years (30d)".to_string()))?;
    Ok(chrono::Duration::seconds(secs))
}

fn expiry(lifetime: Option<chrono::Duration>) -> Option<String> {
    lifetime.map(|d| (Utc::now() + d).to_rfc3339_opts(SecondsFormat::Secs, true))
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
    add_with(store, name, email, user_uuid, Role::Agent, None)
}

/// Adds an agent with `role` whose token lasts `lifetime` (forever when
/// `None`); returns its token (the only time it is shown).
pub fn add_with(
    store: &Store,
    name: &str,
    email: &str,
    user_uuid: Option<&str>,
    role: Role,
    lifetime: Option<chrono::Duration>,
) -> Result<String, HubError> {
    check_name(name)?;
    check_email(email)?;
    if let Some(u) = user_uuid {
        check_user_uuid(u)?;
    }
    let token = new_token();
    let at = Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true);
    let inserted = store.conn().execute(
        "INSERT INTO agents (name, email, user_uuid, token_hash, created_at, role, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (name) DO NOTHING",
        params![
            name,
            email,
            user_uuid,
            hash_token(&token),
            at,
            role.as_str(),
            expiry(lifetime)
        ],
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
    let mut stmt = conn.prepare(&format!("SELECT {COLUMNS} FROM agents ORDER BY name"))?;
    let rows = stmt.query_map([], from_row)?;
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
            &format!("SELECT {COLUMNS} FROM agents WHERE token_hash = ?1"),
            [hash],
            from_row,
        )
        .optional()?)
}

/// Gives `name` a new token (returned, shown once) and, when `lifetime`
/// is given, a new expiry; the old token is refused from now on and its
/// open streams end.
pub fn rotate(store: &Store, name: &str, lifetime: Option<chrono::Duration>) -> Result<String, HubError> {
    check_name(name)?;
    let token = new_token();
    let n = store.conn().execute(
        "UPDATE agents SET token_hash = ?2, expires_at = ?3 WHERE name = ?1",
        params![name, hash_token(&token), expiry(lifetime)],
    )?;
    if n == 0 {
        return Err(HubError::Usage(format!("no agent named {name}")));
    }
    Ok(token)
}

/// Changes `name`'s role.
pub fn set_role(store: &Store, name: &str, role: Role) -> Result<(), HubError> {
    check_name(name)?;
    let n = store.conn().execute(
        "UPDATE agents SET role = ?2 WHERE name = ?1",
        params![name, role.as_str()],
    )?;
    if n == 0 {
        return Err(HubError::Usage(format!("no agent named {name}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::store::upgrade_agents;

    #[test]
    fn agents_of_a_file_from_before_roles_become_agents() {
        let conn = rusqlite::Connection::open_in_memory().expect("db");
        conn.execute_batch(
            "CREATE TABLE agents (name TEXT PRIMARY KEY, email TEXT NOT NULL, user_uuid TEXT,
             token_hash TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL);
             INSERT INTO agents VALUES ('dana', 'dana@example.com', NULL, 'h', '2026-01-01T00:00:00Z');",
        )
        .expect("old schema");
        upgrade_agents(&conn).expect("upgraded");
        upgrade_agents(&conn).expect("twice is harmless");
        let a = conn
            .query_row(&format!("SELECT {COLUMNS} FROM agents"), [], from_row)
            .expect("row");
        assert_eq!((a.role, a.expires_at.as_deref()), (Role::Agent, None));
        assert!(!a.expired(Utc::now()));
    }

    #[test]
    fn lifetimes_read_as_days_hours_minutes_seconds() {
        assert_eq!(parse_lifetime("30d").expect("30d").num_days(), 30);
        assert_eq!(parse_lifetime("12h").expect("12h").num_hours(), 12);
        assert_eq!(parse_lifetime("7").expect("7").num_days(), 7);
        for bad in ["", "d", "0d", "-1d", "3w", "99999d", "1.5d"] {
            assert!(parse_lifetime(bad).is_err(), "{bad:?}");
        }
    }
}
