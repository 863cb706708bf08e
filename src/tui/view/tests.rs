//! View snapshots.
