//! `GET /hub/v1/counts`: how many contacts each built-in view holds now,
//! from the hub's index, Mine being the asking agent's (its email as the
//! hub knows it). `frontdesk views` through a hub answers from it at once,
//! without filling a local index first (issue 36).
//!
//! `{"complete", "contacts", "me", "at", "views": [{"name", "short",
//! "count", "stateUnknown"}]}`: `complete` is false until the hub has
//! walked the whole account once (the counts are lower bounds then);
//! `stateUnknown` counts the conversations whose state (open or closed) the
//! hub does not know yet and that may belong to the view; `lastUnknown`
//! those whose last message it has not read yet, for a view on who wrote
//! last (Waiting). Either makes the count a lower bound.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use chrono::Utc;
use serde_json::json;

use super::auth::Authed;
use super::state::HubState;
use super::wire;
use crate::index::{IndexAccess, Order, Preview};
use crate::triage::{Facts, builtin_views, count_views};

pub async fn counts(State(st): State<Arc<HubState>>, Extension(who): Extension<Authed>) -> Response {
    answer(st, who, Vec::new()).await
}

/// `POST /hub/v1/counts` `{"views": "<TOML: [[views]] tables>"}`: the
/// built-in views and the agent's own views of its config file, read as
/// the config file reads them, so `frontdesk views` with views of its own
/// is answered by the hub too (without filling a local index). A view
/// that does not read answers 422 naming it.
pub async fn counts_of(
    State(st): State<Arc<HubState>>,
    Extension(who): Extension<Authed>,
    body: axum::body::Bytes,
) -> Response {
    #[derive(serde::Deserialize)]
    struct Ask {
        #[serde(default)]
        views: String,
    }
    let ask = match serde_json::from_slice::<Ask>(&body) {
        Ok(a) => a,
        Err(e) => {
            let msg = format!("the question does not read: {e}");
            return wire::error(StatusCode::UNPROCESSABLE_ENTITY, &crate::text::sanitize_line(&msg)).into_response();
        }
    };
    let (views, problems) = crate::config::views_from_toml(&ask.views);
    if let Some(first) = problems.first() {
        return wire::error(StatusCode::UNPROCESSABLE_ENTITY, &crate::text::sanitize_line(first)).into_response();
    }
    answer(st, who, views).await
}

/// The counts of the built-in views and `own` (after them), for `who`.
async fn answer(st: Arc<HubState>, who: Authed, own: Vec<crate::triage::View>) -> Response {
    let mut index = st.index.clone();
    let read = tokio::task::spawn_blocking(move || {
        index.with(|ix| -> Result<_, crate::index::IndexError> {
            let contacts = ix.list(Order::Activity, usize::MAX >> 1, 0)?;
            let previews: HashMap<String, Preview> = ix.all_previews()?.into_iter().collect();
            let facts: Vec<Facts> = contacts.iter().map(|c| Facts::new(c, previews.get(&c.uuid))).collect();
            // Whether the hub holds the conversation's last message as of
            // its activity now (else who wrote last is not known yet).
            let known: Vec<bool> = contacts
                .iter()
                .map(|c| {
                    previews
                        .get(&c.uuid)
                        .is_some_and(|p| p.activity.is_none() || p.activity == c.last_activity())
                })
                .collect();
            Ok((facts, known, ix.sync_state()?.full_walk_finished_at.is_some()))
        })
    })
    .await;
    let (facts, known, complete) = match read {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            tracing::error!("counts: {e}");
            return wire::error(StatusCode::SERVICE_UNAVAILABLE, "the hub's index cannot be read").into_response();
        }
        Err(e) => {
            tracing::error!("counts task: {e}");
            return wire::error(StatusCode::INTERNAL_SERVER_ERROR, "the counts failed").into_response();
        }
    };
    let me = Some(who.agent.email.trim()).filter(|e| !e.is_empty());
    let now = Utc::now();
    let mut views = builtin_views();
    // The agent's own views may share a built-in's name: theirs is not
    // asked for twice.
    for v in own {
        if !views.iter().any(|b| b.name == v.name) {
            views.push(v);
        }
    }
    let counts = count_views(&facts, &views, me, now);
    let rows: Vec<serde_json::Value> = views
        .iter()
        .zip(counts)
        .map(|(v, count)| {
            let unknown = facts
                .iter()
                .filter(|f| v.filter.may_match_unknown_state(*f, me, now))
                .count();
            // Who wrote last decides, and the hub has not read it yet.
            let last_unknown = if v.filter.needs_last_message() {
                facts
                    .iter()
                    .zip(&known)
                    .filter(|(f, k)| !**k && v.filter.matches_but_waiting(*f, me, now))
                    .count()
            } else {
                0
            };
            json!({ "name": v.name, "short": v.short, "count": count, "stateUnknown": unknown,
                    "lastUnknown": last_unknown })
        })
        .collect();
    Json(json!({
        "complete": complete,
        "contacts": facts.len(),
        "me": me,
        "at": now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        "views": rows,
    }))
    .into_response()
}
