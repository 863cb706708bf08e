//! `frontdesk hub` (issue 20): the embedded server, a hub in front of it
//! and headless agents (plain reqwest clients), all on 127.0.0.1:0.

mod common;

#[path = "hub/support.rs"]
mod support;

#[path = "hub/agents.rs"]
mod agents;

#[path = "hub/process.rs"]
mod process;

#[path = "hub/forward.rs"]
mod forward;

#[path = "hub/receiver.rs"]
mod receiver;

#[path = "hub/stream.rs"]
mod stream;

#[path = "hub/tls.rs"]
mod tls;

#[path = "hub/merged.rs"]
mod merged;

#[path = "hub/reconcile.rs"]
mod reconcile;
#[path = "hub/shared.rs"]
mod shared;

#[path = "hub/audit_order.rs"]
mod audit_order;
#[path = "hub/cli_views.rs"]
mod cli_views;
#[path = "hub/deliveries.rs"]
mod deliveries;
#[path = "hub/redteam.rs"]
mod redteam;
#[path = "hub/redteam_conn.rs"]
mod redteam_conn;

#[path = "hub/timeline.rs"]
mod timeline;

#[path = "hub/contended.rs"]
mod contended;
