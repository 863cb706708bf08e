//! The client side of the team hub (`frontdesk hub`): its event stream and
//! its snapshot. The service's own paths go through [`crate::api::Client`]
//! pointed at `<hub>/v1` with the agent token; this module speaks the hub's
//! own protocol under `<hub>/hub/v1` (see `shared/design.md`, "The team
//! hub"), written from the wire format, not from the hub's Rust types.

mod apply;
mod client;
mod events;
mod preview;
mod reports;
mod snapshot;
mod sse;
mod stream;

pub use apply::apply_to_index;
pub use events::{
    BadEvent, ConversationChange, HubEvent, Presence, PresenceState, ServiceState, ServiceStatus, SnoozeChange,
};
pub use preview::LinePreview;
pub use reports::{HubCounts, HubViewCount, ReportSpan};
pub use snapshot::{SnapshotHeader, SnapshotReport};
pub use sse::{SseEvent, SseParser};
pub use stream::{Backoff, HubItem, HubStream};

pub use client::{HubClient, REFUSED_TOKEN, TeamSnooze, TimelineEvent, WhoAmI, hub_root};

#[cfg(test)]
mod tests;
