//! Accepting connections. `axum::serve` has no header-read timeout and no
//! cap on open connections, so a few dozen clients that send half a header
//! and wait could hold the server's descriptors forever. Here every
//! connection needs a permit (at most `max_connections` are served; the
//! rest wait in the kernel's accept queue, which costs the process no
//! descriptor), and hyper drops a connection whose headers do not arrive
//! within `header_timeout`. The request timeout is a layer in `routes`.

use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, oneshot, watch};

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub header_timeout: Duration,
    pub max_connections: usize,
}

/// Serve `app` on `listener` until `shutdown` fires; then stop accepting,
/// let open connections finish their request, and return.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits, shutdown: oneshot::Receiver<()>) {
    let max = limits.max_connections.min(descriptor_budget()).clamp(1, 65_536);
    let permits = Arc::new(Semaphore::new(max));
    let (closing_tx, closing_rx) = watch::channel(false);
    let mut shutdown = pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = permits.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            _ = &mut shutdown => break,
        };
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of descriptors and the like: back off instead of spinning.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let mut closing = closing_rx.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let mut builder = Builder::new(TokioExecutor::new());
            builder
                .http1()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout);
            let mut conn = pin!(builder.serve_connection_with_upgrades(TokioIo::new(stream), service));
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!(error = %e, "connection ended with an error");
                    }
                }
                _ = closing.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    drop(listener);
    let _ = closing_tx.send(true);
    // Every permit back means every connection has ended.
    let _ = permits.acquire_many(max as u32).await;
}

/// Connections the process can hold open: the soft descriptor limit less a
/// reserve for the database, logs and the listener. Without it a low
/// `ulimit -n` would let slow clients take every descriptor.
#[cfg(unix)]
fn descriptor_budget() -> usize {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct we pass.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0;
    if !ok || lim.rlim_cur == libc::RLIM_INFINITY {
        return usize::MAX;
    }
    let soft = usize::try_from(lim.rlim_cur).unwrap_or(usize::MAX);
    (soft / 2).max(4)
}

#[cfg(not(unix))]
fn descriptor_budget() -> usize {
    usize::MAX
}
