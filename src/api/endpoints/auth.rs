//! GET /auth/me (the public documentation's Auth API): whose key this is.

use serde::Deserialize;

use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;

/// The user a key belongs to. The answer's `api_key` is never read: a
/// secret kept nowhere it is not needed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct KeyUser {
    #[serde(
        default,
        rename = "user_name",
        deserialize_with = "crate::api::model::null_as_default"
    )]
    pub name: String,
    #[serde(
        default,
        rename = "user_email",
        deserialize_with = "crate::api::model::null_as_default"
    )]
    pub email: String,
}

impl Client {
    /// GET /auth/me: the key's user. A server without it answers
    /// `NotOffered`.
    pub async fn key_user(&self) -> Result<KeyUser, ApiError> {
        let call = Call::get(&["auth", "me"])
            .offered("looking up the key's user")
            .about("key", "");
        self.fetch(&call).await?.whole()
    }
}
