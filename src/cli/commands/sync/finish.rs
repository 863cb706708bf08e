//! What every way of syncing ends with: search rows for what was stored
//! without them, the notice that the index started over, and the error a
//! failed sync becomes.

use crate::cli::commands::shared::index_err;
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::index::Index;
use crate::index::sync::{STARTED_OVER, SyncError};

pub(crate) fn sync_err(e: SyncError) -> CliError {
    match e {
        SyncError::Api(source) => CliError::Api {
            what: "syncing the local index".into(),
            source,
        },
        SyncError::Index(e) => index_err(e),
    }
}

/// Contacts stored without search rows (a hub's snapshot into an empty
/// index, or one that ended half-way) get them now: a command has no
/// screen to show first.
pub(super) fn finish_search(index: &mut Index) -> Result<(), CliError> {
    if index.search_pending().map_err(index_err)? {
        index.build_all_search().map_err(index_err)?;
    }
    Ok(())
}

/// The one line saying the index started over, on stderr.
pub(super) fn started_over(ctx: &mut Ctx<'_>) {
    let _ = writeln!(ctx.err, "frontdesk: notice: {STARTED_OVER}");
}
