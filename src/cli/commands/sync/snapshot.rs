//! The index filled from a hub's snapshot, for `sync`, `sync --follow` and
//! the commands that refresh the index first.

use super::finish::{finish_search, started_over, sync_err};
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::Progress;
use crate::hubclient::SnapshotReport;
use crate::index::Index;

/// With a hub configured: the index filled from the hub's snapshot instead
/// of a walk of the account. `None` without a hub.
pub(super) async fn from_hub(
    ctx: &mut Ctx<'_>,
    index: &mut Index,
    label: &str,
) -> Result<Option<SnapshotReport>, CliError> {
    let Some(hub) = ctx.settings()?.hub().map_err(|e| CliError::Usage(e.to_string()))? else {
        return Ok(None);
    };
    let mut pb = Progress::new(ctx.progress, label, "contacts");
    let report = hub
        .snapshot_into(index, &mut |done, expected| {
            pb.set_length(expected.max(done));
            pb.set_position(done);
        })
        .await;
    pb.finish_and_clear();
    finish_search(index)?;
    let report = report.map_err(sync_err)?;
    if report.started_over {
        started_over(ctx);
    }
    if report.skipped > 0 {
        let _ = writeln!(
            ctx.err,
            "frontdesk: warning: {} contacts of the hub's snapshot could not be read and were skipped",
            report.skipped
        );
    }
    Ok(Some(report))
}
