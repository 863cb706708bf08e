//! The settings in force and the flags every client command shares:
//! what `load` resolves, where each came from, and the names it reads.

use std::path::PathBuf;
use std::time::Duration;

use super::alerts::Alerts;
use super::file::KeyEntry;
use crate::api::{ApiError, ApiKey};
use crate::hubclient::{HubClient, hub_root};

/// The heading the options every client command shares go under in
/// `--help`, after the command's own.
pub const GLOBAL_HEADING: &str = "Global options";

/// Options every client command accepts (global in clap; `serve` has none
/// of them).
#[derive(Clone, Default, clap::Args)]
#[command(next_help_heading = GLOBAL_HEADING)]
pub struct GlobalArgs {
    /// Base URL of the service, ending in /v1 [env: FRONTDESK_BASE_URL]
    #[arg(long, global = true)]
    pub base_url: Option<String>,
    /// API key [env: FRONTDESK_API_KEY]. Other users of the host can read
    /// it in the process list: prefer the environment or the config file
    #[arg(long, global = true, hide_env_values = true)]
    pub api_key: Option<String>,
    /// Named profile (account) from the config file
    #[arg(long, global = true)]
    pub profile: Option<String>,
    /// Your own user uuid, for availability and custom status [env: FRONTDESK_USER_UUID]
    #[arg(long = "user", global = true)]
    pub user_uuid: Option<String>,
    /// Your collaborator email ("Me": the Mine view, your assignments) [env: FRONTDESK_USER_EMAIL]
    #[arg(long = "email", global = true, value_name = "EMAIL")]
    pub user_email: Option<String>,
    /// Config file to read instead of the platform's default [env: FRONTDESK_CONFIG]
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// Keep the local index in memory only: nothing about the account is
    /// written to disk (config: cache = false)
    #[arg(long, global = true)]
    pub no_cache: bool,
    /// Background requests per second while syncing the local index, 0 for
    /// no limit (config: sync_rate; default 5)
    #[arg(long, global = true, value_name = "PER_SECOND", value_parser = parse_rate)]
    pub sync_rate: Option<f64>,
    /// The team's hub: every command goes through it, with the agent token
    /// instead of the API key [env: FRONTDESK_HUB_URL]
    #[arg(long, global = true, value_name = "URL")]
    pub hub_url: Option<String>,
    /// Your agent token for the hub [env: FRONTDESK_HUB_TOKEN]. Other users
    /// of the host can read it in the process list: prefer the environment
    #[arg(long, global = true, hide_env_values = true, value_name = "TOKEN")]
    pub hub_token: Option<String>,
}

pub(super) fn parse_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(r) if r.is_finite() && r >= 0.0 => Ok(r),
        _ => Err(format!("`{s}` is not a number of requests per second (0 or more)")),
    }
}

/// What `doctor` and `config check` say when the key came from `--api-key`.
pub const API_KEY_FLAG_WARNING: &str = "the API key was passed with --api-key: other users of this host can read it \
     in the process list; set FRONTDESK_API_KEY or run `frontdesk config init` instead";

/// Where a setting in force came from (`config check` shows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Flag,
    Env,
    File,
    Default,
}

impl Source {
    pub fn label(self) -> &'static str {
        match self {
            Source::Flag => "flag",
            Source::Env => "env",
            Source::File => "file",
            Source::Default => "default",
        }
    }
}

/// How the TUI looks and reacts, from the file's top level.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Looks {
    /// `dark`, `light`, `high-contrast`, `mono` or a theme file's path;
    /// `None` is the default theme.
    pub theme: Option<String>,
    /// Mouse capture (off by default so terminal selection keeps working).
    pub mouse: bool,
    /// Set the terminal title (on by default).
    pub title: bool,
    /// Inline previews of image attachments in terminals that show
    /// images (on by default; off where the terminal does not answer).
    pub image_previews: bool,
    /// Links in the thread as OSC 8 hyperlinks (on by default; terminals
    /// without them show the text as before).
    pub hyperlinks: bool,
    /// The `[keys]` table, in file order.
    pub keys: Vec<KeyEntry>,
    /// `[macros.NAME]`, in name order (each with a key is a keymap row).
    pub macros: Vec<crate::macros::Macro>,
    /// `[snippets]`, read with `snippets.toml` by `crate::snippets::load_all`.
    pub snippets: toml::Table,
}

