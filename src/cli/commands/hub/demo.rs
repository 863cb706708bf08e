//! The two-command demo of live collaboration (README, docs/hub.md):
//!
//! - `frontdesk hub demo` starts the embedded demo server (with live
//!   customer traffic) and a hub wired to it by an unsigned webhook to the
//!   hub's secret delivery path (as the service delivers: it signs
//!   nothing, the long random path is the credential), adds two
//!   agents (dana and bea), writes `demo.json` (the hub's URL and the
//!   agents' tokens, 0600) in the demo's data dir and opens the TUI as dana;
//! - `frontdesk hub join bea`, in another terminal, opens the TUI as bea
//!   against that hub (`--print` prints the two env vars instead).
//!
//! Everything runs in the first process; it ends when its TUI quits (or,
//! `--headless`, at Ctrl-C), and the demo's files go with it.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::process;
use crate::api::ApiKey;
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::sanitize;
use crate::hub::store::Store;
use crate::hub::{HubConfig, agents};
use crate::server::ServerConfig;

/// The demo's agents: (name, email of a seeded collaborator).
pub const AGENTS: [(&str, &str); 2] = [("dana", "dana@frontdesk.example"), ("bea", "bea@frontdesk.example")];
/// The file `join` reads.
pub const MANIFEST: &str = "demo.json";

/// Where the demo keeps its hub: `--data-dir`, or the platform's data dir
/// `frontdesk/hub-demo` (never a real hub's dir).
pub fn dir(data_dir: Option<&Path>) -> Result<PathBuf, CliError> {
    if let Some(d) = data_dir {
        return Ok(d.to_path_buf());
    }
    directories::BaseDirs::new()
        .map(|d| d.data_dir().join("frontdesk").join("hub-demo"))
        .ok_or_else(|| CliError::usage("no home directory: pass --data-dir"))
}

fn other(e: impl std::fmt::Display) -> CliError {
    CliError::Other(e.to_string())
}

/// Each demo starts from a new account: the last demo's files go.
fn clear(dir: &Path) {
    for name in ["hub.sqlite", "index.sqlite", MANIFEST] {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(dir.join(format!("{name}{suffix}")));
        }
    }
}

/// Removes `demo.json` when the demo ends.
struct Written(PathBuf);

impl Drop for Written {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

pub async fn run(ctx: &mut Ctx<'_>, addr: &str, data_dir: Option<&Path>, headless: bool) -> Result<(), CliError> {
    let dir = dir(data_dir)?;
    crate::index::private::ensure_dir(&dir).map_err(CliError::Usage)?;
    clear(&dir);
    let server = crate::server::start(
        tokio::net::TcpListener::bind("127.0.0.1:0").await?,
        ServerConfig {
            activity: true,
            ..ServerConfig::default()
        },
    )
    .await
    .map_err(other)?;
    let listener = process::listener(addr, None).await?;
    let config = HubConfig::new(dir.clone(), &server.base_url, ApiKey::new(server.api_key.clone()));
    let store = Store::open(&dir).map_err(other)?;
    let mut tokens = serde_json::Map::new();
    for (name, email) in AGENTS {
        let token = agents::add(&store, name, email, None).map_err(other)?;
        tokens.insert(name.to_string(), Value::String(token));
    }
    drop(store);
    let hub = crate::hub::start(listener, config).await.map_err(other)?;
    if let Err(why) = process::subscribe(&server.base_url, &server.api_key, &hub.hook_url()).await {
        return Err(CliError::Other(format!(
            "the demo webhook could not be subscribed: {why}"
        )));
    }
    let path = dir.join(MANIFEST);
    let doc = json!({ "url": hub.url, "pid": std::process::id(), "agents": tokens.clone() });
    let mut file = crate::index::private::file_options()
        .write(true)
        .create_new(true)
        .open(&path)?;
    file.write_all(doc.to_string().as_bytes())?;
    file.sync_all()?;
    let _written = Written(path);
    let join = match data_dir {
        Some(d) => format!(
            "frontdesk hub join bea --data-dir {}",
            sanitize(&d.display().to_string())
        ),
        None => "frontdesk hub join bea".to_string(),
    };
    let _ = writeln!(
        ctx.err,
        "frontdesk hub demo: server {} and hub {} wired by webhook; agents dana and bea.\n\
         In another terminal, join as bea:  {join}",
        sanitize(&server.base_url),
        sanitize(&hub.url)
    );
    let ended = if headless {
        ctx.emit(&format!("frontdesk hub demo: listening on {}\n", sanitize(&hub.url)))?;
        process::ending().await;
        Ok(())
    } else {
        let dana = tokens
            .get("dana")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        tui(&hub.url, &dana, AGENTS[0].1).await
    };
    hub.stop().await;
    server.stop().await;
    ended
}

/// The TUI as an agent: this binary again, on the hub with the token.
async fn tui(url: &str, token: &str, email: &str) -> Result<(), CliError> {
    let exe = std::env::current_exe().map_err(|e| CliError::Other(format!("cannot find the frontdesk binary: {e}")))?;
    let status = tokio::process::Command::new(exe)
        .env_remove(crate::config::ENV_API_KEY)
        .env_remove(crate::config::ENV_BASE_URL)
        .env("FRONTDESK_HUB_URL", url)
        .env("FRONTDESK_HUB_TOKEN", token)
        .env(crate::config::ENV_USER_EMAIL, email)
        .status()
        .await
        .map_err(|e| CliError::Other(format!("cannot open the TUI: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(CliError::Other(format!("the TUI ended with {status}")))
    }
}

/// `frontdesk hub join NAME`: the TUI as that demo agent (`print`: the env
/// vars that make any frontdesk command that agent).
pub async fn join(ctx: &mut Ctx<'_>, name: &str, data_dir: Option<&Path>, print: bool) -> Result<(), CliError> {
    let path = dir(data_dir)?.join(MANIFEST);
    let no_demo = || CliError::usage("no demo hub is running: start one with `frontdesk hub demo`");
    let text = std::fs::read_to_string(&path).map_err(|_| no_demo())?;
    let doc: Value = serde_json::from_str(&text).map_err(|_| no_demo())?;
    let url = doc["url"].as_str().ok_or_else(no_demo)?;
    let Some(token) = doc["agents"][name].as_str() else {
        let names: Vec<&str> = AGENTS.iter().map(|(n, _)| *n).collect();
        return Err(CliError::usage(format!(
            "the demo has no agent {}: pick one of {}",
            sanitize(name),
            names.join(", ")
        )));
    };
    let alive = reqwest::Client::new()
        .get(format!("{url}/hub/v1/whoami"))
        .bearer_auth(token)
        .send()
        .await
        .is_ok_and(|r| r.status().is_success());
    if !alive {
        return Err(no_demo());
    }
    if print {
        return ctx.emit(&format!("FRONTDESK_HUB_URL={url}\nFRONTDESK_HUB_TOKEN={token}\n"));
    }
    let email = AGENTS.iter().find(|(n, _)| *n == name).map_or("", |(_, e)| e);
    tui(url, token, email).await
}
