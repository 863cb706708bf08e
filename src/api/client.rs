//! The HTTP client: one typed async method per endpoint.
//!
//! INTERFACE CONTRACT: the TUI and CLI are written against these signatures.
//! Bodies marked `todo!()` are being implemented (issue 2).

use std::time::Duration;

use futures::stream::BoxStream;

use super::error::ApiError;
use super::model::*;
use super::page::{Page, PageRequest};
use super::request::*;

/// An API key. Its `Debug` and `Display` never show the key.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }
    /// The secret itself, for the Authorization header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// Retry policy for idempotent requests.
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(10),
        }
    }
}

/// A client for one account of the service. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Client {
    http: reqwest::Client,
    base: url::Url,
    key: ApiKey,
    retry: RetryPolicy,
}

impl Client {
    /// `base_url` already ends in `/v1`. Refuses a non-https URL unless its
    /// host is loopback.
    pub fn new(base_url: &str, api_key: &str, timeout: Duration) -> Result<Client, ApiError> {
        let _ = (base_url, api_key, timeout, &ApiKey::new(""));
        todo!()
    }

    /// Replaces the retry policy (tests use short delays).
    pub fn with_retry(mut self, retry: RetryPolicy) -> Client {
        self.retry = retry;
        self
    }

    /// The base URL, ending in `/v1`.
    pub fn base_url(&self) -> &str {
        self.base.as_str()
    }

    // ---- contacts ----

    /// GET /contacts.
    pub async fn list_contacts(&self, _filter: &ContactFilter, _at: &PageRequest) -> Result<Page<Contact>, ApiError> {
        todo!()
    }

    /// Walks GET /contacts by cursor from the first batch until `meta.next`
    /// is null, resending `filter` each time. Ends with
    /// `ApiError::Pagination` if a cursor repeats.
    pub fn walk_contacts(&self, _filter: ContactFilter) -> BoxStream<'static, Result<Page<Contact>, ApiError>> {
        todo!()
    }

    /// GET /contacts/:uuid.
    pub async fn get_contact(&self, _uuid: &str, _include_field_types: bool) -> Result<Contact, ApiError> {
        todo!()
    }

    /// POST /contacts (never retried).
    pub async fn create_contact(&self, _body: &NewContact) -> Result<Contact, ApiError> {
        todo!()
    }

    /// PATCH /contacts/:uuid.
    pub async fn update_contact(&self, _uuid: &str, _patch: &ContactPatch) -> Result<Contact, ApiError> {
        todo!()
    }

    /// POST /contacts/:uuid/conversation/close.
    pub async fn close_conversation(&self, _uuid: &str) -> Result<Contact, ApiError> {
        todo!()
    }

    /// POST /contacts/:uuid/conversation/open.
    pub async fn open_conversation(&self, _uuid: &str) -> Result<Contact, ApiError> {
        todo!()
    }

    // ---- messages ----

    /// GET /contacts/:uuid/messages (newest first).
    pub async fn list_messages(&self, _contact_uuid: &str, _at: &PageRequest) -> Result<Page<Message>, ApiError> {
        todo!()
    }

    /// Walks a contact's messages by cursor to the end.
    pub fn walk_messages(&self, _contact_uuid: &str) -> BoxStream<'static, Result<Page<Message>, ApiError>> {
        todo!()
    }

    /// DELETE a message: body form first, path form on 404 or 405.
    pub async fn delete_message(&self, _uuid: &str) -> Result<(), ApiError> {
        todo!()
    }

    /// GET /messages/status/:uuid.
    pub async fn message_status(&self, _uuid: &str) -> Result<MessageSendRequest, ApiError> {
        todo!()
    }

    /// POST /messages/send (never retried).
    pub async fn send_message(&self, _body: &SendMessage) -> Result<SentMessage, ApiError> {
        todo!()
    }

    // ---- bot ----

    /// GET /contacts/:uuid/bot.
    pub async fn get_bot(&self, _contact_uuid: &str) -> Result<Bot, ApiError> {
        todo!()
    }

    /// POST /contacts/:uuid/bot.
    pub async fn set_bot(&self, _contact_uuid: &str, _action: BotAction) -> Result<Bot, ApiError> {
        todo!()
    }

    // ---- templates, channels, funnels, teams, plan ----

    /// GET /templates.
    pub async fn list_templates(&self, _page: Option<u32>) -> Result<Page<Template>, ApiError> {
        todo!()
    }

    /// GET /templates/:uuid.
    pub async fn get_template(&self, _uuid: &str) -> Result<Template, ApiError> {
        todo!()
    }

    /// PATCH /templates/:uuid (answer under `templates` or `template`).
    pub async fn rename_template(&self, _uuid: &str, _title: &str) -> Result<Template, ApiError> {
        todo!()
    }

    /// GET /channels (extensions.md).
    pub async fn list_channels(
        &self,
        _page: Option<u32>,
        _channel_type: Option<&str>,
    ) -> Result<Page<Channel>, ApiError> {
        todo!()
    }

    /// PATCH /channels/:uuid.
    pub async fn rename_channel(&self, _uuid: &str, _title: &str) -> Result<Channel, ApiError> {
        todo!()
    }

    /// GET /funnels.
    pub async fn list_funnels(&self) -> Result<Vec<Funnel>, ApiError> {
        todo!()
    }

    /// GET /teams (extensions.md).
    pub async fn list_teams(&self, _page: Option<u32>) -> Result<Page<Team>, ApiError> {
        todo!()
    }

    /// GET /teams/:uuid.
    pub async fn get_team(&self, _uuid: &str) -> Result<Team, ApiError> {
        todo!()
    }

    /// GET /teams/:uuid/members (extensions.md); `status` is `available` or
    /// `away`.
    pub async fn team_members(
        &self,
        _team_uuid: &str,
        _page: Option<u32>,
        _status: Option<&str>,
    ) -> Result<Page<TeamMember>, ApiError> {
        todo!()
    }

    /// GET /plan.
    pub async fn plan(&self) -> Result<Plan, ApiError> {
        todo!()
    }

    // ---- custom statuses and user status ----

    /// GET /custom_statuses (extensions.md).
    pub async fn list_custom_statuses(&self, _page: Option<u32>) -> Result<Page<CustomStatus>, ApiError> {
        todo!()
    }

    /// GET /custom_statuses/:id.
    pub async fn get_custom_status(&self, _id: &str) -> Result<CustomStatus, ApiError> {
        todo!()
    }

    /// POST /custom_statuses (extensions.md; never retried).
    pub async fn create_custom_status(&self, _body: &CustomStatusBody) -> Result<CustomStatus, ApiError> {
        todo!()
    }

    /// PUT /custom_statuses/:id (extensions.md).
    pub async fn update_custom_status(&self, _id: &str, _body: &CustomStatusBody) -> Result<CustomStatus, ApiError> {
        todo!()
    }

    /// DELETE /custom_statuses/:id (extensions.md).
    pub async fn delete_custom_status(&self, _id: &str) -> Result<(), ApiError> {
        todo!()
    }

    /// PUT /users/:uuid/status.
    pub async fn set_user_status(&self, _user_uuid: &str, _update: &UserStatusUpdate) -> Result<UserStatus, ApiError> {
        todo!()
    }

    // ---- webhooks ----

    /// GET /webhooks/events.
    pub async fn webhook_events(&self, _query: &EventQuery) -> Result<Page<WebhookEvent>, ApiError> {
        todo!()
    }
}