/// The resolved settings for one account.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Profile name in use (`default` when none was chosen).
    pub profile: String,
    /// Base URL ending in /v1; `None` with no key means demo mode.
    pub base_url: Option<String>,
    pub api_key: Option<ApiKey>,
    /// The team's hub, as configured (see [`Settings::hub_root`]); with it
    /// every command talks to the hub with `hub_token`.
    pub hub_url: Option<String>,
    /// The agent's token for the hub (redacted like the key).
    pub hub_token: Option<ApiKey>,
    /// The agent's own user uuid.
    pub user_uuid: Option<String>,
    /// The agent's collaborator email ("Me"), checked to be an email address.
    pub user_email: Option<String>,
    /// Request timeout.
    pub timeout: Duration,
    /// How often the TUI refreshes the first page and the open thread.
    pub refresh_interval: Duration,
    /// Ring the terminal bell on a new message.
    pub bell: bool,
    /// Keep the local index on disk (`cache`, `--no-cache`).
    pub cache: bool,
    /// Background requests per second for syncing (`sync_rate`, `--sync-rate`;
    /// 0: no limit).
    pub sync_rate: f64,
    /// How often the TUI walks the whole account again (`full_sync_minutes`).
    pub full_sync_interval: Duration,
    /// Where the config file is (whether or not it exists).
    pub config_path: Option<PathBuf>,
    /// Warnings to show the user (e.g. a key in a file others can read).
    pub warnings: Vec<String>,
    /// Theme, mouse, title and keys.
    pub looks: Looks,
    /// The agent's own views (`[[views]]`), in file order; a view with a problem is left out, named in `warnings`.
    pub views: Vec<crate::triage::View>,
    /// Wait thresholds, the notification command, reopening on a reply.
    pub alerts: Alerts,
    /// Where each setting came from, by its file name (`base_url`, `api_key`, `hub_url`, `hub_token`,
    /// `user_uuid`, `user_email`, `profile`, `timeout_secs`, `refresh_secs`, `bell`, `cache`, `sync_rate`, …).
    pub sources: Vec<(&'static str, Source)>,
}

impl Settings {
    /// Where `name` came from (`Default` when unset).
    pub fn source(&self, name: &str) -> Source {
        self.sources
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(Source::Default, |(_, s)| *s)
    }

    /// True when no key and no hub is configured: the TUI runs on the demo account.
    pub fn is_demo(&self) -> bool {
        self.api_key.is_none() && self.hub_token.is_none()
    }

    /// The hub's root URL (no trailing `/` nor `/v1`), when a hub is
    /// configured: the service's paths are under `<root>/v1`, the hub's own
    /// under `<root>/hub/v1`.
    pub fn hub_root(&self) -> Option<String> {
        self.hub_url.as_deref().map(hub_root)
    }

    /// The API client for these settings; `Ok(None)` in demo mode (no key).
    /// With a hub it talks to the hub's `/v1` with the agent token.
    pub fn client(&self) -> Result<Option<crate::api::Client>, crate::api::ApiError> {
        if let (Some(root), Some(token)) = (self.hub_root(), &self.hub_token) {
            return crate::api::Client::new(&format!("{root}/v1"), token.expose(), self.timeout).map(Some);
        }
        match (&self.api_key, &self.base_url) {
            (None, _) => Ok(None),
            (Some(key), Some(url)) => crate::api::Client::new(url, key.expose(), self.timeout).map(Some),
            (Some(_), None) => Err(crate::api::ApiError::Config(
                "an API key is set but no base URL: set base_url, FRONTDESK_BASE_URL or --base-url".into(),
            )),
        }
    }
}

/// Default request timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// Default refresh interval of the TUI.
pub const DEFAULT_REFRESH: Duration = Duration::from_secs(5);
/// How often the TUI walks the whole account again unless configured.
pub const DEFAULT_FULL_SYNC: Duration = Duration::from_secs(30 * 60);
/// The profile used when none is chosen.
pub const DEFAULT_PROFILE: &str = "default";

/// The environment variables `load` reads.
pub const ENV_API_KEY: &str = "FRONTDESK_API_KEY";
pub const ENV_BASE_URL: &str = "FRONTDESK_BASE_URL";
pub const ENV_USER_UUID: &str = "FRONTDESK_USER_UUID";
pub const ENV_USER_EMAIL: &str = "FRONTDESK_USER_EMAIL";
pub const ENV_PROFILE: &str = "FRONTDESK_PROFILE";
pub const ENV_CONFIG: &str = "FRONTDESK_CONFIG";
pub const ENV_HUB_URL: &str = "FRONTDESK_HUB_URL";
pub const ENV_HUB_TOKEN: &str = "FRONTDESK_HUB_TOKEN";

impl std::fmt::Debug for GlobalArgs {
    /// The key and the hub token stay out of Debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let redacted = |v: &Option<String>| v.as_ref().map(|_| "<redacted>");
        f.debug_struct("GlobalArgs")
            .field("base_url", &self.base_url)
            .field("api_key", &redacted(&self.api_key))
            .field("profile", &self.profile)
            .field("user_uuid", &self.user_uuid)
            .field("user_email", &self.user_email)
            .field("config", &self.config)
            .field("no_cache", &self.no_cache)
            .field("sync_rate", &self.sync_rate)
            .field("hub_url", &self.hub_url)
            .field("hub_token", &redacted(&self.hub_token))
            .finish()
    }
}

impl Settings {
    /// The hub's own client (events, snapshot), when a hub is configured.
    pub fn hub(&self) -> Result<Option<HubClient>, ApiError> {
        match (self.hub_root(), &self.hub_token) {
            (Some(root), Some(token)) => HubClient::new(&root, token.expose(), self.timeout).map(Some),
            _ => Ok(None),
        }
    }
}
