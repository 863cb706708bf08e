//! SQLite schema and small shared helpers (time formats, identifiers).
//!
//! Times are stored as integer milliseconds since the epoch (UTC) so they sort
//! and compare cheaply; they are formatted on the way out.

use chrono::{DateTime, SecondsFormat, TimeZone, Utc};
use rand::Rng;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use sha2::{Digest, Sha256};

use super::error::ServerError;

pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
  available INTEGER NOT NULL, available_at INTEGER NOT NULL,
  custom_status_id INTEGER, custom_status_at INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1, confirmed INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS teams (
  id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
  created_at INTEGER NOT NULL, is_default INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS team_members (team_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
  PRIMARY KEY (team_id, user_id));
CREATE TABLE IF NOT EXISTS channels (
  id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, title TEXT NOT NULL, type TEXT NOT NULL,
  main INTEGER NOT NULL, phone TEXT NOT NULL, active INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS funnels (
  id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, name TEXT NOT NULL, emoji TEXT NOT NULL,
  position INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS custom_fields (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, type TEXT NOT NULL, options TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS custom_statuses (
  id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, name TEXT NOT NULL, emoji TEXT NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS templates (
  id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, title TEXT NOT NULL, template_type TEXT NOT NULL,
  category TEXT NOT NULL, status TEXT NOT NULL, text TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS contacts (
  id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, conversation_uuid TEXT NOT NULL,
  name TEXT NOT NULL, phone TEXT, avatar_url TEXT, created_at INTEGER NOT NULL,
  source TEXT NOT NULL, assigned_user TEXT, team_id INTEGER, channel_id INTEGER,
  closed_at INTEGER, funnel_uuid TEXT NOT NULL, note TEXT,
  tags TEXT NOT NULL DEFAULT '[]', custom_fields TEXT NOT NULL DEFAULT '{}',
  bot_status TEXT, bot_started_at INTEGER,
  last_activity INTEGER NOT NULL, bsuid TEXT, blocked_at INTEGER);
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY, uuid TEXT UNIQUE, contact_id INTEGER NOT NULL, text TEXT NOT NULL,
  created_at INTEGER NOT NULL, status TEXT NOT NULL, channel TEXT NOT NULL,
  sender TEXT NOT NULL, recipient TEXT NOT NULL,
  attachments TEXT, rich TEXT, metadata TEXT);
CREATE TABLE IF NOT EXISTS send_requests (
  id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, status_id TEXT NOT NULL,
  app_message_id TEXT NOT NULL, contact_id INTEGER NOT NULL, destination TEXT NOT NULL,
  created_at INTEGER NOT NULL, reported_step INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS webhook_events (
  id INTEGER PRIMARY KEY, event TEXT NOT NULL, payload TEXT NOT NULL, response TEXT NOT NULL,
  success INTEGER NOT NULL, created_at INTEGER NOT NULL);
"#;

/// Indexes are created after the bulk seed: building them once is faster
/// than maintaining them row by row.
pub const INDEXES: &str = r#"
CREATE INDEX IF NOT EXISTS idx_contacts_activity ON contacts (last_activity, id);
CREATE INDEX IF NOT EXISTS idx_contacts_phone ON contacts (phone);
CREATE INDEX IF NOT EXISTS idx_contacts_bsuid ON contacts (bsuid);
CREATE INDEX IF NOT EXISTS idx_messages_contact ON messages (contact_id, created_at, id);
CREATE INDEX IF NOT EXISTS idx_events_created ON webhook_events (created_at, id);
"#;

/// `PRAGMA application_id` of a frontdesk database ("FDSK").
pub const APPLICATION_ID: i32 = 0x4644_534B;
/// `PRAGMA user_version`: the schema this code reads and writes.
/// 2: contacts' bsuid and blockedAt, channels' active flag, messages'
/// attachments, rich fields and metadata.
pub const SCHEMA_VERSION: i32 = 2;

/// Open the database (in memory without a path) and make sure it is ours:
/// a file is created owner-only, must pass `quick_check`, and must be empty
/// or carry frontdesk's application id and schema version; anything else
/// is refused before a table is touched. Returns whether it needs seeding.
pub fn open(path: Option<&Path>) -> Result<(Connection, bool), ServerError> {
    let mut conn = match path {
        Some(p) => open_file(p)?,
        None => Connection::open_in_memory()?,
    };
    // Read-then-write transactions take the write lock up front, so a
    // second server on the same file waits (busy_timeout) instead of
    // failing with SQLITE_BUSY halfway through.
    conn.set_transaction_behavior(TransactionBehavior::Immediate);
    conn.execute_batch(SCHEMA)?;
    let fresh = get_setting(&conn, "seeded")?.is_none();
    Ok((conn, fresh))
}

fn open_file(p: &Path) -> Result<Connection, ServerError> {
    create_owner_only(p)?;
    let damaged = |e: &dyn std::fmt::Display| {
        ServerError::Config(format!(
            "the database {} is damaged or not an SQLite file ({e}); restore it or start with a new file",
            p.display()
        ))
    };
    let conn = Connection::open(p)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    let check: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|e| damaged(&e))?;
    if check != "ok" {
        return Err(damaged(&check));
    }
    let tables: i64 = conn
        .query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))
        .map_err(|e| damaged(&e))?;
    let app_id: i32 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
    let version: i32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if tables == 0 {
        conn.pragma_update(None, "application_id", APPLICATION_ID)?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    } else if app_id != APPLICATION_ID {
        return Err(ServerError::Config(format!(
            "{} is not a frontdesk database (it holds other tables); choose a new file for --db",
            p.display()
        )));
    } else if version != SCHEMA_VERSION {
        return Err(ServerError::Config(format!(
            "{} has frontdesk schema version {version}; this build reads version {SCHEMA_VERSION}",
            p.display()
        )));
    }
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(conn)
}

/// Create the file readable by its owner only (SQLite gives its -wal and
/// -shm files the same mode); an existing file is left as it is.
fn create_owner_only(p: &Path) -> Result<(), ServerError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(p) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(ServerError::Config(format!(
            "cannot create the database {}: {e}",
            p.display()
        ))),
    }
}

/// SHA-256 of the API key: all the database keeps of it.
pub fn key_hash(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

pub fn get_setting(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| r.get(0))
        .optional()
}

pub fn set_setting(conn: &Connection, key: &str, value: &str) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO settings (key, value) VALUES (?1, ?2)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        params![key, value],
    )?;
    Ok(())
}

fn dt(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

/// ISO 8601 UTC with a trailing `Z`, e.g. `2025-01-31T09:15:00.000Z`.
pub fn iso(ms: i64) -> String {
    dt(ms).to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// RFC 3339 with a numeric offset and fractional seconds (user status).
pub fn rfc3339_offset(ms: i64) -> String {
    dt(ms).to_rfc3339_opts(SecondsFormat::Micros, false)
}

/// `YYYY-MM-DD HH:MM:SS +0000` (funnels and custom statuses).
pub fn legacy(ms: i64) -> String {
    dt(ms).format("%Y-%m-%d %H:%M:%S +0000").to_string()
}

/// 32 lowercase hex characters.
pub fn hex32(rng: &mut impl Rng) -> String {
    format!("{:016x}{:016x}", rng.random::<u64>(), rng.random::<u64>())
}

/// Hyphenated 8-4-4-4-12 uuid (version 4 bits set).
pub fn hyphenated(rng: &mut impl Rng) -> String {
    let mut b: [u8; 16] = rng.random();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

#[cfg(test)]
mod tests;
