//! Opening the index file: permissions, pragmas, and what to do with a file
//! that cannot be used.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::Utc;
use rusqlite::{Connection, ErrorCode};

use super::db::{Index, Opened};
use super::error::IndexError;
use super::private;
use super::schema::{self, Unusable};

/// How long a write waits for another process's write to finish.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

enum Failure {
    /// Move the file aside and start afresh.
    MoveAside(String),
    /// Another process holds it: use memory this time.
    Locked(String),
    Other(IndexError),
}

impl Index {
    /// Opens (or creates) the index at `path`. See the module's notes for
    /// what happens to a file that cannot be used.
    pub fn open(path: &Path) -> Result<Opened, IndexError> {
        open(path)
    }
}

pub fn open(path: &Path) -> Result<Opened, IndexError> {
    prepare(path)?;
    match open_waiting(path) {
        Ok(index) => Ok(Opened { index, warning: None }),
        Err(Failure::Other(e)) => Err(e),
        Err(Failure::Locked(why)) => Ok(Opened {
            index: Index::in_memory()?,
            warning: Some(format!(
                "the local index {} is busy ({why}); using a temporary one in memory",
                path.display()
            )),
        }),
        Err(Failure::MoveAside(why)) => {
            let aside = move_aside(path)?;
            prepare(path)?;
            let index = try_open(path, OPEN_PATIENCE).map_err(|f| match f {
                Failure::Other(e) => e,
                Failure::Locked(w) | Failure::MoveAside(w) => IndexError::Io(w),
            })?;
            Ok(Opened {
                index,
                warning: Some(format!(
                    "the local index {} {why}; moved it to {} and started a new one",
                    path.display(),
                    aside.display()
                )),
            })
        }
    }
}

/// The directory (0700 when created, refused when others could tamper
/// with it) and the file (0600 when created, never through a symlink)
/// exist before SQLite opens it; SQLite gives its -wal and -shm files the
/// file's mode.
fn prepare(path: &Path) -> Result<(), IndexError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        private::ensure_dir(dir).map_err(IndexError::Io)?;
    }
    let io = |e: std::io::Error| IndexError::Io(format!("{}: {e}", path.display()));
    let file = private::file_options()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io)?;
    #[cfg(unix)]
    {
        // A file an older frontdesk left readable by others.
        use std::os::unix::fs::PermissionsExt;
        if file.metadata().map_err(io)?.permissions().mode() & 0o077 != 0 {
            file.set_permissions(std::fs::Permissions::from_mode(0o600))
                .map_err(io)?;
        }
    }
    Ok(())
}

fn classify(e: rusqlite::Error) -> Failure {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => Failure::MoveAside("is corrupt".into()),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Failure::Locked(e.to_string()),
        _ => Failure::Other(e.into()),
    }
}

/// Two processes opening one new file race to switch it to WAL and to
/// create the schema; SQLite answers the loser "locked" at once, without
/// its busy handler. Try again until [`OPEN_PATIENCE`] has passed, in all,
/// before giving up on the file: a file whose write lock another process
/// holds that long is treated as locked (memory this time), so a stuck
/// process delays a start by seconds, never minutes.
fn open_waiting(path: &Path) -> Result<Index, Failure> {
    let step = Duration::from_millis(50);
    let deadline = Instant::now() + OPEN_PATIENCE;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match try_open(path, left.max(step)) {
            Err(Failure::Locked(_)) if Instant::now() + step < deadline => std::thread::sleep(step),
            other => return other,
        }
    }
}

/// How long opening waits, in all, for another process that is setting
/// the file up or writing to it.
pub const OPEN_PATIENCE: Duration = Duration::from_secs(2);

