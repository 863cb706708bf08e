//! The client side of the hub against a small fake hub (an axum router on
//! 127.0.0.1:0 speaking the hub's wire protocol): the event stream with
//! reconnection and `Last-Event-ID`, the snapshot into the local index, and
//! the CLI going through the hub with the agent token.

#[path = "hub_client/cli.rs"]
mod cli;
mod common;
#[path = "hub_client/fake.rs"]
mod fake;
#[path = "hub_client/snapshot.rs"]
mod snapshot;
#[path = "hub_client/stream.rs"]
mod stream;
