//! Middleware: authentication, and the fault knobs that let client code be
//! tested against a slow, flaky or rate-limited server.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rand::Rng;
use serde_json::json;
use subtle::ConstantTimeEq;

use super::db;
use super::error::ApiError;
use super::knobs::FaultKnobs;
use super::state::Shared;

/// `Authorization: Bearer <key>` on every request, or 401.
pub async fn auth(State(state): State<Shared>, req: Request, next: Next) -> Response {
    let ok = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .is_some_and(|(scheme, key)| {
            // Compare hashes in constant time: the answer's timing says
            // nothing about how much of a guess was right.
            scheme.eq_ignore_ascii_case("bearer") && bool::from(db::key_hash(key.trim()).ct_eq(&state.key_hash))
        });
    if ok {
        next.run(req).await
    } else {
        ApiError::Unauthorized.into_response()
    }
}

pub struct Faults {
    latency: Duration,
    fail_rate: f64,
    rate_limit: Option<u32>,
    knobs: FaultKnobs,
    /// (second of the current window, requests seen in it)
    window: Mutex<(u64, u32)>,
}

impl Faults {
    pub fn with_knobs(latency_ms: u64, fail_rate: f64, rate_limit: Option<u32>, knobs: FaultKnobs) -> Arc<Self> {
        Arc::new(Faults {
            latency: Duration::from_millis(latency_ms),
            fail_rate,
            rate_limit,
            knobs,
            window: Mutex::new((0, 0)),
        })
    }

    pub fn active(&self) -> bool {
        !self.latency.is_zero() || self.fail_rate > 0.0 || self.rate_limit.is_some() || self.knobs.active()
    }

    /// Fixed one-second windows: simple, and `Retry-After` is then exact.
    fn admit(&self) -> bool {
        let Some(limit) = self.rate_limit else {
            return true;
        };
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let mut w = self.window.lock().unwrap_or_else(|e| e.into_inner());
        if w.0 != now {
            *w = (now, 0);
        }
        w.1 += 1;
        w.1 <= limit
    }
}

pub async fn faults(State(f): State<Arc<Faults>>, req: Request, next: Next) -> Response {
    if !f.admit() {
        let mut resp = (
            StatusCode::TOO_MANY_REQUESTS,
            Json(json!({ "error": "rate limit exceeded" })),
        )
            .into_response();
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return resp;
    }
    if !f.latency.is_zero() {
        tokio::time::sleep(f.latency).await;
    }
    if f.fail_rate > 0.0 && rand::rng().random::<f64>() < f.fail_rate {
        tracing::warn!(path = %req.uri().path(), "answering 500: simulated failure (--fail-rate)");
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({ "error": "simulated failure" })),
        )
            .into_response();
    }
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let resp = next.run(req).await;
    let write = !matches!(method, Method::GET | Method::HEAD | Method::OPTIONS);
    let k = &f.knobs;
    if write && resp.status().is_success() && k.apply_then_fail > 0.0 && rand::rng().random::<f64>() < k.apply_then_fail
    {
        tracing::warn!(%path, "answering 500 after applying the write (--apply-then-fail)");
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({ "error": "simulated failure after the change was made" })),
        )
            .into_response();
    }
    if method == Method::GET && k.holds(&path) {
        match &k.gate {
            Some(gate) => gate.pass().await,
            None => tokio::time::sleep(Duration::from_millis(k.hold_ms)).await,
        }
    }
    resp
}

/// A request that takes longer than `limit` (headers in to answer out)
/// answers 503 instead of holding its connection.
pub async fn deadline(State(limit): State<Duration>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(resp) => resp,
        Err(_) => {
            tracing::error!(%path, limit_ms = limit.as_millis() as u64, "answering 503: the request timed out");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "error": format!("the request took longer than {} ms", limit.as_millis()) })),
            )
                .into_response()
        }
    }
}

/// axum's own rejections (a path that is not UTF-8, a body over the size
/// limit...) answer plain text; clients are promised `{"error": ...}`.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let resp = next.run(req).await;
    let status = resp.status();
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return resp;
    }
    let retry_after = resp.headers().get(header::RETRY_AFTER).cloned();
    let bytes = axum::body::to_bytes(resp.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).trim().to_string();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    };
    let mut out = (status, Json(json!({ "error": message }))).into_response();
    if let Some(v) = retry_after {
        out.headers_mut().insert(header::RETRY_AFTER, v);
    }
    out
}
