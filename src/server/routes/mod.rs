//! HTTP routes under `/v1`, one file per resource (mirroring `src/api`).

mod body;
mod bot;
mod channels;
pub(super) mod contact_view;
mod contacts;
mod contacts_more;
mod custom_statuses;
mod funnels;
pub(super) mod messages;
mod params;
mod plan;
mod send;
mod teams;
mod templates;
mod users;
mod webhooks;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use serde_json::json;

use super::config::ServerConfig;
use super::error::ApiError;
use super::faults::{self, Faults};
use super::state::Shared;

pub fn router(state: Shared, cfg: &ServerConfig) -> Router {
    let api = Router::new()
        .route("/contacts", get(contacts::list).post(contacts::create))
        .route("/auth/me", get(contacts_more::me))
        .route(
            "/contacts/{uuid}",
            get(contacts::show)
                .patch(contacts::update)
                .delete(contacts_more::delete),
        )
        .route("/contacts/phone/{phone}", get(contacts_more::by_phone))
        .route("/contacts/bsuid/{bsuid}", get(contacts_more::by_bsuid))
        .route("/contacts/{uuid}/conversation/note", post(contacts_more::note))
        .route(
            "/contacts/{uuid}/conversation/update_funnel",
            put(contacts_more::update_funnel),
        )
        // The reference's heading spells the single-contact path this way.
        .route("/contact/{uuid}", get(contacts::show))
        .route("/contacts/{uuid}/conversation/close", post(contacts::close))
        .route("/contacts/{uuid}/conversation/open", post(contacts::open))
        .route("/contacts/{uuid}/messages", get(messages::list))
        .route("/contacts/{uuid}/bot", get(bot::show).post(bot::set))
        .route("/messages", delete(messages::delete_by_body))
        .route("/messages/send", post(send::send))
        .route("/messages/status/{uuid}", get(messages::status))
        .route("/messages/{uuid}", delete(messages::delete_by_path))
        .route("/templates", get(templates::list))
        .route("/templates/{uuid}", get(templates::show).patch(templates::rename))
        .route("/channels", get(channels::list))
        .route("/channels/{uuid}", get(channels::show).patch(channels::rename))
        .route("/funnels", get(funnels::list))
        .route("/teams", get(teams::list))
        .route("/teams/{uuid}", get(teams::show).patch(teams::rename))
        .route("/teams/{uuid}/members", get(teams::members))
        .route(
            "/custom_statuses",
            get(custom_statuses::list).post(custom_statuses::create),
        )
        .route(
            "/custom_statuses/{id}",
            get(custom_statuses::show)
                .put(custom_statuses::update)
                .delete(custom_statuses::remove),
        )
        .route(
            "/users/{uuid}/status",
            put(users::set_status).delete(users::clear_status),
        )
        .route("/plan", get(plan::show))
        .route("/webhooks/events", get(webhooks::list))
        .route("/webhooks/subscribe", post(webhooks::subscribe))
        .route("/webhooks/unsubscribe", delete(webhooks::unsubscribe))
        // The reference's heading for the event log.
        .route("/events", get(webhooks::list))
        .method_not_allowed_fallback(method_not_allowed);
    let mut app = Router::new()
        .nest("/v1", api)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(faults::json_errors))
        .layer(from_fn_with_state(state.clone(), faults::auth));
    let f = Faults::with_knobs(cfg.latency_ms, cfg.fail_rate, cfg.rate_limit, cfg.knobs.clone());
    if f.active() {
        app = app.layer(from_fn_with_state(f, faults::faults));
    }
    // Outermost: the deadline covers everything, simulated latency too.
    app = app.layer(from_fn_with_state(cfg.request_timeout, faults::deadline));
    app = app.layer(from_fn_with_state(state.clone(), count_request));
    app.with_state(state)
}

/// Counts every request (see `RunningServer::requests`): how many a hub
/// or a client sent is measured, not guessed.
async fn count_request(
    State(st): State<Shared>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    st.requests.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let key = format!("{} {}", req.method(), path_shape(req.uri().path()));
    {
        let mut by_path = st
            .requests_by_path
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Paths nobody serves could grow the map without end: past 256
        // kinds the rest count together.
        let key = if by_path.len() < 256 || by_path.contains_key(&key) {
            key
        } else {
            "other".to_string()
        };
        *by_path.entry(key).or_default() += 1;
    }
    next.run(req).await
}

/// A path with each id (a segment with a digit in it) as `:id`, so
/// requests count by endpoint. At most 8 segments are kept.
fn path_shape(path: &str) -> String {
    let parts: Vec<&str> = path
        .split('/')
        .take(9)
        .map(|p| {
            if p.bytes().any(|b| b.is_ascii_digit()) && p != "v1" {
                ":id"
            } else {
                p
            }
        })
        .collect();
    parts.join("/").chars().take(200).collect()
}

async fn not_found() -> Response {
    ApiError::NotFound("no such endpoint".into()).into_response()
}

async fn method_not_allowed() -> Response {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        axum::Json(json!({ "error": "method not allowed" })),
    )
        .into_response()
}
