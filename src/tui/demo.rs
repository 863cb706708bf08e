//! Demo mode: the embedded server in its own process, on demo data. The
//! child is killed when the guard drops: on quit, on error and on panic.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The running demo server.
pub struct DemoServer {
    child: Child,
    manifest: PathBuf,
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
    }
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DemoError(String);

/// Starts `frontdesk serve` on a free loopback port and waits (up to 10 s)
/// for its two ready lines.
pub async fn start(log: Option<&Path>) -> Result<DemoServer, DemoError> {
    let exe = std::env::current_exe().map_err(|e| DemoError(format!("cannot find the frontdesk binary: {e}")))?;
    let manifest = std::env::temp_dir().join(format!("frontdesk-demo-{}.json", std::process::id()));
    let stderr = match log.and_then(|p| std::fs::OpenOptions::new().create(true).append(true).open(p).ok()) {
        Some(f) => Stdio::from(f),
        None => Stdio::null(),
    };
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--manifest"])
        .arg(&manifest)
        .args(["--contacts", "300"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| DemoError(format!("cannot start the demo server: {e}")))?;
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
        manifest,
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
