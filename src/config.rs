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
//! # Top-level account keys form the profile named "default".
//! base_url = "https://api.example.com/v1"
//! api_key = "..."
//! user_uuid = "..."
//!
//! [profiles.work]
//! base_url = "https://api.example.com/v1"
//! api_key = "..."
//! user_uuid = "..."
//! timeout_secs = 15          # refresh_secs and bell may be set here too
//! ```
//!
//! INTERFACE CONTRACT: the TUI and CLI use these names.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::api::ApiKey;

/// Options every command accepts (global in clap).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct GlobalArgs {
    /// Base URL of the service, ending in /v1 [env: FRONTDESK_BASE_URL]
    #[arg(long, global = true)]
    pub base_url: Option<String>,
    /// API key [env: FRONTDESK_API_KEY]
    #[arg(long, global = true, hide_env_values = true)]
    pub api_key: Option<String>,
    /// Named profile (account) from the config file
    #[arg(long, global = true)]
    pub profile: Option<String>,
    /// Your own user uuid, for availability and custom status [env: FRONTDESK_USER_UUID]
    #[arg(long = "user", global = true)]
    pub user_uuid: Option<String>,
    /// Config file to read instead of the platform's default
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
}

/// The resolved settings for one account.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Profile name in use (`default` when none was chosen).
    pub profile: String,
    /// Base URL ending in /v1; `None` with no key means demo mode.
    pub base_url: Option<String>,
    pub api_key: Option<ApiKey>,
    /// The agent's own user uuid.
    pub user_uuid: Option<String>,
    /// Request timeout.
    pub timeout: Duration,
    /// How often the TUI refreshes the first page and the open thread.
    pub refresh_interval: Duration,
    /// Ring the terminal bell on a new message.
    pub bell: bool,
    /// Where the config file is (whether or not it exists).
    pub config_path: Option<PathBuf>,
    /// Warnings to show the user (e.g. a key in a file others can read).
    pub warnings: Vec<String>,
}

impl Settings {
    /// True when no key is configured: the TUI runs on the demo account.
    pub fn is_demo(&self) -> bool {
        self.api_key.is_none()
    }

    /// The API client for these settings; `Ok(None)` in demo mode (no key).
    pub fn client(&self) -> Result<Option<crate::api::Client>, crate::api::ApiError> {
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
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// Default request timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// Default refresh interval of the TUI.
pub const DEFAULT_REFRESH: Duration = Duration::from_secs(5);
/// The profile used when none is chosen.
pub const DEFAULT_PROFILE: &str = "default";

/// The environment variables `load` reads.
pub const ENV_API_KEY: &str = "FRONTDESK_API_KEY";
pub const ENV_BASE_URL: &str = "FRONTDESK_BASE_URL";
pub const ENV_USER_UUID: &str = "FRONTDESK_USER_UUID";
pub const ENV_PROFILE: &str = "FRONTDESK_PROFILE";
pub const ENV_CONFIG: &str = "FRONTDESK_CONFIG";

/// One account's keys, in a profile or at the top level.
#[derive(Debug, Default, Deserialize)]
struct Profile {
    base_url: Option<String>,
    api_key: Option<String>,
    user_uuid: Option<String>,
    timeout_secs: Option<u64>,
    refresh_secs: Option<u64>,
    bell: Option<bool>,
    #[serde(flatten)]
    unknown: BTreeMap<String, toml::Value>,
}

#[derive(Debug, Default, Deserialize)]
struct FileConfig {
    default_profile: Option<String>,
    #[serde(default)]
    profiles: BTreeMap<String, Profile>,
    /// Top-level account keys and global defaults.
    #[serde(flatten)]
    top: Profile,
}

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
            p.display()
        ));
    }
    let shown_path = path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "the config file".into());
    let mut file = file.unwrap_or_default();

    let profile_name = flag(&args.profile)
        .or_else(|| env(ENV_PROFILE))
        .or_else(|| file.default_profile.clone().filter(|p| !p.trim().is_empty()))
        .unwrap_or_else(|| DEFAULT_PROFILE.to_string());

    let top = std::mem::take(&mut file.top);
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
            return Err(ConfigError(format!(
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
    let base_url = flag(&args.base_url)
        .or_else(|| env(ENV_BASE_URL))
        .or_else(|| account(|p| &p.base_url));
    let api_key = flag(&args.api_key)
        .or_else(|| env(ENV_API_KEY))
        .or_else(|| account(|p| &p.api_key).filter(|k| !k.trim().is_empty()));
    let user_uuid = flag(&args.user_uuid)
        .or_else(|| env(ENV_USER_UUID))
        .or_else(|| account(|p| &p.user_uuid));

    let secs = |name: &str, own: Option<u64>, global: Option<u64>, default: Duration| match own.or(global) {
        None => Ok(default),
        Some(0) => Err(ConfigError(format!(
            "{shown_path}: {name} must be at least 1 (profile {profile_name:?})"
        ))),
        Some(n) => Ok(Duration::from_secs(n)),
    };
    let timeout = secs("timeout_secs", chosen.timeout_secs, top.timeout_secs, DEFAULT_TIMEOUT)?;
    let refresh_interval = secs("refresh_secs", chosen.refresh_secs, top.refresh_secs, DEFAULT_REFRESH)?;
    let bell = chosen.bell.or(top.bell).unwrap_or(false);

    if api_key.is_some() && base_url.is_none() {
        return Err(ConfigError(format!(
            "an API key is set for profile {profile_name:?} but no base URL: set base_url in {shown_path}, \
             {ENV_BASE_URL} or --base-url"
        )));
    }

    Ok(Settings {
        profile: profile_name,
        base_url,
        api_key: api_key.map(ApiKey::new),
        user_uuid,
        timeout,
        refresh_interval,
        bell,
        config_path: path,
        warnings,
    })
}

/// Reads and parses the file; `None` when it does not exist.
fn read_file(path: &Path, warnings: &mut Vec<String>) -> Result<Option<FileConfig>, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ConfigError(format!(
                "the config file {} cannot be read: {e}",
                path.display()
            )));
        }
    };
    let parsed: FileConfig = toml::from_str(&text).map_err(|e| {
        let problem = e.message().trim().to_string();
        match e.span() {
            Some(span) => {
                let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
                ConfigError(format!("{} line {line}: {problem}", path.display()))
            }
            None => ConfigError(format!("{}: {problem}", path.display())),
        }
    })?;

    let mut unknown: Vec<String> = parsed.top.unknown.keys().cloned().collect();
    for (name, p) in &parsed.profiles {
        unknown.extend(p.unknown.keys().map(|k| format!("profiles.{name}.{k}")));
    }
    if !unknown.is_empty() {
        warnings.push(format!(
            "{} has settings frontdesk does not know (ignored): {}",
            path.display(),
            unknown.join(", ")
        ));
    }
    let holds_key = parsed.top.api_key.is_some() || parsed.profiles.values().any(|p| p.api_key.is_some());
    if holds_key && let Some(w) = permission_warning(path) {
        warnings.push(w);
    }
    Ok(Some(parsed))
}

/// A warning when a file holding a key can be read by group or others.
#[cfg(unix)]
fn permission_warning(path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode();
    (mode & 0o077 != 0).then(|| {
        format!(
            "{p} holds an API key and other users can read it (mode {:o}); run: chmod 600 {p}",
            mode & 0o777,
            p = path.display()
        )
    })
}

#[cfg(not(unix))]
fn permission_warning(_path: &Path) -> Option<String> {
    None
}

#[cfg(test)]
mod tests;
