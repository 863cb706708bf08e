//! `GET /hub/v1/snapshot` (the whole index as NDJSON, so a new agent has
//! complete views at once) and `GET /hub/v1/whoami`.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::auth::Authed;
use super::state::HubState;
use super::wire;
use crate::index::{IndexAccess, Order};

/// Contacts encoded per chunk of the body.
const CHUNK: usize = 500;

pub async fn snapshot(State(st): State<Arc<HubState>>) -> Response {
    // The cursor first: everything published up to it is in the index
    // already (changes are applied, then published), and what comes after
    // is replayed to a stream opened with it.
    let cursor = st.bus.last_id();
    let mut index = st.index.clone();
    let read = tokio::task::spawn_blocking(move || {
        index.with(|ix| -> Result<_, crate::index::IndexError> {
            Ok((ix.list(Order::Activity, usize::MAX, 0)?, ix.account()?))
        })
    })
    .await;
    let (contacts, account) = match read {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            tracing::error!("snapshot: {e}");
            return wire::error(StatusCode::SERVICE_UNAVAILABLE, "the hub's index cannot be read").into_response();
        }
        Err(e) => {
            tracing::error!("snapshot task: {e}");
            return wire::error(StatusCode::INTERNAL_SERVER_ERROR, "the snapshot failed").into_response();
        }
    };
    let account = account.unwrap_or_else(|| {
        Sha256::digest(st.config.base_url.as_bytes())
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect()
    });
    let head = json!({ "cursor": cursor, "contacts": contacts.len(), "account": account });
    let mut first = head.to_string();
    first.push('\n');
    let chunks: Vec<Vec<crate::api::Contact>> = {
        let mut out = Vec::new();
        let mut it = contacts.into_iter().peekable();
        while it.peek().is_some() {
            out.push(it.by_ref().take(CHUNK).collect());
        }
        out
    };
    let body = futures::stream::iter(std::iter::once(Ok::<Bytes, std::io::Error>(Bytes::from(first))).chain(
        chunks.into_iter().map(|chunk| {
            let mut buf = Vec::with_capacity(chunk.len() * 512);
            for c in &chunk {
                serde_json::to_writer(&mut buf, c).map_err(std::io::Error::other)?;
                buf.push(b'\n');
            }
            Ok(Bytes::from(buf))
        }),
    ));
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(body),
    )
        .into_response()
}

pub async fn whoami(Extension(who): Extension<Authed>) -> Response {
    Json(json!({
        "agent": who.agent.name,
        "email": who.agent.email,
        "user_uuid": who.agent.user_uuid,
    }))
    .into_response()
}
