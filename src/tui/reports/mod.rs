//! The Reports screen (`S`): what a lead asks each morning, drawn from the
//! local index with no API request. Opened and closed per day as bars, the
//! first response time per day as a line with its p90, what waits now as a
//! histogram, and one row per agent, team or tag with a sparkline.
//!
//! The figures are `crate::report`'s (the same as `frontdesk report`); this
//! slice asks for them (`ReportsEffect::Compute`, run on the blocking pool
//! against the index) and draws them. It reads only `Cx`/`ViewCx`.

mod fx;
mod msg;
mod state;
mod update;
mod view;

#[cfg(test)]
mod tests;

pub use fx::{ReportsEffect, perform};
pub use msg::ReportsMsg;
pub use state::{Reports, SPANS};
pub use update::{key, on_msg, open};
pub use view::render;

/// The slice's state.
pub type State = Reports;
