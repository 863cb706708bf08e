//! The service's health, kept fresh when nobody asks (`guard::Health`).

use std::sync::Arc;
use std::time::Duration;

use super::forward::upstream;
use super::state::HubState;

/// While the service is down or limiting, or quiet for a period, asks it
/// for `/plan` (one cheap request), so agents hear when it is back even
/// when none of them is making requests.
pub async fn run(st: Arc<HubState>) {
    let every = st.config.probe_every.max(Duration::from_millis(50));
    loop {
        tokio::time::sleep(every).await;
        if st.guard.health.wants_probe(every) {
            let _ = upstream(&st, axum::http::Method::GET, "/plan", None, Default::default()).await;
        }
    }
}
