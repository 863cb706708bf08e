//! Configuration: a TOML file with named profiles, the environment, and
//! flags. Flags beat the environment, which beats the file.
//!
//! The file lives at the platform's config directory + `frontdesk/config.toml`
//! (`--config PATH` or `FRONTDESK_CONFIG` choose another):
//!
//! ```toml
//! default_profile = "work"   # optional; else "default"
//! refresh_secs = 5           # optional global defaults
//! timeout_secs = 15
//! bell = false
//!
//! # The local index of the account (top level only).
//! cache = true                # false: keep it in memory only (flag: --no-cache)
//! sync_rate = 5               # background requests per second, 0: no limit (flag: --sync-rate)
//! full_sync_minutes = 30      # how often the TUI walks the whole account again
//!
//! # Top-level account keys form the profile named "default".
//! base_url = "https://api.example.com/v1"
//! api_key = "..."
//! user_uuid = "..."
//! user_email = "me@example.com"   # "Me": your collaborator email
//!
//! [profiles.work]
//! base_url = "https://api.example.com/v1"
//! api_key = "..."
//! user_uuid = "..."
//! timeout_secs = 15          # refresh_secs and bell may be set here too
//! ```

//!
//! INTERFACE CONTRACT: the TUI and CLI use these names.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::api::ApiKey;

mod alerts;
mod file;
mod hub;
pub mod init;
mod save;
mod views;

pub use alerts::Alerts;
pub use file::{KeyEntry, checked_email};
use file::{Profile, read_file};
pub use hub::hub_root;
pub use views::save_view;

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

fn parse_rate(s: &str) -> Result<f64, String> {
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

/// A configuration problem, as a sentence naming the file, line and problem.
/// Its text is inert (see `ConfigError::new`): names, values and paths in it
/// came from a file, a flag or the environment.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(String);

impl ConfigError {
    /// The problem, made inert for a terminal: escape sequences and bidi
    /// controls from the file, a flag or the environment show as visible
    /// marks, and it stays one line.
    pub fn new(message: impl AsRef<str>) -> ConfigError {
        ConfigError(crate::text::sanitize_line(message.as_ref()))
    }

    pub fn message(&self) -> &str {
        &self.0
    }
}

/// A path from a flag, the environment or the platform, inert for a
/// message.
pub(crate) fn shown(path: &Path) -> String {
    crate::text::sanitize_line(&path.display().to_string())
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

/// The platform's config file path: `<config dir>/frontdesk/config.toml`.
pub fn default_config_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "frontdesk").map(|d| d.config_dir().join("config.toml"))
}

/// Reads file, environment and flags into settings.
pub fn load(args: &GlobalArgs) -> Result<Settings, ConfigError> {
    load_from(args, &|name| std::env::var(name).ok(), default_config_path())
}

