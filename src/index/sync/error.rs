//! What stopped a sync.

use crate::api::ApiError;
use crate::index::error::IndexError;

/// What stopped a sync.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error(transparent)]
    Index(#[from] IndexError),
}
