//! Message templates.

use futures::stream::BoxStream;
use reqwest::Method;

use super::params::{checked_id, page_param};
use crate::api::call::Call;
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::api::model::{Template, TemplateId};
use crate::api::page::{Page, walk_numbered};

impl Client {
    /// GET /templates.
    pub async fn list_templates(&self, page: Option<u32>) -> Result<Page<Template>, ApiError> {
        let call = Call::get(&["templates"])
            .query_opt("page", page_param(page))
            .about("template list", "");
        self.fetch(&call).await?.page(&["templates"])
    }

    /// Every page of GET /templates, from page 1 to `meta.pages`.
    pub fn walk_templates(&self) -> BoxStream<'static, Result<Page<Template>, ApiError>> {
        let client = self.clone();
        walk_numbered(move |n| {
            let client = client.clone();
            async move { client.list_templates(Some(n)).await }
        })
    }

    /// GET /templates/:uuid.
    pub async fn get_template(&self, uuid: &TemplateId) -> Result<Template, ApiError> {
        let uuid = checked_id("template", uuid)?;
        let call = Call::get(&["templates", uuid]).about("template", uuid);
        self.fetch(&call).await?.one(&["template", "templates"])
    }

    /// PATCH /templates/:uuid (answer under `templates` or `template`).
    pub async fn rename_template(&self, uuid: &TemplateId, title: &str) -> Result<Template, ApiError> {
        let uuid = checked_id("template", uuid)?;
        let call = Call::new(Method::PATCH, &["templates", uuid])
            .json(&serde_json::json!({ "title": title }))?
            .about("template", uuid);
        self.fetch(&call).await?.one(&["templates", "template"])
    }
}
