//! The HTTP client: construction, the single path every request takes
//! (headers, retries within one time bound, body cap, status mapping).
//!
//! INTERFACE CONTRACT: the TUI and CLI are written against the public names
//! here and in `endpoints/`. The typed endpoint methods live in
//! `endpoints/`, one file per resource.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue};

use super::call::Call;
use super::error::ApiError;
use super::key::{ApiKey, redact};
use super::response::{Answer, ErrorBody, clean_text, excerpt};
use super::retry::{RetryPolicy, retry_after};

/// The largest answer body read (far above any page); a larger answer is
/// refused with `ApiError::Decode` as soon as it passes this size.
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// A client for one account of the service. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Client {
    http: reqwest::Client,
    base: url::Url,
    key: ApiKey,
    retry: RetryPolicy,
    /// Bounds a whole call, its retries and waits included.
    timeout: Duration,
}

/// An answer of any status, its body read.
#[derive(Debug)]
pub(crate) struct Raw {
    pub(crate) status: StatusCode,
    headers: HeaderMap,
    pub(crate) body: Vec<u8>,
}

/// A failed attempt, and whether the server may have received the request
/// (only a failure to connect proves it did not).
struct Failed {
    error: ApiError,
    maybe_received: bool,
}

impl Client {
    /// `base_url` already ends in `/v1`. Refuses a non-https URL unless its
    /// host is loopback. `timeout` bounds each call as a whole, retries
    /// included (zero means 15 s).
    pub fn new(base_url: &str, api_key: &str, timeout: Duration) -> Result<Client, ApiError> {
        let base = parse_base_url(base_url)?;
        let key = api_key.trim();
        if key.is_empty() {
            return Err(ApiError::Config(
                "the API key is empty: set one for this account".into(),
            ));
        }
        if HeaderValue::from_str(&format!("Bearer {key}")).is_err() {
            return Err(ApiError::Config(
                "the API key holds characters that cannot be sent in a header (a line break?)".into(),
            ));
        }
        let timeout = if timeout.is_zero() {
            Duration::from_secs(15)
        } else {
            timeout
        };
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            // The API never redirects; following one could carry the key
            // somewhere else.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("frontdesk/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| ApiError::Config(format!("the HTTP client could not be set up: {e}")))?;
        Ok(Client {
            http,
            base,
            key: ApiKey::new(key),
            retry: RetryPolicy::default(),
            timeout,
        })
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

    /// Removes the key from text that may have come back from elsewhere.
    fn scrub(&self, text: &str) -> String {
        redact(text, self.key.expose())
    }

    fn url(&self, path: &[String]) -> url::Url {
        let mut url = self.base.clone();
        if let Ok(mut segments) = url.path_segments_mut() {
            segments.pop_if_empty().extend(path);
        }
        url
    }

    /// One attempt within `left`; transport failures mapped to errors, any
    /// status kept. The body is read as it streams and refused past
    /// [`MAX_BODY_BYTES`].
    async fn attempt(&self, call: &Call, left: Duration) -> Result<Raw, Failed> {
        let mut auth = HeaderValue::from_str(&format!("Bearer {}", self.key.expose())).map_err(|_| Failed {
            error: ApiError::Config("the API key cannot be sent in a header".into()),
            maybe_received: false,
        })?;
        auth.set_sensitive(true);
        let mut request = self
            .http
            .request(call.method.clone(), self.url(&call.path))
            .timeout(left)
            .header(AUTHORIZATION, auth)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json");
        if !call.query.is_empty() {
            request = request.query(&call.query);
        }
        if let Some(body) = &call.body {
            request = request.body(body.clone());
        }
        let mut response = request.send().await.map_err(|e| self.transport_error(&e))?;
        let status = response.status();
        let headers = response.headers().clone();
        let too_large = |body: &[u8]| Failed {
            error: ApiError::Decode {
                endpoint: call.endpoint(),
                reason: format!(
                    "the answer is larger than {} MiB, far more than any page; stopped reading it",
                    MAX_BODY_BYTES / (1024 * 1024)
                ),
                excerpt: self.scrub(&excerpt(body)),
            },
            maybe_received: true,
        };
        if response.content_length().is_some_and(|n| n > MAX_BODY_BYTES as u64) {
            return Err(too_large(&[]));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| self.transport_error(&e))? {
            if body.len() + chunk.len() > MAX_BODY_BYTES {
                return Err(too_large(&body));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Raw { status, headers, body })
    }

    fn transport_error(&self, e: &reqwest::Error) -> Failed {
        // A failed connect never sent the request; any other failure may
        // have happened after the server received it.
        let maybe_received = !e.is_connect() && !e.is_builder();
        if e.is_timeout() {
            return Failed {
                error: ApiError::Timeout(String::new()),
                maybe_received,
            };
        }
        let mut text = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            let part = s.to_string();
            if !text.contains(&part) {
                text.push_str(": ");
                text.push_str(&part);
            }
            source = s.source();
        }
        let text = self.scrub(&text);
        let error = if e.is_builder() {
            ApiError::Config(text)
        } else {
            ApiError::Transport(text)
        };
        Failed { error, maybe_received }
    }

    /// Sends `call`, retrying transient failures when it is idempotent, all
    /// within the client's timeout. Returns the last answer whatever its
    /// status, and whether an earlier attempt may have been carried out
    /// (a 5xx, or a connection lost after sending).
    pub(crate) async fn exchange_tracked(&self, call: &Call) -> Result<(Raw, bool), ApiError> {
        let attempts = if call.idempotent {
            self.retry.max_attempts.max(1)
        } else {
            1
        };
        let started = tokio::time::Instant::now();
        let deadline = started + self.timeout;
        let mut failed = 0;
        let mut earlier_maybe_applied = false;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let outcome = if left.is_zero() {
                Err(Failed {
                    error: ApiError::Timeout(String::new()),
                    maybe_received: false,
                })
            } else {
                self.attempt(call, left).await
            };
            failed += 1;
            let (wait, maybe_applied) = match &outcome {
                Ok(raw) if raw.status == StatusCode::TOO_MANY_REQUESTS => (retry_after(&raw.headers), false),
                Ok(raw) if raw.status.is_server_error() => (retry_after(&raw.headers), true),
                Err(f) if f.error.is_transient() => (None, f.maybe_received),
                _ => return self.settle(call, outcome, earlier_maybe_applied, failed, started),
            };
            let delay = self.retry.delay(failed, wait);
            if failed >= attempts || tokio::time::Instant::now() + delay >= deadline {
                return self.settle(call, outcome, earlier_maybe_applied, failed, started);
            }
            earlier_maybe_applied |= maybe_applied;
            tokio::time::sleep(delay).await;
        }
    }

