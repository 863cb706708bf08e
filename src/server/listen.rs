//! Accepting connections: the shared accept loop of `crate::listen` (it
//! lived here; the hub uses it too). The request timeout is a layer in
//! `routes`.

use std::time::Duration;

use axum::Router;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub header_timeout: Duration,
    pub max_connections: usize,
}

/// Serve `app` on `listener` until `shutdown` fires; then stop accepting,
/// let open connections finish their request, and return.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits, shutdown: oneshot::Receiver<()>) {
    let listener = listener.tap_io(|s| {
        let _ = s.set_nodelay(true);
    });
    let limits = crate::listen::Limits {
        header_timeout: limits.header_timeout,
        idle_timeout: None,
        max_connections: limits.max_connections,
    };
    crate::listen::serve(listener, app, limits, shutdown).await;
}
