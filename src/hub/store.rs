//! The hub's own SQLite file (`hub.sqlite` under the data dir, 0600): its
//! agents (token hashes only), the audit log, the high-water mark of
//! event ids, who sent which message and the team's snoozes. The account's index is a separate file (`index.sqlite`).
//! The hub process and `frontdesk hub agents …` open it at the same time
//! (WAL), so an agent removed on the command line is refused at once.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use super::error::HubError;

/// Each entry takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE agents (
        name TEXT PRIMARY KEY,
        email TEXT NOT NULL,
        user_uuid TEXT,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
    );
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        agent TEXT NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        status INTEGER NOT NULL,
        contact TEXT
    );
    CREATE INDEX audit_by_time ON audit (at);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
    // Messages sent through the hub, by agent (see `sent`), and the
    // team's snoozes (see `snoozes`).
    "CREATE TABLE sent (
        id INTEGER PRIMARY KEY,
        message TEXT,
        listed TEXT,
        contact TEXT,
        recipient TEXT NOT NULL,
        text TEXT,
        agent TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE INDEX sent_by_message ON sent (message);
    CREATE INDEX sent_by_listed ON sent (listed);
    CREATE INDEX sent_by_time ON sent (at);
    CREATE TABLE snoozes (
        contact TEXT PRIMARY KEY,
        until TEXT,
        until_reply INTEGER NOT NULL,
        since TEXT NOT NULL,
        agent TEXT NOT NULL
    );",
];

/// Tables of the delivery side, made when missing (outside the numbered
/// migrations, so they never collide with another part's next step):
/// digests of recent deliveries (redeliveries are recognized across
/// restarts), the reason each conversation was last closed for, and the
/// sends whose webhook came back (see `sent::echo`).
const HOOK_TABLES: &str = "CREATE TABLE IF NOT EXISTS deliveries (
        digest BLOB PRIMARY KEY,
        at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS deliveries_by_time ON deliveries (at);
    CREATE TABLE IF NOT EXISTS closings (
        contact TEXT PRIMARY KEY,
        closed_at TEXT,
        reason TEXT
    );
    CREATE TABLE IF NOT EXISTS echoes (sent INTEGER PRIMARY KEY);";

/// Adds the agents' columns of issue 34 (`agents.rs`) to a file written
/// before it: agents already there keep working as `agent`s without
/// expiry. Run by `Store::open` inside its migration transaction.
pub(super) fn upgrade_agents(conn: &rusqlite::Connection) -> Result<(), rusqlite::Error> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info('agents')")?;
    let cols = stmt
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    if !cols.iter().any(|c| c == "role") {
        conn.execute_batch("ALTER TABLE agents ADD COLUMN role TEXT NOT NULL DEFAULT 'agent';")?;
    }
    if !cols.iter().any(|c| c == "expires_at") {
        conn.execute_batch("ALTER TABLE agents ADD COLUMN expires_at TEXT;")?;
    }
    Ok(())
}

/// The hub's file, shared by the tasks of one process.
#[derive(Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
    path: PathBuf,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

/// The file's name inside the data dir.
pub const FILE: &str = "hub.sqlite";

impl Store {
    /// Opens (creating when new) `hub.sqlite` in `data_dir`; the directory
    /// is made private (0700) and refused when others could tamper with it.
    pub fn open(data_dir: &Path) -> Result<Store, HubError> {
        crate::index::private::ensure_dir(data_dir).map_err(HubError::Config)?;
        let path = data_dir.join(FILE);
        crate::index::private::file_options()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| HubError::Config(format!("cannot open {}: {e}", path.display())))?;
        let mut conn = Connection::open(&path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let start = usize::try_from(version).unwrap_or(usize::MAX);
        if start > MIGRATIONS.len() {
            return Err(HubError::Config(format!(
                "{} was written by a newer frontdesk (schema {version})",
                path.display()
            )));
        }
        for step in MIGRATIONS.iter().skip(start) {
            tx.execute_batch(step)?;
        }
        tx.execute_batch(&format!("PRAGMA user_version = {};", MIGRATIONS.len()))?;
        tx.execute_batch(HOOK_TABLES)?;
        upgrade_agents(&tx)?;
        tx.commit()?;
        Ok(Store {
            conn: Arc::new(Mutex::new(conn)),
            path,
        })
    }

    /// The file behind the store.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for one short piece of work (never across an await).
    pub fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn meta(&self, key: &str) -> Result<Option<String>, HubError> {
        Ok(self
            .conn()
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), HubError> {
        self.conn().execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = ?2",
            params![key, value],
        )?;
        Ok(())
    }

    /// SQLite's `data_version`: it changes when another connection (the
    /// `agents` command) commits to the file.
    pub fn data_version(conn: &Connection) -> Result<i64, HubError> {
        Ok(conn.query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }

    /// Keeps a delivery's digest; true when it was not kept already.
    pub fn first_delivery(&self, digest: &[u8; 32], now: i64) -> Result<bool, HubError> {
        let n = self.conn().execute(
            "INSERT OR IGNORE INTO deliveries (digest, at) VALUES (?1, ?2)",
            params![&digest[..], now],
        )?;
        Ok(n == 1)
    }

    /// Forgets a delivery's digest (it could not be queued).
    pub fn forget_delivery(&self, digest: &[u8; 32]) -> Result<(), HubError> {
        self.conn()
            .execute("DELETE FROM deliveries WHERE digest = ?1", params![&digest[..]])?;
        Ok(())
    }

    /// Forgets digests kept before `before` (unix seconds).
    pub fn prune_deliveries(&self, before: i64) -> Result<usize, HubError> {
        Ok(self.conn().execute("DELETE FROM deliveries WHERE at < ?1", [before])?)
    }

    /// Keeps why a conversation was closed (the service's `closingReason`).
    pub fn set_closing(
        &self,
        contact: &str,
        closed_at: Option<chrono::DateTime<chrono::Utc>>,
        reason: Option<&str>,
    ) -> Result<(), HubError> {
        self.conn().execute(
            "INSERT INTO closings (contact, closed_at, reason) VALUES (?1, ?2, ?3)
             ON CONFLICT (contact) DO UPDATE SET closed_at = ?2, reason = ?3",
            params![contact, closed_at.map(|t| t.to_rfc3339()), reason],
        )?;
        Ok(())
    }

    /// The reason a conversation was last closed for, when the service gave one.
    pub fn closing_reason(&self, contact: &str) -> Result<Option<String>, HubError> {
        Ok(self
            .conn()
            .query_row("SELECT reason FROM closings WHERE contact = ?1", [contact], |r| {
                r.get(0)
            })
            .optional()?
            .flatten())
    }
}
