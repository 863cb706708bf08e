//! `/mcp`: the inbox's MCP tools (`crate::mcp`, the very ones
//! `frontdesk mcp` serves) over MCP's Streamable HTTP transport (rmcp's
//! `StreamableHttpService`), so a team's assistant needs no API key and no
//! local index.
//!
//! Every request passes the agent routes' token check first (`auth`): no
//! token or a wrong one is a 401 and nothing else. Each call acts as the
//! agent whose token it carries:
//!
//! - reads answer from the hub's own index (the one its snapshot gives),
//!   and what the index does not hold from the service through the hub;
//! - the tools' service calls go to the hub's own `/v1` with the agent's
//!   token, so a write takes the hub's one write path (`forward`): the
//!   allowlist, the agent's rate, the audit under the agent's name, the
//!   index and every agent's stream updated;
//! - writes are offered to an admin's token only; another agent's write
//!   is a tool error naming the fix;
//! - `history` is the agent's part of the audit.
//!
//! The hub reaches its own `/v1` on a loopback listener it opens the
//! first time a tool needs it (the public listener may be TLS or a Unix
//! socket); that listener serves the same token-checked routes and closes
//! with the hub.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::http::{header, request::Parts};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, ServerHandler};
use serde_json::{Value, json};

use super::agents::{Agent, Role};
use super::auth::Authed;
use super::state::HubState;
use crate::mcp::fresh::Seen;
use crate::mcp::{Fresh, Inbox, Remote};

/// The service behind `/mcp`.
pub type McpService = StreamableHttpService<Tools, LocalSessionManager>;

/// Agents' tool sets kept at once (one per token); past it they are
/// built again.
const KEPT: usize = 256;
/// How long a call waits on the tools' requests to the hub itself.
const SELF_TIMEOUT: Duration = Duration::from_secs(30);

/// The hub's routes, `/mcp` among them: what the loopback listener serves.
/// Handed in by `mod.rs`, which builds them, so this file needs nothing above it.
pub type Routes = fn(Arc<HubState>) -> axum::Router;

/// `/mcp` for this hub, as a service for the agent routes (`routes`: the
/// hub's own, for its loopback listener). Sessions end when the hub stops.
pub fn service(state: Arc<HubState>, routes: Routes) -> axum::Router {
    axum::Router::new()
        .route_service("/mcp", tools(state, routes))
        .layer(axum::middleware::from_fn(ended))
}

/// A session ended by the client (DELETE) is answered 200, not rmcp's
/// 202: the official Python SDK warns on anything but 200 or 204.
async fn ended(req: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    let delete = req.method() == axum::http::Method::DELETE;
    let mut resp = next.run(req).await;
    if delete && resp.status() == axum::http::StatusCode::ACCEPTED {
        *resp.status_mut() = axum::http::StatusCode::OK;
    }
    resp
}

fn tools(state: Arc<HubState>, routes: Routes) -> McpService {
    // The token check guards every request, so any Host may ask (a public
    // hub answers to its own name); a browser's Origin gains nothing
    // without a token either.
    let config = StreamableHttpServerConfig::default().disable_allowed_hosts();
    let ct = config.cancellation_token.clone();
    let mut stopping = state.stopping.subscribe();
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        rt.spawn(async move {
            let _ = stopping.wait_for(|s| *s).await;
            ct.cancel();
        });
    }
    let shared = Arc::new(Shared {
        fresh: Fresh::new(&state.config.base_url),
        state,
        routes,
        own: tokio::sync::OnceCell::new(),
        inboxes: Mutex::new(HashMap::new()),
    });
    StreamableHttpService::new(move || Ok(Tools(shared.clone())), Arc::default(), config)
}

struct Shared {
    state: Arc<HubState>,
    /// The routes the loopback listener serves.
    routes: Routes,
    /// The hub's own loopback address, once opened.
    own: tokio::sync::OnceCell<String>,
    /// How the hub's index stands, as every agent's tools report it.
    fresh: Fresh,
    /// Each token's tools, with the agent they were built for.
    inboxes: Mutex<HashMap<String, (Agent, Arc<Inbox>)>>,
}

