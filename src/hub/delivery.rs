//! One delivery as the receiver queues it, the queues' number and how long
//! a delivery is remembered: what the hub's state is built with.

use std::time::Duration;

use serde_json::Value;

/// Workers deliveries are shared out to, by contact.
pub const WORKERS: usize = 4;
/// Redeliveries are recognized this long (across restarts): longer than
/// the service keeps retrying (it gives a receiver up after 6 hours).
pub const DEDUP_WINDOW: Duration = Duration::from_secs(24 * 3600);

/// One delivery waiting for a worker.
#[derive(Debug)]
pub struct Delivery {
    pub kind: String,
    pub payload: Value,
}