    /// The final outcome of `exchange_tracked` as the caller sees it.
    fn settle(
        &self,
        call: &Call,
        outcome: Result<Raw, Failed>,
        earlier: bool,
        attempts: u32,
        started: tokio::time::Instant,
    ) -> Result<(Raw, bool), ApiError> {
        match outcome {
            Ok(raw) => Ok((raw, earlier)),
            Err(Failed { error, maybe_received }) => {
                let error = match error {
                    ApiError::Timeout(_) => ApiError::Timeout(format!(
                        "no answer to {} within {} s; {attempts} attempt{} in {:.1} s",
                        call.endpoint(),
                        self.timeout.as_secs_f64(),
                        if attempts == 1 { "" } else { "s" },
                        started.elapsed().as_secs_f64()
                    )),
                    other => other,
                };
                if !call.idempotent && (maybe_received || earlier) {
                    Err(ApiError::MaybeApplied { cause: Box::new(error) })
                } else {
                    Err(error)
                }
            }
        }
    }

    /// Sends `call` (see `exchange_tracked`), dropping the retry history.
    pub(crate) async fn exchange(&self, call: &Call) -> Result<Raw, ApiError> {
        self.exchange_tracked(call).await.map(|(raw, _)| raw)
    }

    /// Sends `call` and turns a non-success status into its error. A 5xx to
    /// a request that is never repeated may still have been carried out:
    /// `ApiError::MaybeApplied`.
    pub(crate) async fn run(&self, call: &Call) -> Result<Raw, ApiError> {
        let raw = self.exchange(call).await?;
        if raw.status.is_success() {
            Ok(raw)
        } else if raw.status.is_server_error() && !call.idempotent {
            Err(ApiError::MaybeApplied {
                cause: Box::new(self.status_error(call, &raw)),
            })
        } else {
            Err(self.status_error(call, &raw))
        }
    }

