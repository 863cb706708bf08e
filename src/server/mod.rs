//! The embedded reference server: a faithful implementation of
//! `spec/api.md` (plus `spec/extensions.md`) on axum and SQLite.
//!
//! It is the demo backend and the fixture the tests run against. It shares
//! nothing with the client in `src/api` but the wire format: all row and JSON
//! types here are its own.
//!
//! Decisions where the reference leaves room (clients must not depend on
//! more than extensions.md promises):
//! - Every list is 20 per page; events take `items` (1..=100, default 20).
//! - GET /contacts `tags=a,b` keeps contacts carrying *all* listed tags
//!   (ASCII case-insensitive); an unknown tag or team simply matches nothing.
//! - Order is the conversation's latest activity desc (kept internally, never
//!   shown: the service has no `lastMessageAt`), then id desc. Cursors are keyset
//!   positions plus the highest contact id at the walk's start. A contact
//!   whose activity changes during a walk may move out of its unread part.
//! - Contacts carry what the documentation's Contact object adds to the
//!   reference (`channel`, `bsuid` where known, `blockedAt`, `note`) and
//!   nothing of our own.
//! - POST /contacts and POST /custom_statuses answer 201, other writes 200,
//!   deletes of messages 204. Validation errors are keyed by body field, a
//!   custom field as `custom_fields.<name>`; the 24-hour rule under `content`.
//! - A send-request moves enqueued → sent → delivered → read, one step per
//!   `status_step_ms` (2 s) since it was made; computed from the server's
//!   [`Clock`], no timers.
//! - Limits, paging past the end, connection timeouts, the `--db` checks and
//!   the key's storage: `docs/server.md`.

mod activity;
mod clock;
mod config;
mod cursor;
mod db;
mod error;
mod faults;
mod knobs;
mod listen;
mod manifest;
mod process;
mod routes;
mod running;
mod seed;
mod seed_docs;
mod seed_text;
mod state;
mod validate;
mod webhooks;

pub use clock::Clock;
pub use config::{Paging, ServeOptions, ServerConfig};
pub use error::ServerError;
pub use knobs::{FaultKnobs, HoldGate};
pub use manifest::{Manifest, ManifestChannel, ManifestField, ManifestStatus, ManifestTeam, ManifestUser};
pub(crate) use process::init_stderr_logging;
pub use process::run;
pub(crate) use running::stop_serving;
pub use running::{RunningServer, start};