/// Opens and migrates the file, waiting at most `patience` for a lock;
/// once open, writes wait up to [`BUSY_TIMEOUT`].
fn try_open(path: &Path, patience: Duration) -> Result<Index, Failure> {
    let mut conn = Connection::open(path).map_err(classify)?;
    conn.busy_timeout(patience).map_err(classify)?;
    match schema::check(&conn).map_err(classify)? {
        Some(Unusable::Newer(v)) => {
            return Err(Failure::MoveAside(format!(
                "was written by a newer frontdesk (schema {v}, this one reads up to {})",
                schema::VERSION
            )));
        }
        Some(Unusable::Foreign) => return Err(Failure::MoveAside("is not a frontdesk index".into())),
        None => {}
    }
    let check = integrity_due(&conn, path);
    if check && let Some(damage) = damage(&conn).map_err(classify)? {
        return Err(Failure::MoveAside(format!("is damaged ({damage})")));
    }
    conn.pragma_update(None, "journal_mode", "WAL").map_err(classify)?;
    conn.pragma_update(None, "synchronous", "NORMAL").map_err(classify)?;
    super::schema::configure(&conn).map_err(classify)?;
    // Takes the write lock even when there is nothing to migrate: it is
    // the probe that tells a file another process holds from a usable one.
    schema::migrate(&mut conn).map_err(classify)?;
    if check {
        let now = super::stamps::stamp(Utc::now());
        if let Err(e) = conn.execute("UPDATE sync_state SET checked_at = ?1 WHERE id = 1", [now]) {
            tracing::debug!("recording the integrity check: {e}");
        }
    }
    conn.busy_timeout(BUSY_TIMEOUT).map_err(classify)?;
    Ok(Index {
        conn,
        path: Some(path.to_path_buf()),
        journal: None,
        outside: super::db::Outside::default(),
    })
}

/// A file up to this size is checked at every open (a few tens of
/// milliseconds); a bigger one once a day (at 100,000 contacts and their
/// messages, 270 MB, the check takes 0.6 s, more on a slow disk: too much
/// for every command). `doctor` always checks.
const ALWAYS_CHECK_UP_TO: u64 = 32 << 20;

/// How often a big file is checked at open.
const CHECK_EVERY: chrono::TimeDelta = chrono::TimeDelta::hours(24);

/// Whether opening `path` runs the quick check: see [`ALWAYS_CHECK_UP_TO`].
fn integrity_due(conn: &Connection, path: &Path) -> bool {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(u64::MAX);
    // No such column before schema 4: never checked.
    let last: Option<String> = conn
        .query_row("SELECT checked_at FROM sync_state WHERE id = 1", [], |r| r.get(0))
        .unwrap_or(None);
    check_due(size, super::stamps::parse_stamp(last), Utc::now())
}

pub(super) fn check_due(size: u64, last: Option<chrono::DateTime<Utc>>, now: chrono::DateTime<Utc>) -> bool {
    size <= ALWAYS_CHECK_UP_TO || last.is_none_or(|t| now - t >= CHECK_EVERY || t > now)
}

/// SQLite's quick check (every page of every table and index read once,
/// without cross-checking indexes against tables): `None` when sound, else
/// its first complaint. It notices pages damaged anywhere in the file, not
/// only a broken header.
pub(super) fn damage(conn: &Connection) -> Result<Option<String>, rusqlite::Error> {
    let verdict: String = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0))?;
    Ok((verdict != "ok").then(|| verdict.lines().next().unwrap_or_default().to_string()))
}

/// Renames the file (and its -wal/-shm) to `<name>.corrupt-<timestamp>`.
fn move_aside(path: &Path) -> Result<PathBuf, IndexError> {
    let stamp = Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
    let mut aside = path.as_os_str().to_owned();
    aside.push(format!(".corrupt-{stamp}"));
    let aside = PathBuf::from(aside);
    std::fs::rename(path, &aside).map_err(|e| IndexError::Io(format!("{}: {e}", path.display())))?;
    for suffix in ["-wal", "-shm"] {
        let mut side = path.as_os_str().to_owned();
        side.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(side));
    }
    Ok(aside)
}

/// What an index file holds, read without changing it (for `doctor`).
pub enum Health {
    /// No file yet.
    Missing,
    /// Ours and readable.
    Usable { contacts: i64 },
    /// Would be moved aside on the next open; says why.
    Unusable(String),
}

pub fn inspect(path: &Path) -> Health {
    if !path.exists() {
        return Health::Missing;
    }
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = match Connection::open_with_flags(path, flags) {
        Ok(c) => c,
        Err(e) => return Health::Unusable(e.to_string()),
    };
    match schema::check(&conn) {
        Err(e) => Health::Unusable(e.to_string()),
        Ok(Some(Unusable::Newer(v))) => Health::Unusable(format!("written by a newer frontdesk (schema {v})")),
        Ok(Some(Unusable::Foreign)) => Health::Unusable("not a frontdesk index".into()),
        Ok(None) => match damage(&conn) {
            Ok(Some(why)) => Health::Unusable(format!("damaged ({why})")),
            Err(e) => Health::Unusable(format!("damaged ({e})")),
            // A file created but not set up yet has no tables: nothing in it.
            Ok(None) => Health::Usable {
                contacts: conn
                    .query_row("SELECT count(*) FROM contacts", [], |r| r.get(0))
                    .unwrap_or(0),
            },
        },
    }
}
