//! The HTTP client: construction, the single path every request takes
//! (headers, retries, status mapping) and the key's secrecy.
//!
//! INTERFACE CONTRACT: the TUI and CLI are written against the public names
//! here and in `endpoints/`. The typed endpoint methods live in
//! `endpoints/`, one file per resource.

use std::time::Duration;

use rand::Rng;
use reqwest::StatusCode;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER};

use super::call::Call;
use super::error::ApiError;
use super::response::{Answer, ErrorBody, clean_text, excerpt};

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

impl std::fmt::Display for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
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

impl RetryPolicy {
    /// The wait before the next attempt after `failed` failed attempts:
    /// the server's `Retry-After` when it sent one (capped at `max_delay`),
    /// else `base_delay * 2^(failed-1)` capped at `max_delay`, with jitter
    /// drawn from its upper half so parallel clients spread out.
    pub fn delay(&self, failed: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_delay);
        }
        let factor = 2u32.saturating_pow(failed.saturating_sub(1).min(31));
        let ceiling = self.base_delay.saturating_mul(factor).min(self.max_delay);
        let nanos = u64::try_from(ceiling.as_nanos()).unwrap_or(u64::MAX);
        if nanos == 0 {
            return Duration::ZERO;
        }
        Duration::from_nanos(rand::rng().random_range(nanos / 2..=nanos))
    }
}

/// A client for one account of the service. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Client {
    http: reqwest::Client,
    base: url::Url,
    key: ApiKey,
    retry: RetryPolicy,
    timeout: Duration,
}

/// An answer of any status, its body read.
#[derive(Debug)]
pub(crate) struct Raw {
    pub(crate) status: StatusCode,
    headers: HeaderMap,
    pub(crate) body: Vec<u8>,
}

impl Client {
    /// `base_url` already ends in `/v1`. Refuses a non-https URL unless its
    /// host is loopback.
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

    /// The retry policy in use.
    pub fn retry_policy(&self) -> &RetryPolicy {
        &self.retry
    }

    /// The base URL, ending in `/v1`.
    pub fn base_url(&self) -> &str {
        self.base.as_str()
    }

    /// Removes the key from text that may have come back from elsewhere.
    fn scrub(&self, text: &str) -> String {
        let key = self.key.expose();
        if key.is_empty() || !text.contains(key) {
            text.to_string()
        } else {
            text.replace(key, "<redacted>")
        }
    }

    fn url(&self, path: &[String]) -> url::Url {
        let mut url = self.base.clone();
        if let Ok(mut segments) = url.path_segments_mut() {
            segments.pop_if_empty().extend(path);
        }
        url
    }

    /// One attempt; transport failures mapped to errors, any status kept.
    async fn attempt(&self, call: &Call) -> Result<Raw, ApiError> {
        let mut auth = HeaderValue::from_str(&format!("Bearer {}", self.key.expose()))
            .map_err(|_| ApiError::Config("the API key cannot be sent in a header".into()))?;
        auth.set_sensitive(true);
        let mut request = self
            .http
            .request(call.method.clone(), self.url(&call.path))
            .header(AUTHORIZATION, auth)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json");
        if !call.query.is_empty() {
            request = request.query(&call.query);
        }
        if let Some(body) = &call.body {
            request = request.body(body.clone());
        }
        let response = request.send().await.map_err(|e| self.transport_error(call, &e))?;
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.bytes().await.map_err(|e| self.transport_error(call, &e))?;
        Ok(Raw {
            status,
            headers,
            body: body.to_vec(),
        })
    }

