//! The hub settings' helpers: the hub's root URL, the check that URL and
//! token come together, and Debug output without secrets.

use super::{ConfigError, ENV_HUB_TOKEN, ENV_HUB_URL, GlobalArgs, Settings};
use crate::api::ApiError;
use crate::api::hub::HubClient;

/// A hub URL as given, without trailing slashes and `/v1`.
pub fn hub_root(url: &str) -> String {
    let t = url.trim().trim_end_matches('/');
    t.strip_suffix("/v1").unwrap_or(t).trim_end_matches('/').to_string()
}

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
