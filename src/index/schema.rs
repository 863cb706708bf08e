//! The index's schema and its forward migrations. `PRAGMA user_version` is
//! the number of migrations applied; `PRAGMA application_id` marks the file
//! as ours.

use rusqlite::{Connection, TransactionBehavior};

/// 'FDIX': a file with another non-zero application id is not ours.
pub const APPLICATION_ID: i64 = 0x4644_4958;

/// Each entry takes the schema from version `i` to `i + 1`.
pub(super) const MIGRATIONS: &[&str] = &[
    // 1: contacts, messages, sync state and the search table.
    "CREATE TABLE contacts (
        uuid TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        phone TEXT NOT NULL,
        source TEXT NOT NULL,
        assignee TEXT,
        team_uuid TEXT,
        tags TEXT NOT NULL,
        custom_fields TEXT NOT NULL,
        closed_at TEXT,
        note TEXT,
        activity TEXT,
        created_at TEXT,
        json TEXT NOT NULL,
        seen_at TEXT NOT NULL
    );
    CREATE INDEX contacts_by_activity ON contacts (activity DESC, uuid DESC);
    CREATE TABLE messages (
        contact_uuid TEXT PRIMARY KEY,
        activity TEXT,
        fetched_at TEXT NOT NULL,
        json TEXT NOT NULL
    );
    CREATE TABLE sync_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        full_walk_finished_at TEXT,
        walk_started_at TEXT,
        walk_done INTEGER NOT NULL DEFAULT 0,
        walk_expected INTEGER
    );
    INSERT INTO sync_state (id) VALUES (1);
    CREATE VIRTUAL TABLE search USING fts5(
        name, phone, tags, fields, note, messages,
        tokenize = 'unicode61 remove_diacritics 2',
        prefix = '2 3'
    );",
    // 2: the last message of each cached page, for the list's previews.
    // Pages cached before it are marked stale (no activity), so they are
    // fetched again and get one.
    "ALTER TABLE messages ADD COLUMN last_status TEXT;
    ALTER TABLE messages ADD COLUMN last_text TEXT;
    ALTER TABLE messages ADD COLUMN last_at TEXT;
    UPDATE messages SET activity = NULL;
    CREATE INDEX contacts_open_by_activity ON contacts (activity DESC) WHERE closed_at IS NULL;",
    // 3: the words of the index, for typo-tolerant search (see
    // `search::typo`), filled from the search table's own vocabulary and
    // forgotten with the last contact.
    "CREATE TABLE search_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
    CREATE VIRTUAL TABLE temp.search_vocab_v3 USING fts5vocab(main, 'search', 'row');
    INSERT OR IGNORE INTO search_terms SELECT term FROM temp.search_vocab_v3
        WHERE length(term) BETWEEN 3 AND 40 AND term GLOB '*[^0-9]*';
    DROP TABLE temp.search_vocab_v3;
    CREATE TRIGGER search_terms_forget AFTER DELETE ON contacts
        WHEN NOT EXISTS (SELECT 1 FROM contacts)
        BEGIN DELETE FROM search_terms; END;",
    // 4: the fingerprint of the account the index holds (see
    // `sync::identity`), when the file last passed an integrity check
    // (see `open`), and the search table erasing what it deletes (FTS5's
    // secure-delete: a removed contact's words do not stay in its pages
    // until they are merged).
    "ALTER TABLE sync_state ADD COLUMN account TEXT;
    ALTER TABLE sync_state ADD COLUMN checked_at TEXT;
    INSERT INTO search (search, rank) VALUES ('secure-delete', 1);",
    // 5: per contact, the time of the newest state the index holds (when
    // the answer that carried it was asked for, or a write's answer came):
    // an older answer arriving late never replaces a newer state.
    "ALTER TABLE contacts ADD COLUMN state_at TEXT;",
    // 6: contacts stored without their search rows (a new agent's snapshot,
    // see `bulk`): set until a build has written every missing row.
    "ALTER TABLE sync_state ADD COLUMN search_pending INTEGER NOT NULL DEFAULT 0;",
    // 7: what each cached page says about waiting (`preview::Wait`): a
    // bot's answer or a note no longer ends it. Pages that do not end with
    // the customer's message are fetched again to learn it.
    "ALTER TABLE messages ADD COLUMN wait TEXT;
    UPDATE messages SET activity = NULL WHERE last_status IS NOT 'received';",
];

/// The schema version this build writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// Why an existing file cannot be used.
#[derive(Debug)]
pub enum Unusable {
    /// Written by a newer frontdesk.
    Newer(i64),
    /// Another program's database.
    Foreign,
}

/// Whether the file's header says it is ours and not newer.
///
/// The three reads share one transaction: read one by one, a second process
/// committing its first migration in between would make a fresh file look
/// like another program's (tables, but no id yet) and get it moved aside.
pub fn check(conn: &Connection) -> Result<Option<Unusable>, rusqlite::Error> {
    let tx = conn.unchecked_transaction()?;
    let app: i64 = tx.query_row("PRAGMA application_id", [], |r| r.get(0))?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let tables: i64 = tx.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
    tx.commit()?;
    if app != APPLICATION_ID && (app != 0 || tables > 0) {
        return Ok(Some(Unusable::Foreign));
    }
    if version > VERSION {
        return Ok(Some(Unusable::Newer(version)));
    }
    Ok(None)
}

/// What each connection sets: deleted content is overwritten with zeros
/// (in the file and in the pages the WAL holds), so a removed contact's
/// text does not stay readable in free pages.
pub fn configure(conn: &Connection) -> Result<(), rusqlite::Error> {
    conn.pragma_update(None, "secure_delete", "ON")
}

/// Applies the migrations the file lacks, in one write transaction, so two
/// processes opening a fresh file do not both migrate it.
pub fn migrate(conn: &mut Connection) -> Result<(), rusqlite::Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let start = usize::try_from(version).unwrap_or(usize::MAX);
    for step in MIGRATIONS.iter().skip(start) {
        tx.execute_batch(step)?;
    }
    if version < VERSION {
        tx.execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {VERSION};"
        ))?;
    }
    tx.commit()
}