/// The tools of one `/mcp` session; each request acts as its token's agent.
#[derive(Clone)]
pub struct Tools(Arc<Shared>);

fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

impl Shared {
    /// The hub's own address on loopback, opened the first time.
    async fn own(&self) -> Result<&str, String> {
        self.own
            .get_or_try_init(|| async {
                let l = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .map_err(|e| format!("the hub could not reach itself: {e}"))?;
                let url = format!(
                    "http://{}",
                    l.local_addr()
                        .map_err(|e| format!("the hub could not reach itself: {e}"))?
                );
                let (tx, rx) = tokio::sync::oneshot::channel();
                let app = (self.routes)(self.state.clone());
                tokio::spawn(crate::listen::serve(l, app, self.state.config.limits, rx));
                let mut stopping = self.state.stopping.subscribe();
                tokio::spawn(async move {
                    let _ = stopping.wait_for(|s| *s).await;
                    let _ = tx.send(());
                });
                Ok(url)
            })
            .await
            .map(String::as_str)
    }

    /// The tools for the request's agent: its token, its role, its email.
    async fn inbox(&self, ctx: &RequestContext<RoleServer>) -> Result<Arc<Inbox>, McpError> {
        let parts = ctx.extensions.get::<Parts>();
        let who = parts.and_then(|p| p.extensions.get::<Authed>());
        let token = parts.and_then(bearer);
        let (Some(who), Some(token)) = (who, token) else {
            return Err(McpError::invalid_request("this request carries no agent token", None));
        };
        {
            let kept = self.inboxes.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some((agent, inbox)) = kept.get(&who.token_hash)
                && *agent == who.agent
            {
                return Ok(inbox.clone());
            }
        }
        let own = self.own().await.map_err(|e| McpError::internal_error(e, None))?;
        let inbox = Arc::new(
            self.build(own, &who.agent, token)
                .map_err(|e| McpError::internal_error(e, None))?,
        );
        let mut kept = self.inboxes.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() >= KEPT {
            kept.clear();
        }
        kept.insert(who.token_hash.clone(), (who.agent.clone(), inbox.clone()));
        Ok(inbox)
    }

    fn build(&self, own: &str, agent: &Agent, token: &str) -> Result<Inbox, String> {
        let client = crate::api::Client::new(&format!("{own}/v1"), token, SELF_TIMEOUT).map_err(|e| e.to_string())?;
        let hub = crate::hubclient::HubClient::new(own, token, SELF_TIMEOUT).map_err(|e| e.to_string())?;
        let (st, name) = (self.state.clone(), agent.name.clone());
        let history = move || runs(&st, &name);
        Ok(Inbox {
            client,
            index: self.state.index.clone(),
            fresh: self.fresh.clone(),
            views: crate::triage::builtin_views(),
            me: Some(agent.email.clone()).filter(|e| !e.trim().is_empty()),
            drafts: None,
            snoozed: None,
            hub: Some(hub),
            allow_writes: agent.role == Role::Admin,
            account: (self.state.config.base_url.clone(), "hub".into()),
            snippets: (None, toml::Table::new()),
            // The hub's audit records each write, under the agent.
            record: Box::new(|_, _| {}),
            remote: Some(Remote {
                agent: agent.name.clone(),
                history: Box::new(history),
            }),
        })
    }

    /// Tells the tools how the hub's index stands now.
    async fn refresh(&self) {
        let st = self.state.clone();
        if let Ok(seen) = tokio::task::spawn_blocking(move || seen(&st)).await {
            self.fresh.set(seen);
        }
    }
}

