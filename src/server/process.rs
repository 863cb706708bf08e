//! `frontdesk serve` as a process: logging to stderr, the manifest file,
//! the ready lines, and the ways it ends (Ctrl-C, SIGTERM, SIGHUP, or its
//! standard input closing when a parent asked for that).

use std::fs::File;
use std::future::Future;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::pin::Pin;

use tokio::net::TcpListener;

use super::config::ServeOptions;
use super::error::ServerError;
use super::running::start;

/// Bind, seed, write the manifest, print the ready lines, serve until told
/// to stop.
pub async fn run(mut opts: ServeOptions) -> Result<(), ServerError> {
    // Log lines (every 5xx cause among them) go to stderr.
    init_stderr_logging("FRONTDESK_SERVE_LOG", "warn");
    opts.config.webhook_secret = signing_secret(&opts)?;
    // Listen for the end first: a SIGTERM (or a parent's death) that comes
    // while seeding must still end the server cleanly.
    let mut ending = ending(opts.exit_with_stdin);
    // Claim the manifest path before seeding: a refusal costs nothing.
    let mut manifest = match &opts.manifest {
        Some(path) => Some(ManifestFile::create(path)?),
        None => None,
    };
    let listener = TcpListener::bind(&opts.addr).await?;
    let server = tokio::select! {
        s = start(listener, opts.config.clone()) => s?,
        _ = &mut ending => return Ok(()),
    };
    if let Some(m) = manifest.as_mut() {
        let json = serde_json::to_vec_pretty(&server.manifest)?;
        m.write(&json)?;
    }
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "frontdesk serve: listening on {}", server.base_url)?;
        writeln!(out, "frontdesk serve: api key {}", server.api_key)?;
        out.flush()?;
    }
    ending.await;
    server.stop().await;
    drop(manifest);
    Ok(())
}

/// The secret deliveries are signed with: none unless `--sign-webhooks`;
/// then the environment's, or the first line of the secret file.
fn signing_secret(opts: &ServeOptions) -> Result<Option<String>, ServerError> {
    if !opts.sign_webhooks {
        return Ok(None);
    }
    let from_env = opts.config.webhook_secret.clone().filter(|s| !s.trim().is_empty());
    let secret = match (from_env, &opts.webhook_secret_file) {
        (Some(s), _) => Some(s),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                ServerError::Config(format!("cannot read the webhook secret file {}: {e}", path.display()))
            })?;
            text.lines()
                .next()
                .map(|l| l.trim().to_string())
                .filter(|s| !s.is_empty())
        }
        (None, None) => None,
    };
    match secret {
        Some(s) => Ok(Some(s)),
        None => Err(ServerError::Config(
            "--sign-webhooks needs a secret: set FRONTDESK_WEBHOOK_SECRET or give --webhook-secret-file".into(),
        )),
    }
}

/// The manifest holds the API key: it is created new (never over an
/// existing file, never through a symbolic link), readable by its owner
/// only, and removed when the server stops.
struct ManifestFile {
    path: PathBuf,
    file: Option<File>,
}

impl ManifestFile {
    fn create(path: &Path) -> Result<ManifestFile, ServerError> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        match options.open(path) {
            Ok(file) => Ok(ManifestFile {
                path: path.to_path_buf(),
                file: Some(file),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(ServerError::Config(format!(
                "the manifest path {} already exists (a file or a link); \
                 the manifest is only written to a new file",
                path.display()
            ))),
            Err(e) => Err(ServerError::Config(format!(
                "cannot create the manifest {}: {e}",
                path.display()
            ))),
        }
    }

    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        match self.file.take() {
            Some(mut f) => {
                f.write_all(bytes)?;
                f.sync_all()
            }
            None => Ok(()),
        }
    }
}

impl Drop for ManifestFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Ctrl-C, SIGTERM, SIGHUP, or (with `exit_with_stdin`) the end of
/// standard input: a parent that holds the other end of a pipe has gone,
/// however it ended, even by `kill -9`. Everything is registered before
/// this returns, so a signal that arrives early is not lost.
fn ending(exit_with_stdin: bool) -> Pin<Box<dyn Future<Output = ()> + Send>> {
    let (closed_tx, closed_rx) = tokio::sync::oneshot::channel::<()>();
    if exit_with_stdin {
        // A plain thread: a blocking read must not hold up the runtime's
        // shutdown when the server ends for another reason.
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut buf = [0u8; 256];
            while matches!(stdin.read(&mut buf), Ok(n) if n > 0) {}
            let _ = closed_tx.send(());
        });
    }
    let stdin_closed = async {
        match closed_rx.await {
            Ok(()) => tracing::info!("standard input closed: stopping"),
            // Not watching stdin: never.
            Err(_) => std::future::pending::<()>().await,
        }
    };
    let signal = terminating_signal();
    Box::pin(async move {
        tokio::select! {
            _ = stdin_closed => {}
            _ = signal => {}
        }
    })
}

#[cfg(unix)]
fn terminating_signal() -> impl Future<Output = ()> + Send {
    use tokio::signal::unix::{SignalKind, signal};
    let kinds = [SignalKind::interrupt(), SignalKind::terminate(), SignalKind::hangup()];
    let mut streams: Vec<_> = kinds.into_iter().filter_map(|k| signal(k).ok()).collect();
    async move {
        if streams.is_empty() {
            let _ = tokio::signal::ctrl_c().await;
            return;
        }
        let any = futures::future::select_all(streams.iter_mut().map(|s| Box::pin(s.recv())));
        let _ = any.await;
    }
}

#[cfg(not(unix))]
fn terminating_signal() -> impl Future<Output = ()> + Send {
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Log lines go to stderr, without colour; `var` or `RUST_LOG` choose the
/// level, `default` otherwise. Used by `serve` and `hub`.
pub(crate) fn init_stderr_logging(var: &str, default: &str) {
    let filter = std::env::var(var)
        .or_else(|_| std::env::var("RUST_LOG"))
        .unwrap_or_else(|_| default.into());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}