    /// Sends `call` and reads its JSON answer.
    pub(crate) async fn fetch(&self, call: &Call) -> Result<Answer, ApiError> {
        let raw = self.run(call).await?;
        Answer::parse(call.endpoint(), &raw.body, self.scrub(&excerpt(&raw.body)))
    }

    /// The one place a failed answer becomes an `ApiError`: by status code
    /// and what the request was; the server's message is kept for display
    /// only.
    pub(crate) fn status_error(&self, call: &Call, raw: &Raw) -> ApiError {
        let body = ErrorBody::parse(&raw.body);
        let message = body.message.as_deref().map(|m| self.scrub(&clean_text(m, 300)));
        let reason = || {
            raw.status
                .canonical_reason()
                .unwrap_or("no explanation given")
                .to_string()
        };
        let status = raw.status.as_u16();
        match status {
            401 => ApiError::Unauthorized,
            404 => call.missing.resolve(message.as_deref(), body.api_shaped),
            429 => ApiError::RateLimited {
                retry_after: retry_after(&raw.headers),
            },
            400 if body.fields.is_empty() && call.paging().is_some() => {
                ApiError::Pagination(message.unwrap_or_else(|| call.paging().unwrap_or_default().to_string()))
            }
            400..=499 => {
                if status == 422 || !body.fields.is_empty() {
                    let fields = body
                        .fields
                        .iter()
                        .map(|(k, v)| {
                            let msgs = v.iter().map(|m| self.scrub(&clean_text(m, 300))).collect();
                            (self.scrub(&clean_text(k, 100)), msgs)
                        })
                        .collect();
                    return ApiError::Validation {
                        message: message.unwrap_or_else(|| "the values were not accepted".to_string()),
                        fields,
                    };
                }
                ApiError::Rejected {
                    status,
                    message: message.unwrap_or_else(reason),
                }
            }
            500..=599 => ApiError::Server {
                status,
                message: message.unwrap_or_else(reason),
            },
            _ => ApiError::Rejected {
                status,
                message: format!("unexpected answer: {}", message.unwrap_or_else(reason)),
            },
        }
    }
}

pub(crate) fn parse_base_url(base_url: &str) -> Result<url::Url, ApiError> {
    let text = base_url.trim();
    let url =
        url::Url::parse(text).map_err(|e| ApiError::Config(format!("the base URL {text:?} is not a URL ({e})")))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ApiError::Config(
            "the base URL must not hold credentials: set the API key on its own".into(),
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(ApiError::Config(format!(
            "the base URL {} must not have a query or fragment",
            url.origin().ascii_serialization()
        )));
    }
    let shown = url.as_str().to_string();
    match url.scheme() {
        "https" => {}
        "http" => {
            let loopback = match url.host() {
                Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
                Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
                Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
                None => false,
            };
            if !loopback {
                return Err(ApiError::Config(format!(
                    "the base URL {shown} uses plain http: the API key would travel unencrypted; use https \
                     (plain http is allowed only for localhost)"
                )));
            }
        }
        other => {
            return Err(ApiError::Config(format!(
                "the base URL {shown} uses {other}: only https (or http to localhost) is supported"
            )));
        }
    }
    if url.cannot_be_a_base() || url.host().is_none() {
        return Err(ApiError::Config(format!("the base URL {shown} has no host")));
    }
    Ok(url)
}

#[cfg(test)]
mod tests;
