//! Accepting connections, for the embedded server and the hub alike
//! (moved here from `server::listen` so both use one accept loop).
//! `axum::serve` has no header-read timeout and no cap on open
//! connections, so a few dozen clients that send half a header and wait
//! could hold the process's descriptors forever. Here every connection
//! needs a permit (at most `max_connections` are served; the rest wait in
//! the kernel's accept queue, which costs the process no descriptor),
//! hyper drops a connection whose headers do not arrive within
//! `header_timeout` (also between two requests of a kept-alive
//! connection), and with `idle_timeout` a connection that moves no byte
//! either way for that long is closed (a stalled body; an event stream
//! writes its heartbeat, so it is never idle).

use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::serve::Listener;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{Semaphore, oneshot, watch};

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub header_timeout: Duration,
    /// Close a connection that moved no byte for this long (`None`: never).
    pub idle_timeout: Option<Duration>,
    pub max_connections: usize,
}

/// Serve `app` on `listener` until `shutdown` fires; then stop accepting,
/// let open connections finish their request, and return.
pub async fn serve<L: Listener>(mut listener: L, app: Router, limits: Limits, shutdown: oneshot::Receiver<()>) {
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
        // The listener logs and backs off on accept errors itself.
        let stream = tokio::select! {
            (stream, _) = listener.accept() => stream,
            _ = &mut shutdown => break,
        };
        let service = TowerToHyperService::new(app.clone());
        let mut closing = closing_rx.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let mut builder = Builder::new(TokioExecutor::new());
            builder
                .http1()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout);
            let started = Instant::now();
            let activity = Arc::new(AtomicU64::new(0));
            let io = Watched {
                inner: stream,
                activity: activity.clone(),
                started,
            };
            let mut conn = pin!(builder.serve_connection_with_upgrades(TokioIo::new(io), service));
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!(error = %e, "connection ended with an error");
                    }
                }
                () = idle(limits.idle_timeout, &activity, started) => {
                    tracing::debug!("an idle connection was closed");
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

/// Returns once `activity` (milliseconds since `started`) has not moved
/// for `timeout`; never without one.
async fn idle(timeout: Option<Duration>, activity: &AtomicU64, started: Instant) {
    let Some(timeout) = timeout else {
        return std::future::pending().await;
    };
    loop {
        let last = started + Duration::from_millis(activity.load(Ordering::Relaxed));
        let deadline = last + timeout;
        if Instant::now() >= deadline {
            return;
        }
        tokio::time::sleep_until(deadline.into()).await;
    }
}

/// A connection's IO that notes when a byte last moved.
struct Watched<S> {
    inner: S,
    activity: Arc<AtomicU64>,
    started: Instant,
}

impl<S> Watched<S> {
    fn touch(&self) {
        let ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.activity.store(ms, Ordering::Relaxed);
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
        }
        r
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, data);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
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