    fn transport_error(&self, call: &Call, e: &reqwest::Error) -> ApiError {
        if e.is_timeout() {
            return ApiError::Timeout(format!(
                "no answer to {} within {} s",
                call.endpoint(),
                self.timeout.as_secs_f64()
            ));
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
        if e.is_builder() {
            ApiError::Config(text)
        } else {
            ApiError::Transport(text)
        }
    }

    /// Sends `call`, retrying transient failures when it is idempotent.
    /// Returns the last answer whatever its status.
    pub(crate) async fn exchange(&self, call: &Call) -> Result<Raw, ApiError> {
        let attempts = if call.idempotent {
            self.retry.max_attempts.max(1)
        } else {
            1
        };
        let mut failed = 0;
        loop {
            let outcome = self.attempt(call).await;
            failed += 1;
            let wait = match &outcome {
                Ok(raw) if raw.status == StatusCode::TOO_MANY_REQUESTS || raw.status.is_server_error() => {
                    retry_after(&raw.headers)
                }
                Err(e) if e.is_transient() => None,
                _ => return outcome,
            };
            if failed >= attempts {
                return outcome;
            }
            tokio::time::sleep(self.retry.delay(failed, wait)).await;
        }
    }

    /// Sends `call` and turns a non-success status into its error.
    pub(crate) async fn run(&self, call: &Call) -> Result<Raw, ApiError> {
        let raw = self.exchange(call).await?;
        if raw.status.is_success() {
            Ok(raw)
        } else {
            Err(self.status_error(call, &raw))
        }
    }

    /// Sends `call` and reads its JSON answer.
    pub(crate) async fn fetch(&self, call: &Call) -> Result<Answer, ApiError> {
        let raw = self.run(call).await?;
        Answer::parse(call.endpoint(), &raw.body, self.scrub(&excerpt(&raw.body)))
    }

    /// The one place a failed answer becomes an `ApiError`.
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
            404 => call.missing.resolve(message.as_deref()),
            429 => ApiError::RateLimited {
                retry_after: retry_after(&raw.headers),
            },
            400..=499 => {
                for phrase in ["Pagination limit exceeded", "Invalid pagination cursor"] {
                    if message.as_deref().is_some_and(|m| m.contains(phrase)) {
                        return ApiError::Pagination(phrase.to_string());
                    }
                }
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

/// `Retry-After` as seconds (or an HTTP date).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = text.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0)));
    }
    let at = chrono::DateTime::parse_from_rfc2822(text).ok()?;
    let wait = at.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(wait.to_std().unwrap_or(Duration::ZERO))
}

fn parse_base_url(base_url: &str) -> Result<url::Url, ApiError> {
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
mod tests {
    use super::*;

    #[test]
    fn base_url_rules() {
        let t = Duration::from_secs(5);
        for ok in [
            "https://api.example.com/v1",
            "https://api.example.com/v1/",
            "http://127.0.0.1:8080/v1",
            "http://127.1.2.3/v1",
            "http://localhost:3000/v1",
            "http://[::1]:3000/v1",
        ] {
            assert!(Client::new(ok, "k", t).is_ok(), "{ok} should be accepted");
        }
        for bad in [
            "http://api.example.com/v1",
            "http://10.0.0.1/v1",
            "http://localhost.example.com/v1",
            "ftp://localhost/v1",
            "not a url",
            "https://user:pw@api.example.com/v1",
        ] {
            assert!(
                matches!(Client::new(bad, "k", t), Err(ApiError::Config(_))),
                "{bad} should be refused"
            );
        }
        assert!(matches!(
            Client::new("https://api.example.com/v1", "  ", t),
            Err(ApiError::Config(_))
        ));
        assert!(matches!(
            Client::new("https://api.example.com/v1", "a\nb", t),
            Err(ApiError::Config(_))
        ));
    }

    #[test]
    fn urls_append_encoded_segments() {
        let c = Client::new("https://api.example.com/v1/", "k", Duration::from_secs(5)).unwrap();
        let u = c.url(&["contacts".into(), "a/b?c#d%e".into(), "messages".into()]);
        assert_eq!(
            u.as_str(),
            "https://api.example.com/v1/contacts/a%2Fb%3Fc%23d%25e/messages"
        );
        let c = Client::new("https://api.example.com/v1", "k", Duration::from_secs(5)).unwrap();
        assert_eq!(c.url(&["plan".into()]).as_str(), "https://api.example.com/v1/plan");
    }

    #[test]
    fn delay_backs_off_with_jitter_and_honours_retry_after() {
        let p = RetryPolicy {
            max_attempts: 5,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(1000),
        };
        for _ in 0..50 {
            let d1 = p.delay(1, None);
            assert!(
                d1 >= Duration::from_millis(50) && d1 <= Duration::from_millis(100),
                "{d1:?}"
            );
            let d3 = p.delay(3, None);
            assert!(
                d3 >= Duration::from_millis(200) && d3 <= Duration::from_millis(400),
                "{d3:?}"
            );
            let d9 = p.delay(9, None);
            assert!(
                d9 >= Duration::from_millis(500) && d9 <= Duration::from_millis(1000),
                "{d9:?}"
            );
        }
        assert_eq!(p.delay(1, Some(Duration::from_millis(700))), Duration::from_millis(700));
        assert_eq!(p.delay(1, Some(Duration::from_secs(30))), Duration::from_millis(1000));
        assert!(p.delay(40, None) <= Duration::from_millis(1000));
    }

    #[test]
    fn retry_after_parses_seconds_and_dates() {
        let mut h = HeaderMap::new();
        assert_eq!(retry_after(&h), None);
        h.insert(RETRY_AFTER, HeaderValue::from_static("3"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(3)));
        h.insert(RETRY_AFTER, HeaderValue::from_static("0.5"));
        assert_eq!(retry_after(&h), Some(Duration::from_millis(500)));
        h.insert(RETRY_AFTER, HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"));
        assert_eq!(retry_after(&h), Some(Duration::ZERO));
        h.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&h), None);
    }
}
