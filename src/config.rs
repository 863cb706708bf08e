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

use std::path::PathBuf;
use std::time::Duration;

use crate::api::ApiKey;

mod alerts;
mod error;
mod file;
mod hub;
pub mod init;
mod save;
mod settings;
mod views;

pub use crate::api::model::checked_email;
pub use crate::hubclient::hub_root;
pub use alerts::Alerts;
pub use error::ConfigError;
pub(crate) use error::shown;
pub use file::KeyEntry;
use file::{Profile, read_file};
pub use settings::{
    API_KEY_FLAG_WARNING, DEFAULT_FULL_SYNC, DEFAULT_PROFILE, DEFAULT_REFRESH, DEFAULT_TIMEOUT, ENV_API_KEY,
    ENV_BASE_URL, ENV_CONFIG, ENV_HUB_TOKEN, ENV_HUB_URL, ENV_PROFILE, ENV_USER_EMAIL, ENV_USER_UUID, GLOBAL_HEADING,
    GlobalArgs, Looks, Settings, Source,
};
pub use views::{from_toml as views_from_toml, save_view, views_toml};

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
            image_previews: file.image_previews.unwrap_or(true),
            hyperlinks: file.hyperlinks.unwrap_or(true),
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
