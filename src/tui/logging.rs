//! Logs go to a file, never to the terminal the app draws on.

use std::fs::File;
use std::path::PathBuf;

use tracing_appender::non_blocking::WorkerGuard;

use crate::index::private;

/// Where the log goes: `FRONTDESK_LOG` (the user's own choice of file),
/// else `frontdesk.log` in frontdesk's directory in the platform's state
/// (or cache) directory, which frontdesk keeps private.
pub enum LogPath {
    Chosen(PathBuf),
    Ours(PathBuf),
}

pub fn log_path() -> Option<LogPath> {
    if let Some(p) = std::env::var_os("FRONTDESK_LOG").filter(|p| !p.is_empty()) {
        return Some(LogPath::Chosen(PathBuf::from(p)));
    }
    let dirs = directories::ProjectDirs::from("", "", "frontdesk")?;
    let dir = dirs.state_dir().unwrap_or(dirs.cache_dir()).to_path_buf();
    Some(LogPath::Ours(dir.join("frontdesk.log")))
}

/// Opens the log for appending: created 0600, never through a symlink. In
/// frontdesk's own directory, that directory is made 0700 and refused when
/// others could tamper with it; a file the user chose is theirs to place.
pub fn open_log(path: &LogPath) -> Result<(File, PathBuf), String> {
    let (path, ours) = match path {
        LogPath::Chosen(p) => (p.as_path(), false),
        LogPath::Ours(p) => (p.as_path(), true),
    };
    if ours && let Some(dir) = path.parent() {
        private::ensure_dir(dir)?;
    }
    let file = private::file_options()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    Ok((file, path.to_path_buf()))
}

/// Starts file logging; keep the guard alive until exit. `None` when no
/// log file can be opened: the app runs on without logs, and a log that
/// was refused is said once on stderr, before the screen starts.
pub fn init() -> Option<(WorkerGuard, PathBuf)> {
    let (file, path) = match open_log(&log_path()?) {
        Ok(opened) => opened,
        Err(why) => {
            eprintln!(
                "frontdesk: warning: no log this time: {}",
                crate::text::sanitize_line(&why)
            );
            return None;
        }
    };
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

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use std::path::Path;

    use super::*;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn the_log_and_its_directory_are_private_from_the_start() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("state/frontdesk/frontdesk.log");
        let (_, opened) = open_log(&LogPath::Ours(path.clone())).unwrap();
        assert_eq!(opened, path);
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        let chosen = tmp.path().join("chosen.log");
        open_log(&LogPath::Chosen(chosen.clone())).unwrap();
        assert_eq!(mode(&chosen), 0o600);
    }

    #[test]
    fn a_log_directory_others_can_write_to_or_a_symlinked_log_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("frontdesk");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let err = open_log(&LogPath::Ours(dir.join("frontdesk.log"))).err().unwrap();
        assert!(err.contains("writable by others") && err.contains("chmod 700"), "{err}");
        assert!(!dir.join("frontdesk.log").exists());

        let target = tmp.path().join("elsewhere");
        let link = tmp.path().join("link.log");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(open_log(&LogPath::Chosen(link)).is_err());
        assert!(!target.exists(), "nothing written through the link");
    }
}
