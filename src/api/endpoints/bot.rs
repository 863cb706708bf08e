//! The bot of a contact.

use reqwest::Method;

use super::params::checked_id;
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::{Bot, ContactId};
use crate::api::request::BotAction;

impl Client {
    /// GET /contacts/:uuid/bot.
    pub async fn get_bot(&self, contact_uuid: &ContactId) -> Result<Bot, ApiError> {
        let uuid = checked_id("contact", contact_uuid)?;
        let call = Call::get(&["contacts", uuid, "bot"])
            .about("contact", uuid)
            .about("bot", "");
        self.fetch(&call).await?.one(&["bot"])
    }

    /// POST /contacts/:uuid/bot (idempotent: setting a state twice is
    /// harmless, so it is retried).
    pub async fn set_bot(&self, contact_uuid: &ContactId, action: BotAction) -> Result<Bot, ApiError> {
        let uuid = checked_id("contact", contact_uuid)?;
        let call = Call::new(Method::POST, &["contacts", uuid, "bot"])
            .json(&serde_json::json!({ "status": action }))?
            .idempotent(true)
            .about("contact", uuid)
            .about("bot", "");
        self.fetch(&call).await?.one(&["bot"])
    }
}
