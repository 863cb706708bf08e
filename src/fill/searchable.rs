//! Search rows for contacts stored without them (a new agent's snapshot
//! from the hub goes in without them, so the views come first; or a build
//! the process left half done), written in chunks while the views are up:
//! each chunk holds the index for about a tenth of a second, and events
//! and commands are served in between.

use std::time::Duration;

use crate::index::{IndexAccess, SEARCH_CHUNK, SearchBuild, SharedIndex};

/// Between two chunks: 50 pauses at 100,000 contacts add 1 s.
const PAUSE: Duration = Duration::from_millis(20);

/// Builds every missing search row, telling `progress` (rows written, of
/// how many) after each chunk and `None` when it stops.
pub(super) async fn build(mut index: SharedIndex, progress: impl Fn(Option<(u64, u64)>)) {
    match index.with(|ix| ix.search_pending()) {
        Ok(true) => {}
        Ok(false) => return progress(None),
        Err(e) => {
            tracing::warn!("reading whether search rows are missing failed: {e}");
            return progress(None);
        }
    }
    let total = index.with(|ix| ix.search_missing()).unwrap_or(0);
    tracing::info!(total, "writing the search rows of contacts stored without them");
    let started = std::time::Instant::now();
    let mut at = SearchBuild::default();
    progress(Some((0, total)));
    while !at.done {
        match index.with(|ix| ix.build_search(at, SEARCH_CHUNK)) {
            Ok(next) => at = next,
            Err(e) => {
                tracing::warn!("writing search rows failed: {e}");
                return progress(None);
            }
        }
        progress(Some((at.written.min(total), total)));
        // A pause longer than a waiting search's retry (5 ms), so the
        // agent's `/` gets the index between chunks.
        tokio::time::sleep(PAUSE).await;
    }
    tracing::info!(
        written = at.written,
        secs = started.elapsed().as_secs_f64(),
        "search rows written"
    );
    progress(None);
}
