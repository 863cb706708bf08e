//! A user's availability and custom status.

use reqwest::Method;

use super::params::checked_id;
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::UserStatus;
use crate::api::request::{CustomStatusChange, UserStatusUpdate};

impl Client {
    /// PUT /users/:uuid/status. Absent, null and a value of
    /// `custom_status_uuid` are three different requests (see
    /// [`UserStatusUpdate`]).
    pub async fn set_user_status(&self, user_uuid: &str, update: &UserStatusUpdate) -> Result<UserStatus, ApiError> {
        let uuid = checked_id("user", user_uuid)?;
        let mut call = Call::new(Method::PUT, &["users", uuid, "status"]).json(update)?;
        if let CustomStatusChange::Set(id) = &update.custom_status {
            call = call.about("custom status", id);
        }
        let call = call.about("user", uuid);
        let answer = self.fetch(&call).await?;
        if answer.has_object("user_status") || answer.has_object("userStatus") {
            answer.under(&["user_status", "userStatus"])
        } else {
            answer.whole()
        }
    }
}
