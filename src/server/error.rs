//! Error answers of the reference server: `{"error": "message"}` or, for
//! validation, `{"error": {"field": ["message"]}}` (extensions.md).

use std::collections::BTreeMap;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Field name to messages, as a 422 body carries them.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

#[derive(Debug)]
pub enum ApiError {
    BadRequest(String),
    Unauthorized,
    NotFound(String),
    Validation(FieldErrors),
    Internal(String),
}

impl ApiError {
    pub fn not_found(what: &str) -> Self {
        ApiError::NotFound(format!("{what} not found"))
    }

    /// A 422 with a single field error.
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        let mut map = FieldErrors::new();
        map.insert(field.to_string(), vec![message.into()]);
        ApiError::Validation(map)
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> Self {
        tracing::error!(error = %e, "database error");
        ApiError::Internal("database error".into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            ApiError::BadRequest(m) => (StatusCode::BAD_REQUEST, json!({ "error": m })),
            ApiError::Unauthorized => (
                StatusCode::UNAUTHORIZED,
                json!({ "error": "missing or invalid API key" }),
            ),
            ApiError::NotFound(m) => (StatusCode::NOT_FOUND, json!({ "error": m })),
            ApiError::Validation(map) => (StatusCode::UNPROCESSABLE_ENTITY, json!({ "error": map })),
            ApiError::Internal(m) => {
                tracing::error!(cause = %m, "answering 500");
                (StatusCode::INTERNAL_SERVER_ERROR, json!({ "error": m }))
            }
        };
        (status, Json(body)).into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// Why the server could not start or run.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    #[error("database error: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("invalid configuration: {0}")]
    Config(String),
    #[error("could not write the manifest: {0}")]
    Manifest(#[from] serde_json::Error),
}