/// How the hub's index stands: walked once (complete), when the last
/// reconciliation pass started (as of), the walk under way, the service's
/// health.
fn seen(st: &HubState) -> Seen {
    let mut s = Seen::default();
    let sync = st
        .index
        .try_with_for(Duration::from_secs(2), |ix| ix.sync_state())
        .and_then(Result::ok)
        .unwrap_or_default();
    let passed = super::reconcile::last_start(st);
    s.status.complete = sync.full_walk_finished_at.is_some();
    s.status.synced_at = match (passed, sync.full_walk_finished_at) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    if !s.status.complete {
        s.status.walking = Some((sync.walk_done, sync.walk_expected));
    }
    s.status.offline = st.guard.health.state() == super::guard::ServiceState::Down;
    s
}

/// What a write through the hub did, in a word.
fn action(method: &str, path: &str) -> String {
    let end = |s: &str| path.trim_end_matches('/').ends_with(s);
    let contact = path.starts_with("/contacts/");
    match method {
        "POST" if end("/conversation/close") => "closed".into(),
        "POST" if end("/conversation/open") => "reopened".into(),
        "POST" if end("/conversation/note") => "note added".into(),
        "PUT" if end("/update_funnel") => "funnel moved".into(),
        "POST" if end("/bot") => "bot changed".into(),
        "PATCH" if contact => "changed (assignee, team, tags or fields)".into(),
        "DELETE" if contact => "deleted".into(),
        "POST" if path == "/contacts" => "created".into(),
        "POST" if path.starts_with("/messages/send") => "message sent".into(),
        "DELETE" if path.starts_with("/messages") => "message deleted".into(),
        _ => format!("{method} {path}"),
    }
}

/// `name`'s writes from the hub's audit, newest first, in `history`'s
/// shape: one run per write, naming its contact.
fn runs(st: &HubState, name: &str) -> Result<Vec<Value>, String> {
    let mut entries = super::audit::read(&st.store, None, super::audit::MAX_LIMIT)
        .map_err(|e| format!("the hub's audit cannot be read: {e}"))?;
    entries.retain(|e| e.agent == name);
    st.index.try_with_for(Duration::from_secs(2), |ix| {
        for e in entries.iter_mut() {
            if let Some(uuid) = &e.contact {
                e.name = ix.get(uuid).ok().flatten().map(|c| c.name).filter(|n| !n.is_empty());
            }
        }
    });
    Ok(entries
        .into_iter()
        .map(|e| {
            let outcome = if (200..300).contains(&e.status) {
                "done".to_string()
            } else {
                format!("failed (HTTP {})", e.status)
            };
            let contacts: Vec<Value> = e
                .contact
                .iter()
                .map(|uuid| json!({ "uuid": uuid, "name": e.name.clone().unwrap_or_default(), "outcome": outcome }))
                .collect();
            json!({ "id": e.at, "at": e.at, "action": action(&e.method, &e.path),
                "what": format!("{} {} by {} through the hub", e.method, e.path, e.agent),
                "total": 1, "contacts": contacts })
        })
        .collect())
}

impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        crate::mcp::server_info()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let inbox = self.0.inbox(&context).await?;
        inbox.list_tools(request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let inbox = self.0.inbox(&context).await?;
        self.0.refresh().await;
        inbox.call_tool(request, context).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let inbox = self.0.inbox(&context).await?;
        inbox.list_prompts(request, context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let inbox = self.0.inbox(&context).await?;
        self.0.refresh().await;
        inbox.get_prompt(request, context).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let inbox = self.0.inbox(&context).await?;
        inbox.list_resources(request, context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let inbox = self.0.inbox(&context).await?;
        inbox.list_resource_templates(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let inbox = self.0.inbox(&context).await?;
        self.0.refresh().await;
        inbox.read_resource(request, context).await
    }
}

#[cfg(test)]
mod tests {
    use super::action;

    #[test]
    fn each_write_is_named_in_a_word() {
        assert_eq!(action("POST", "/contacts/ab12/conversation/close"), "closed");
        assert_eq!(action("POST", "/contacts/ab12/conversation/note"), "note added");
        assert_eq!(action("POST", "/messages/send"), "message sent");
        assert!(action("PATCH", "/contacts/ab12").starts_with("changed"));
        assert_eq!(action("PUT", "/users/ab/status"), "PUT /users/ab/status");
    }
}
