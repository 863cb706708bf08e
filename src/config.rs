//! Configuration: a TOML file with named profiles, the environment, and
//! flags. Flags beat the environment, which beats the file.
//!
//! INTERFACE CONTRACT: the TUI and CLI use these names. Bodies marked
//! `todo!()` are being implemented (issue 2).

use std::path::PathBuf;
use std::time::Duration;

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

/// Reads file, environment and flags into settings.
pub fn load(args: &GlobalArgs) -> Result<Settings, ConfigError> {
    let _ = args;
    todo!()
}
