//! Funnels.

use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::Funnel;

impl Client {
    /// GET /funnels.
    pub async fn list_funnels(&self) -> Result<Vec<Funnel>, ApiError> {
        let call = Call::get(&["funnels"]).about("funnel list", "");
        Ok(self.fetch(&call).await?.page(&["funnels"])?.items)
    }
}
