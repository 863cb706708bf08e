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

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::api::ApiKey;

mod file;
pub mod init;

pub use file::KeyEntry;
use file::{FileConfig, Profile};

/// The heading the options every client command shares go under in
/// `--help`, after the command's own.
pub const GLOBAL_HEADING: &str = "Global options";

/// Options every client command accepts (global in clap; `serve` has none
/// of them).
#[derive(Debug, Clone, Default, clap::Args)]
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
    /// Config file to read instead of the platform's default [env: FRONTDESK_CONFIG]
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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
    /// Theme, mouse, title and keys.
    pub looks: Looks,
    /// Where each account setting came from, by its file name
    /// (`base_url`, `api_key`, `user_uuid`, `profile`).
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
        looks: Looks {
            theme: file.theme.filter(|t| !t.trim().is_empty()),
            mouse: file.mouse.unwrap_or(false),
            title: file.title.unwrap_or(true),
            keys: file.keys,
        },
        sources,
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
    let parsed = file::parse(path, &text, warnings)?;
    let holds_key = parsed.api_key.is_some() || parsed.profiles.values().any(|p| p.api_key.is_some());
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
