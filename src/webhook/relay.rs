//! `--forward-to URL`: the account has one webhook, so subscribing the hub
//! cuts off whatever received it before (a CRM, an automation). The relay
//! passes every delivery on to that receiver, as received (body and
//! content type), from a bounded queue worked by its own task: a slow or
//! dead receiver never holds the hub up; past the queue's bound a delivery
//! is dropped for it, and counted.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use tokio::sync::mpsc;

/// Deliveries waiting to be passed on.
pub const QUEUE: usize = 1024;
/// Deliveries in flight to the receiver at once.
const IN_FLIGHT: usize = 8;

/// What became of the deliveries given to the relay.
#[derive(Debug, Default)]
pub struct RelayCounters {
    pub passed: AtomicU64,
    pub failed: AtomicU64,
    pub dropped: AtomicU64,
}

/// The sending side; cheap to clone.
#[derive(Clone)]
pub struct Relay {
    tx: mpsc::Sender<(Bytes, Option<String>)>,
    pub counters: Arc<RelayCounters>,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relay").finish_non_exhaustive()
    }
}

impl Relay {
    /// Starts the relay's task (on the current runtime) towards `url`.
    pub fn start(url: String, timeout: Duration) -> Result<Relay, String> {
        let parsed = url::Url::parse(&url).map_err(|e| format!("--forward-to is not a URL: {e}"))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err("--forward-to must be an http or https URL".into());
        }
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        let (tx, rx) = mpsc::channel(QUEUE);
        let counters = Arc::new(RelayCounters::default());
        tokio::spawn(work(http, url, rx, counters.clone()));
        Ok(Relay { tx, counters })
    }

    /// Queues `body` for the receiver; never waits.
    pub fn pass(&self, body: Bytes, content_type: Option<String>) {
        if self.tx.try_send((body, content_type)).is_err() {
            let n = self.counters.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            tracing::warn!("the --forward-to receiver is behind: a delivery was not passed on ({n} so far)");
        }
    }
}

async fn work(
    http: reqwest::Client,
    url: String,
    mut rx: mpsc::Receiver<(Bytes, Option<String>)>,
    counters: Arc<RelayCounters>,
) {
    let slots = Arc::new(tokio::sync::Semaphore::new(IN_FLIGHT));
    while let Some((body, content_type)) = rx.recv().await {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            return;
        };
        let (http, url, counters) = (http.clone(), url.clone(), counters.clone());
        tokio::spawn(async move {
            let mut req = http.post(&url).body(body);
            req = req.header(
                reqwest::header::CONTENT_TYPE,
                content_type.as_deref().unwrap_or("application/json"),
            );
            match req.send().await {
                Ok(r) if r.status().is_success() => {
                    counters.passed.fetch_add(1, Ordering::Relaxed);
                }
                Ok(r) => {
                    counters.failed.fetch_add(1, Ordering::Relaxed);
                    tracing::info!("the --forward-to receiver answered {}", r.status());
                }
                Err(_) => {
                    counters.failed.fetch_add(1, Ordering::Relaxed);
                    tracing::info!("the --forward-to receiver could not be reached");
                }
            }
            drop(permit);
        });
    }
}
