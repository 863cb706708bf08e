//! Logs go to a file, never to the terminal the app draws on.

use std::path::PathBuf;

use tracing_appender::non_blocking::WorkerGuard;

/// `FRONTDESK_LOG`, else `frontdesk.log` in the platform's state (or cache)
/// directory.
pub fn log_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FRONTDESK_LOG").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let dirs = directories::ProjectDirs::from("", "", "frontdesk")?;
    let dir = dirs.state_dir().unwrap_or(dirs.cache_dir()).to_path_buf();
    Some(dir.join("frontdesk.log"))
}

/// Starts file logging; keep the guard alive until exit. `None` when no
/// log file can be opened (the app runs on without logs).
pub fn init() -> Option<(WorkerGuard, PathBuf)> {
    let path = log_path()?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).ok()?;
    }
    let file = std::fs::OpenOptions::new().create(true).append(true).open(&path).ok()?;
    let (writer, guard) = tracing_appender::non_blocking(file);
    let filter = tracing_subscriber::EnvFilter::try_from_env("FRONTDESK_LOG_LEVEL")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let ok = tracing_subscriber::fmt()
        .with_writer(writer)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init()
        .is_ok();
    ok.then_some((guard, path))
}
