//! The hub settings' check: URL and token come together.

use super::error::ConfigError;
use super::settings::{ENV_HUB_TOKEN, ENV_HUB_URL};

/// A hub needs both its URL and the agent's token.
pub(super) fn check_pair(url: bool, token: bool, profile: &str, shown_path: &str) -> Result<(), ConfigError> {
    match (url, token) {
        (true, false) => Err(ConfigError::new(format!(
            "a hub URL is set for profile {profile:?} but no agent token: set hub_token in {shown_path}, \
             {ENV_HUB_TOKEN} or --hub-token"
        ))),
        (false, true) => Err(ConfigError::new(format!(
            "a hub token is set for profile {profile:?} but no hub URL: set hub_url in {shown_path}, \
             {ENV_HUB_URL} or --hub-url"
        ))),
        _ => Ok(()),
    }
}
