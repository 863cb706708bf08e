//! Plan details.

use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::Plan;

impl Client {
    /// GET /plan (the plan object at top level; `{plan: {...}}` is read
    /// too).
    pub async fn plan(&self) -> Result<Plan, ApiError> {
        let call = Call::get(&["plan"]).about("plan", "");
        let answer = self.fetch(&call).await?;
        if answer.has_object("plan") {
            answer.under(&["plan"])
        } else {
            answer.whole()
        }
    }
}
