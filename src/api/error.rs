//! One error type for every call. Each message is a sentence a user
//! understands; none ever contains the API key.

use std::collections::BTreeMap;
use std::time::Duration;

/// What went wrong talking to the service.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// The configuration cannot be used (bad base URL, plain http to a
    /// non-loopback host, empty key).
    #[error("{0}")]
    Config(String),
    /// 401: the key is missing or wrong.
    #[error("the server refused the API key (401): check the key configured for this account")]
    Unauthorized,
    /// 404 on a resource: `what` names it, e.g. "contact 0a1b…".
    #[error("{what} was not found")]
    NotFound { what: String },
    /// 404 on an endpoint extensions.md adds: the server lacks it.
    #[error("this server does not offer {what}")]
    NotOffered { what: String },
    /// 422 (or another validation answer): the server's field messages kept.
    #[error("{}", validation_message(.message, .fields))]
    Validation {
        message: String,
        fields: BTreeMap<String, Vec<String>>,
    },
    /// 400 pagination errors (`Pagination limit exceeded`,
    /// `Invalid pagination cursor`), or a repeated cursor.
    #[error("{0}")]
    Pagination(String),
    /// 429 after the retries ran out.
    #[error("{}", rate_limited_message(.retry_after))]
    RateLimited { retry_after: Option<Duration> },
    /// 5xx after the retries ran out.
    #[error("the server failed ({status}): {message}")]
    Server { status: u16, message: String },
    /// Another 4xx answer.
    #[error("the server refused the request ({status}): {message}")]
    Rejected { status: u16, message: String },
    /// No answer within the timeout.
    #[error("the server did not answer in time ({0})")]
    Timeout(String),
    /// Could not connect, or the connection broke.
    #[error("could not reach the server: {0}")]
    Transport(String),
    /// A request that is never repeated (a send, a create) failed in a way
    /// that does not prove it was not carried out: a 5xx, or the connection
    /// broke after it was sent. Check before sending it again.
    #[error("{cause}; the request may still have been carried out: check before sending it again")]
    MaybeApplied { cause: Box<ApiError> },
    /// The answer could not be read (not JSON, or over the size cap).
    #[error("the answer to {endpoint} could not be read ({reason}); it began: {excerpt}")]
    Decode {
        endpoint: String,
        reason: String,
        excerpt: String,
    },
}

fn validation_message(message: &str, fields: &BTreeMap<String, Vec<String>>) -> String {
    if fields.is_empty() {
        return format!("the server rejected the values: {message}");
    }
    let parts: Vec<String> = fields
        .iter()
        .map(|(field, msgs)| format!("{field}: {}", msgs.join("; ")))
        .collect();
    format!("the server rejected the values: {}", parts.join(", "))
}

fn rate_limited_message(retry_after: &Option<Duration>) -> String {
    match retry_after {
        Some(d) => format!(
            "the server is rate limiting requests; try again in {} s",
            d.as_secs().max(1)
        ),
        None => "the server is rate limiting requests; try again shortly".to_string(),
    }
}

impl ApiError {
    /// True for errors worth retrying (rate limits, 5xx, timeouts, broken
    /// connections).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            ApiError::RateLimited { .. } | ApiError::Server { .. } | ApiError::Timeout(_) | ApiError::Transport(_)
        )
    }

    /// True when the request may have been carried out although it failed
    /// (see `MaybeApplied`).
    pub fn may_have_applied(&self) -> bool {
        matches!(self, ApiError::MaybeApplied { .. })
    }
}
