//! Demo mode: the embedded server in its own process, on demo data. The
//! child is killed when the guard drops: on quit, on error and on panic.
//! When this process dies without running the guard (`kill -9`), the child
//! still ends: it reads a pipe from us and stops at its end (any Unix), and
//! on Linux the kernel also sends it SIGTERM (PR_SET_PDEATHSIG).
//!
//! The manifest (it holds the key) is written by the child into a private
//! directory of ours (0700, unpredictable name) as a new 0600 file; both
//! go away when the guard drops.
//!
//! The demo account lives in the cache directory (`demo-account.sqlite`)
//! for a day, so a second run is the same account the local index holds
//! (the same conversations, the agent's changes kept); after a day it is
//! seeded afresh. One frontdesk at a time holds it (a lock file); another
//! one, or `cache = false`, gets an account in memory.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};

/// The running demo server.
pub struct DemoServer {
    child: Child,
    /// Held while the demo account's file is ours.
    _account_lock: Option<std::fs::File>,
    /// The child stops when this pipe closes (dropped with us, or by the
    /// kernel when we die).
    _lifeline: Option<ChildStdin>,
    manifest: PathBuf,
    /// Removed (with the manifest) on drop.
    _dir: tempfile::TempDir,
    pub base_url: String,
    pub api_key: String,
    /// The first demo user: "me", so availability works.
    pub user_uuid: Option<String>,
    pub user_email: Option<String>,
}

impl Drop for DemoServer {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
        let _ = std::fs::remove_file(&self.manifest);
        // The directory itself goes with `_dir`.
    }
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DemoError(String);

/// How long the demo account is kept before it is seeded afresh.
const ACCOUNT_DAYS: u64 = 1;

/// The demo account's file in the cache directory, and the lock that makes
/// it ours; `None` (an account in memory) when there is no cache directory
/// or another frontdesk holds it. A file older than a day is removed first.
fn kept_account() -> Option<(PathBuf, std::fs::File)> {
    let dir = crate::index::cache_dir()?;
    if let Err(why) = crate::index::private::ensure_dir(&dir) {
        tracing::warn!("the demo account is kept in memory: {why}");
        return None;
    }
    let lock = crate::index::private::file_options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join("demo-account.lock"))
        .ok()?;
    if lock.try_lock().is_err() {
        tracing::info!("another frontdesk holds the demo account: this one is in memory");
        return None;
    }
    let db = dir.join("demo-account.sqlite");
    let old = std::fs::metadata(&db)
        .and_then(|m| m.created().or_else(|_| m.modified()))
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > Duration::from_secs(ACCOUNT_DAYS * 86_400));
    if old {
        for suffix in ["", "-wal", "-shm"] {
            let mut p = db.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(PathBuf::from(p));
        }
    }
    Some((db, lock))
}

/// Starts `frontdesk serve` on a free loopback port and waits (up to 10 s)
/// for its two ready lines.
pub async fn start(log: Option<&Path>, keep_account: bool) -> Result<DemoServer, DemoError> {
    let exe = std::env::current_exe().map_err(|e| DemoError(format!("cannot find the frontdesk binary: {e}")))?;
    let mut builder = tempfile::Builder::new();
    builder.prefix("frontdesk-demo-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    let dir = builder
        .tempdir()
        .map_err(|e| DemoError(format!("cannot create a private directory for the demo: {e}")))?;
    let manifest = dir.path().join("manifest.json");
    let stderr = match log.and_then(|p| {
        crate::index::private::file_options()
            .create(true)
            .append(true)
            .open(p)
            .ok()
    }) {
        Some(f) => Stdio::from(f),
        None => Stdio::null(),
    };
    let mut command = Command::new(exe);
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--exit-with-stdin", "--manifest"])
        .arg(&manifest)
        .args(["--contacts", "300"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .kill_on_drop(true);
    let account = keep_account.then(kept_account).flatten();
    if let Some((db, _)) = &account {
        command.arg("--db").arg(db);
    }
    end_with_parent(&mut command);
    let mut child = command
        .spawn()
        .map_err(|e| DemoError(format!("cannot start the demo server: {e}")))?;
    let lifeline = child.stdin.take();
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| DemoError("the demo server has no output".into()))?;
    let mut lines = BufReader::new(stdout).lines();
    let ready = async {
        let (mut url, mut key) = (None, None);
        while url.is_none() || key.is_none() {
            let Ok(Some(line)) = lines.next_line().await else { break };
            if let Some(u) = line.strip_prefix("frontdesk serve: listening on ") {
                url = Some(u.trim().to_string());
            } else if let Some(k) = line.strip_prefix("frontdesk serve: api key ") {
                key = Some(k.trim().to_string());
            }
        }
        (url, key)
    };
    let mut server = DemoServer {
        child,
        _account_lock: account.map(|(_, lock)| lock),
        _lifeline: lifeline,
        manifest,
        _dir: dir,
        base_url: String::new(),
        api_key: String::new(),
        user_uuid: None,
        user_email: None,
    };
    let (url, key) = match tokio::time::timeout(Duration::from_secs(10), ready).await {
        Ok((Some(u), Some(k))) => (u, k),
        Ok(_) => {
            return Err(DemoError(
                "the demo server stopped before it was ready (see the log)".into(),
            ));
        }
        Err(_) => return Err(DemoError("the demo server did not start within 10 s".into())),
    };
    // Keep draining its output so it never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    server.base_url = url;
    server.api_key = key;
    (server.user_uuid, server.user_email) = first_user(&server.manifest);
    Ok(server)
}

/// Linux: the kernel sends the child SIGTERM when we die, however we die.
/// The signal follows the *thread* that forked: `start` runs on the main
/// thread (under `block_on`), which lives as long as the process.
#[cfg(target_os = "linux")]
fn end_with_parent(command: &mut Command) {
    let parent = std::process::id();
    // SAFETY: only async-signal-safe calls (prctl, getppid) between fork
    // and exec, touching no memory of the parent.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // We may have died between fork and prctl: then nobody would
            // send the signal.
            if libc::getppid() as u32 != parent {
                return Err(std::io::Error::other("the parent has already exited"));
            }
            Ok(())
        });
    }
}

/// Elsewhere the pipe on stdin is the lifeline.
#[cfg(not(target_os = "linux"))]
fn end_with_parent(_command: &mut Command) {}

fn first_user(manifest: &Path) -> (Option<String>, Option<String>) {
    let Some(v) = std::fs::read_to_string(manifest)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
    else {
        return (None, None);
    };
    let field = |k: &str| v["users"][0][k].as_str().map(str::to_string);
    (field("uuid"), field("email"))
}

/// Demo facts the manifest offers to forms (collaborators, sources, tags, teams).
pub fn manifest_known(server: &DemoServer, known: &mut super::model::Known) {
    let Ok(text) = std::fs::read_to_string(&server.manifest) else {
        return;
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return;
    };
    let strings = |key: &str| -> Vec<String> {
        v[key]
            .as_array()
            .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    };
    for c in strings("collaborators") {
        known.add_collaborator(&c);
    }
    for s in strings("sources") {
        known.add_source(&s);
    }
    for t in strings("tags") {
        known.add_tag(&t);
    }
    if let Some(teams) = v["teams"].as_array() {
        for t in teams {
            if let (Some(u), Some(n)) = (t["uuid"].as_str(), t["name"].as_str()) {
                known.add_team(u, n);
            }
        }
    }
}
