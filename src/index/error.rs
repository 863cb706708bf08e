//! What can go wrong using the index once it is open.

/// What can go wrong using the index once it is open.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("the local index failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the local index could not be stored: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the local index could not be opened: {0}")]
    Io(String),
}

impl IndexError {
    /// Another connection holds the file (a sync in another process).
    pub fn is_busy(&self) -> bool {
        matches!(
            self,
            IndexError::Sqlite(e) if matches!(
                e.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            )
        )
    }
}