/// `load` with the environment and the default file path given, so tests
/// need neither the real home nor the real environment.
pub fn load_from(
    args: &GlobalArgs,
    env: &dyn Fn(&str) -> Option<String>,
    default_path: Option<PathBuf>,
) -> Result<Settings, ConfigError> {
    // Empty values count as unset (`FRONTDESK_API_KEY= frontdesk`).
    let env = |name: &str| env(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    let flag = |v: &Option<String>| v.as_ref().map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    let mut warnings = Vec::new();

    let explicit = args.config.clone().or_else(|| env(ENV_CONFIG).map(PathBuf::from));
    let path = explicit.clone().or(default_path);
    let file = match &path {
        Some(p) => read_file(p, &mut warnings)?,
        None => None,
    };
    if let (Some(p), None) = (&explicit, &file) {
        warnings.push(format!(
            "the config file {} does not exist; using flags and environment only",
            shown(p)
        ));
    }
    let shown_path = path
        .as_ref()
        .map(|p| shown(p))
        .unwrap_or_else(|| "the config file".into());
    let mut file = file.unwrap_or_default();

    let mut sources = Vec::new();
    // The first of flag, environment, file that is set, and where it was.
    let mut pick = |name: &'static str, flag: Option<String>, env: Option<String>, file: Option<String>| {
        let found = [(flag, Source::Flag), (env, Source::Env), (file, Source::File)]
            .into_iter()
            .find_map(|(v, s)| v.map(|v| (v, s)));
        if let Some((_, source)) = &found {
            sources.push((name, *source));
        }
        found.map(|(v, _)| v)
    };

    let profile_name = pick(
        "profile",
        flag(&args.profile),
        env(ENV_PROFILE),
        file.default_profile.clone().filter(|p| !p.trim().is_empty()),
    )
    .unwrap_or_else(|| DEFAULT_PROFILE.to_string());

    let top = file.take_top();
    let chosen = match file.profiles.remove(&profile_name) {
        Some(p) => p,
        None if profile_name == DEFAULT_PROFILE => Profile::default(),
        None => {
            let mut known: Vec<&str> = file.profiles.keys().map(String::as_str).collect();
            if top.base_url.is_some() || top.api_key.is_some() {
                known.insert(0, DEFAULT_PROFILE);
            }
            let known = if known.is_empty() {
                "none are defined".to_string()
            } else {
                format!("known profiles: {}", known.join(", "))
            };
            return Err(ConfigError::new(format!(
                "there is no profile named {profile_name:?} in {shown_path} ({known})"
            )));
        }
    };
    // Account keys at the top level belong to the `default` profile only:
    // a key must never be paired with another profile's base URL.
    let account = |pick: fn(&Profile) -> &Option<String>| -> Option<String> {
        let own = pick(&chosen).clone();
        if profile_name == DEFAULT_PROFILE {
            own.or_else(|| pick(&top).clone())
        } else {
            own
        }
    };
    let base_url = pick(
        "base_url",
        flag(&args.base_url),
        env(ENV_BASE_URL),
        account(|p| &p.base_url),
    );
    let api_key = pick(
        "api_key",
        flag(&args.api_key),
        env(ENV_API_KEY),
        account(|p| &p.api_key).filter(|k| !k.trim().is_empty()),
    );
    let user_uuid = pick(
        "user_uuid",
        flag(&args.user_uuid),
        env(ENV_USER_UUID),
        account(|p| &p.user_uuid),
    );
    let user_email = pick(
        "user_email",
        flag(&args.user_email),
        env(ENV_USER_EMAIL),
        account(|p| &p.user_email).map(|e| e.trim().to_string()),
    );
    let hub_url = pick(
        "hub_url",
        flag(&args.hub_url),
        env(ENV_HUB_URL),
        account(|p| &p.hub_url),
    );
    let hub_token = pick(
        "hub_token",
        flag(&args.hub_token),
        env(ENV_HUB_TOKEN),
        account(|p| &p.hub_token).filter(|k| !k.trim().is_empty()),
    );
    hub::check_pair(hub_url.is_some(), hub_token.is_some(), &profile_name, &shown_path)?;
    if let Some(email) = &user_email {
        checked_email(email).map_err(|problem| {
            let from = match sources.iter().find(|(n, _)| *n == "user_email").map(|(_, s)| *s) {
                Some(Source::Flag) => "--email".to_string(),
                Some(Source::Env) => ENV_USER_EMAIL.to_string(),
                _ => format!("user_email in {shown_path} (profile {profile_name:?})"),
            };
            ConfigError::new(format!("{from}: {problem}"))
        })?;
    }

    let secs = |name: &str, own: Option<u64>, global: Option<u64>, default: Duration| match own.or(global) {
        None => Ok(default),
        Some(0) => Err(ConfigError::new(format!(
            "{shown_path}: {name} must be at least 1 (profile {profile_name:?})"
        ))),
        Some(n) => Ok(Duration::from_secs(n)),
    };
    let timeout = secs("timeout_secs", chosen.timeout_secs, top.timeout_secs, DEFAULT_TIMEOUT)?;
    let refresh_interval = secs("refresh_secs", chosen.refresh_secs, top.refresh_secs, DEFAULT_REFRESH)?;
    let bell = chosen.bell.or(top.bell).unwrap_or(false);
    let sync_rate = match (args.sync_rate, file.sync_rate) {
        (Some(r), _) => r,
        (None, Some(r)) if r.is_finite() && r >= 0.0 => r,
        (None, Some(_)) => {
            return Err(ConfigError::new(format!(
                "{shown_path}: sync_rate must be a number of requests per second, 0 or more"
            )));
        }
        (None, None) => crate::index::sync::DEFAULT_SYNC_RATE,
    };
    let full_sync_interval = match file.full_sync_minutes {
        None => DEFAULT_FULL_SYNC,
        Some(0) => {
            return Err(ConfigError::new(format!(
                "{shown_path}: full_sync_minutes must be at least 1"
            )));
        }
        Some(n) => Duration::from_secs(n.saturating_mul(60)),
    };
    let cache = !args.no_cache && file.cache.unwrap_or(true);
    for (name, flag, file_set) in [
        ("cache", args.no_cache, file.cache.is_some()),
        ("sync_rate", args.sync_rate.is_some(), file.sync_rate.is_some()),
        ("full_sync_minutes", false, file.full_sync_minutes.is_some()),
    ] {
        if flag {
            sources.push((name, Source::Flag));
        } else if file_set {
            sources.push((name, Source::File));
        }
    }
    for (name, set) in [
        ("timeout_secs", chosen.timeout_secs.or(top.timeout_secs).is_some()),
        ("refresh_secs", chosen.refresh_secs.or(top.refresh_secs).is_some()),
        ("bell", chosen.bell.or(top.bell).is_some()),
    ] {
        if set {
            sources.push((name, Source::File));
        }
    }

    if api_key.is_some() && base_url.is_none() {
        return Err(ConfigError::new(format!(
            "an API key is set for profile {profile_name:?} but no base URL: set base_url in {shown_path}, \
             {ENV_BASE_URL} or --base-url"
        )));
    }

    Ok(Settings {
        profile: profile_name,
        base_url,
        api_key: api_key.map(ApiKey::new),
        hub_url,
        hub_token: hub_token.map(ApiKey::new),
        user_uuid,
        user_email,
        timeout,
        refresh_interval,
        bell,
        cache,
        sync_rate,
        full_sync_interval,
        config_path: path,
        warnings,
        looks: Looks {
            theme: file.theme.filter(|t| !t.trim().is_empty()),
            mouse: file.mouse.unwrap_or(false),
            title: file.title.unwrap_or(true),
            keys: file.keys,
            macros: file.macros,
            snippets: file.snippets,
        },
        views: file.views,
        alerts: file.alerts,
        sources,
    })
}

#[cfg(test)]
mod tests;
