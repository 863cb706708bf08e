//! Bearer tokens on every agent route. The token is looked up in the
//! hub's file on every request, so one removed on the command line is
//! refused from the next request on, and so is one past its expiry.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::agents::{self, Agent};
use super::state::HubState;
use super::wire;

/// The agent a request came from, and its token's hash (streams check it
/// again when the agents change).
#[derive(Debug, Clone)]
pub struct Authed {
    pub agent: Agent,
    pub token_hash: String,
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

pub async fn require_agent(State(state): State<Arc<HubState>>, mut req: Request, next: Next) -> Response {
    let Some(token) = bearer(req.headers()).filter(|t| !t.is_empty()) else {
        return wire::error(StatusCode::UNAUTHORIZED, wire::UNKNOWN_TOKEN).into_response();
    };
    let hash = agents::hash_token(token);
    match agents::by_hash(&state.store, &hash) {
        Ok(Some(agent)) if agent.expired(chrono::Utc::now()) => wire::error(
            StatusCode::UNAUTHORIZED,
            "this agent token has expired: ask the hub's admin for a new one (frontdesk hub agents rotate NAME)",
        )
        .into_response(),
        Ok(Some(agent)) => {
            req.extensions_mut().insert(Authed {
                agent,
                token_hash: hash,
            });
            next.run(req).await
        }
        Ok(None) => wire::error(StatusCode::UNAUTHORIZED, wire::UNKNOWN_TOKEN).into_response(),
        Err(e) => {
            tracing::error!("checking a token failed: {e}");
            wire::error(StatusCode::SERVICE_UNAVAILABLE, "the hub cannot check tokens right now").into_response()
        }
    }
}
