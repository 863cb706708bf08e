//! One delivery as the receiver queues it.

use serde_json::Value;

/// One delivery waiting for a worker.
#[derive(Debug)]
pub struct Delivery {
    pub kind: String,
    pub payload: Value,
}
