//! What can stop the hub.

/// What can stop the hub.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("{0}")]
    Config(String),
    #[error("{0}")]
    Usage(String),
    #[error("the hub's file failed: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("the hub's index failed: {0}")]
    Index(#[from] crate::index::IndexError),
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}
