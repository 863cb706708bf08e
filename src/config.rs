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
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Fixture {
        dir: tempfile::TempDir,
    }

    impl Fixture {
        fn new() -> Fixture {
            Fixture {
                dir: tempfile::tempdir().unwrap(),
            }
        }

        fn file(&self, text: &str, mode: u32) -> PathBuf {
            let p = self.dir.path().join("config.toml");
            std::fs::write(&p, text).unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
            }
            #[cfg(not(unix))]
            let _ = mode;
            p
        }
    }

    fn args(config: &Path) -> GlobalArgs {
        GlobalArgs {
            config: Some(config.to_path_buf()),
            ..Default::default()
        }
    }

    fn load_with(args: &GlobalArgs, env: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let env: HashMap<String, String> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        load_from(args, &|k| env.get(k).cloned(), None)
    }

    const TWO_PROFILES: &str = r#"
default_profile = "work"
refresh_secs = 9
bell = true

[profiles.work]
base_url = "https://work.example.com/v1"
api_key = "work-key"
user_uuid = "u-work"
timeout_secs = 30

[profiles.home]
base_url = "https://home.example.com/v1"
api_key = "home-key"
refresh_secs = 2
bell = false
"#;

    #[test]
    fn missing_default_file_gives_demo_defaults() {
        let f = Fixture::new();
        let s = load_from(&GlobalArgs::default(), &|_| None, Some(f.dir.path().join("nope.toml"))).unwrap();
        assert_eq!(s.profile, "default");
        assert_eq!(s.api_key, None);
        assert_eq!(s.base_url, None);
        assert_eq!(s.timeout, Duration::from_secs(15));
        assert_eq!(s.refresh_interval, Duration::from_secs(5));
        assert!(!s.bell);
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
        assert_eq!(s.config_path, Some(f.dir.path().join("nope.toml")));
    }

    #[test]
    fn profiles_and_global_defaults() {
        let f = Fixture::new();
        let p = f.file(TWO_PROFILES, 0o600);
        let s = load_with(&args(&p), &[]).unwrap();
        assert_eq!(s.profile, "work");
        assert_eq!(s.base_url.as_deref(), Some("https://work.example.com/v1"));
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("work-key"));
        assert_eq!(s.user_uuid.as_deref(), Some("u-work"));
        assert_eq!(s.timeout, Duration::from_secs(30));
        assert_eq!(s.refresh_interval, Duration::from_secs(9));
        assert!(s.bell);
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);

        let s = load_with(&args(&p), &[("FRONTDESK_PROFILE", "home")]).unwrap();
        assert_eq!(s.profile, "home");
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("home-key"));
        assert_eq!(s.user_uuid, None);
        assert_eq!(s.timeout, Duration::from_secs(15));
        assert_eq!(s.refresh_interval, Duration::from_secs(2));
        assert!(!s.bell);
    }

    #[test]
    fn flags_beat_env_beat_file() {
        let f = Fixture::new();
        let p = f.file(TWO_PROFILES, 0o600);
        let env = [
            ("FRONTDESK_API_KEY", "env-key"),
            ("FRONTDESK_BASE_URL", "https://env.example.com/v1"),
            ("FRONTDESK_USER_UUID", "u-env"),
            ("FRONTDESK_PROFILE", "work"),
        ];
        let s = load_with(&args(&p), &env).unwrap();
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("env-key"));
        assert_eq!(s.base_url.as_deref(), Some("https://env.example.com/v1"));
        assert_eq!(s.user_uuid.as_deref(), Some("u-env"));

        let mut a = args(&p);
        a.api_key = Some("flag-key".into());
        a.base_url = Some("https://flag.example.com/v1".into());
        a.user_uuid = Some("u-flag".into());
        a.profile = Some("home".into());
        let s = load_with(&a, &env).unwrap();
        assert_eq!(s.profile, "home");
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("flag-key"));
        assert_eq!(s.base_url.as_deref(), Some("https://flag.example.com/v1"));
        assert_eq!(s.user_uuid.as_deref(), Some("u-flag"));
    }

    #[test]
    fn config_path_from_env() {
        let f = Fixture::new();
        let p = f.file(TWO_PROFILES, 0o600);
        let s = load_with(&GlobalArgs::default(), &[("FRONTDESK_CONFIG", p.to_str().unwrap())]).unwrap();
        assert_eq!(s.profile, "work");
        assert_eq!(s.config_path.as_deref(), Some(p.as_path()));
    }

    #[test]
    fn unknown_profile_lists_known_ones() {
        let f = Fixture::new();
        let p = f.file(TWO_PROFILES, 0o600);
        let mut a = args(&p);
        a.profile = Some("play".into());
        let e = load_with(&a, &[]).unwrap_err();
        assert!(e.0.contains("\"play\""), "{e}");
        assert!(e.0.contains("home, work"), "{e}");
        assert!(e.0.contains(&p.display().to_string()), "{e}");
    }

    #[test]
    fn top_level_keys_are_the_default_profile_only() {
        let f = Fixture::new();
        let text = "base_url = \"https://top.example.com/v1\"\napi_key = \"top-key\"\n\n\
                    [profiles.other]\nbase_url = \"https://other.example.com/v1\"\n";
        let p = f.file(text, 0o600);
        let s = load_with(&args(&p), &[]).unwrap();
        assert_eq!(s.profile, "default");
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("top-key"));
        let mut a = args(&p);
        a.profile = Some("other".into());
        let s = load_with(&a, &[]).unwrap();
        assert_eq!(
            s.api_key, None,
            "the top-level key must not travel to another profile's host"
        );
        assert_eq!(s.base_url.as_deref(), Some("https://other.example.com/v1"));
    }

    #[test]
    fn malformed_file_names_file_line_and_problem() {
        let f = Fixture::new();
        let p = f.file(
            "bell = true\n\n[profiles.work]\nbase_url = \"https://x/v1\napi_key = 3\n",
            0o600,
        );
        let e = load_with(&args(&p), &[]).unwrap_err();
        assert!(e.0.starts_with(&format!("{} line 4:", p.display())), "{e}");

        let p = f.file("refresh_secs = \"soon\"\n", 0o600);
        let e = load_with(&args(&p), &[]).unwrap_err();
        assert!(e.0.contains("line 1:"), "{e}");
        assert!(e.0.contains("integer") || e.0.contains("u64"), "{e}");
    }

    #[test]
    fn key_without_base_url_is_an_error() {
        let f = Fixture::new();
        let p = f.file("api_key = \"k\"\n", 0o600);
        let e = load_with(&args(&p), &[]).unwrap_err();
        assert!(e.0.contains("no base URL"), "{e}");
        let s = load_with(&args(&p), &[("FRONTDESK_BASE_URL", "https://x.example.com/v1")]).unwrap();
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("k"));
    }

    #[test]
    fn zero_intervals_are_refused() {
        let f = Fixture::new();
        let p = f.file("timeout_secs = 0\n", 0o600);
        assert!(load_with(&args(&p), &[]).unwrap_err().0.contains("timeout_secs"));
    }

    #[cfg(unix)]
    #[test]
    fn readable_key_file_gets_a_chmod_warning() {
        let f = Fixture::new();
        let p = f.file(TWO_PROFILES, 0o644);
        let s = load_with(&args(&p), &[]).unwrap();
        assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
        assert!(
            s.warnings[0].contains(&format!("chmod 600 {}", p.display())),
            "{:?}",
            s.warnings
        );

        let p = f.file("bell = true\n", 0o644);
        let s = load_with(&args(&p), &[]).unwrap();
        assert!(s.warnings.is_empty(), "no key, no warning: {:?}", s.warnings);
    }

    #[test]
    fn unknown_keys_warn_and_explicit_missing_file_warns() {
        let f = Fixture::new();
        let p = f.file("api-key = \"x\"\n[profiles.a]\ncolour = 1\n", 0o600);
        let s = load_with(&args(&p), &[]).unwrap();
        assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
        assert!(s.warnings[0].contains("api-key") && s.warnings[0].contains("profiles.a.colour"));

        let s = load_with(&args(&f.dir.path().join("missing.toml")), &[]).unwrap();
        assert!(s.warnings[0].contains("does not exist"), "{:?}", s.warnings);
    }

    #[test]
    fn settings_debug_hides_the_key() {
        let f = Fixture::new();
        let p = f.file(TWO_PROFILES, 0o600);
        let s = load_with(&args(&p), &[]).unwrap();
        let shown = format!("{s:?}");
        assert!(!shown.contains("work-key"), "{shown}");
    }
}
