//! `frontdesk serve` as a process: logging to stderr, the manifest file,
//! the ready lines, and the ways it ends (Ctrl-C, SIGTERM, SIGHUP, or its
//! standard input closing when a parent asked for that).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use tokio::net::TcpListener;

use super::{ServeOptions, ServerError, start};

/// Bind, seed, write the manifest, print the ready lines, serve until told
/// to stop.
pub async fn run(opts: ServeOptions) -> Result<(), ServerError> {
    init_logging();
    // Claim the manifest path first: a refusal costs no seeding.
    let mut manifest = match &opts.manifest {
        Some(path) => Some(ManifestFile::create(path)?),
        None => None,
    };
    let listener = TcpListener::bind(&opts.addr).await?;
    let server = start(listener, opts.config.clone()).await?;
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
    wait_for_end(opts.exit_with_stdin).await;
    server.stop().await;
    drop(manifest);
    Ok(())
}

/// Log lines (every 5xx cause among them) go to stderr; `RUST_LOG` or
/// `FRONTDESK_SERVE_LOG` choose the level, `warn` by default.
fn init_logging() {
    let filter = std::env::var("FRONTDESK_SERVE_LOG")
        .or_else(|_| std::env::var("RUST_LOG"))
        .unwrap_or_else(|_| "warn".into());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
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
/// however it ended, even by `kill -9`.
async fn wait_for_end(exit_with_stdin: bool) {
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
            Ok(()) => {}
            // Not watching stdin: never.
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = stdin_closed => tracing::info!("standard input closed: stopping"),
        _ = terminating_signal() => {}
    }
}

async fn terminating_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (signal(SignalKind::terminate()), signal(SignalKind::hangup())) {
            (Ok(mut term), Ok(mut hup)) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                    _ = hup.recv() => {}
                }
            }
            _ => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
