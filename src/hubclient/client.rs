//! The hub's own protocol: the agent's `HubClient` (whoami, presence, team
//! snippets and snoozes, the snapshot and the stream's requests).

use std::time::Duration;

// The `bytes` crate's type, which reqwest's chunks are (axum re-exports it).
use axum::body::Bytes;
use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, HeaderValue};

use super::events::PresenceState;
use crate::api::excerpt;
use crate::api::parse_base_url;
use crate::api::redact;
use crate::api::{ApiError, ApiKey};

/// What the hub answers an unknown or removed token.
pub const REFUSED_TOKEN: &str =
    "the hub refused the agent token (401): it is unknown or was removed; ask the hub's admin for a new one";

/// `GET /hub/v1/whoami`'s answer. Text from the hub: make it inert before
/// showing it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct WhoAmI {
    pub agent: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub user_uuid: Option<String>,
}

/// The largest list answer read (snippets, snoozes).
const LIST_CAP: usize = 8 * 1024 * 1024;

#[derive(serde::Deserialize)]
struct TeamSnippets {
    #[serde(default)]
    snippets: Vec<TeamSnippet>,
    #[serde(default)]
    warnings: Vec<String>,
}

#[derive(serde::Deserialize)]
struct TeamSnippet {
    name: String,
    #[serde(default)]
    label: Option<String>,
    text: String,
}

#[derive(serde::Deserialize)]
struct TeamSnoozes {
    #[serde(default)]
    snoozes: Vec<TeamSnooze>,
}

/// One conversation the team keeps asleep (`GET /hub/v1/snoozes`). Text
/// from the hub: make it inert before showing it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct TeamSnooze {
    pub contact: String,
    #[serde(default, with = "crate::api::model::time::opt")]
    pub until: Option<chrono::DateTime<chrono::Utc>>,
    #[serde(default)]
    pub until_reply: bool,
    #[serde(default, with = "crate::api::model::time::opt")]
    pub since: Option<chrono::DateTime<chrono::Utc>>,
    #[serde(default)]
    pub agent: String,
    #[serde(default)]
    pub name: Option<String>,
}

/// A client of one hub for one agent. Cheap to clone.
#[derive(Clone, Debug)]
pub struct HubClient {
    http: reqwest::Client,
    root: url::Url,
    token: ApiKey,
    /// Bounds a short request, and the wait for each piece of a stream.
    pub(super) timeout: Duration,
}

impl HubClient {
    /// `root` is the hub's address (without `/v1`). Plain http only to a
    /// loopback host, as for the service; `timeout` zero means 15 s.
    pub fn new(root: &str, token: &str, timeout: Duration) -> Result<HubClient, ApiError> {
        let root = parse_base_url(&hub_root(root))?;
        let token = token.trim();
        if token.is_empty() || HeaderValue::from_str(&format!("Bearer {token}")).is_err() {
            return Err(ApiError::Config(
                "the hub token is empty or holds characters that cannot be sent in a header".into(),
            ));
        }
        let timeout = if timeout.is_zero() {
            Duration::from_secs(15)
        } else {
            timeout
        };
        // No overall timeout: the event stream stays open. Each wait for a
        // piece is bounded instead (`timeout`, or the stream's idle limit).
        let http = reqwest::Client::builder()
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("frontdesk/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| ApiError::Config(format!("the HTTP client could not be set up: {e}")))?;
        Ok(HubClient {
            http,
            root,
            token: ApiKey::new(token),
            timeout,
        })
    }

    /// The hub's address, without `/v1`.
    pub fn root(&self) -> &str {
        self.root.as_str().trim_end_matches('/')
    }

    fn url(&self, path: &[&str]) -> url::Url {
        let mut url = self.root.clone();
        if let Ok(mut segments) = url.path_segments_mut() {
            segments.pop_if_empty().extend(["hub", "v1"]).extend(path);
        }
        url
    }

    /// A GET of the hub's own path with the token; the answer once its
    /// status is a success. The body is left to the caller to stream.
    pub(super) async fn open(&self, path: &[&str], extra: &[(&str, String)]) -> Result<reqwest::Response, ApiError> {
        self.send(reqwest::Method::GET, path, extra, None).await
    }

    /// One request to the hub's own path; the answer once its status is a
    /// success.
    pub(super) async fn send(
        &self,
        method: reqwest::Method,
        path: &[&str],
        extra: &[(&str, String)],
        body: Option<String>,
    ) -> Result<reqwest::Response, ApiError> {
        let mut auth = HeaderValue::from_str(&format!("Bearer {}", self.token.expose()))
            .map_err(|_| ApiError::Config("the hub token cannot be sent in a header".into()))?;
        auth.set_sensitive(true);
        let mut req = self.http.request(method, self.url(path)).header(AUTHORIZATION, auth);
        for (name, value) in extra {
            req = req.header(*name, value);
        }
        if let Some(body) = body {
            req = req.header(reqwest::header::CONTENT_TYPE, "application/json").body(body);
        }
        let resp = tokio::time::timeout(self.timeout, req.send())
            .await
            .map_err(|_| ApiError::Timeout(String::new()))?
            .map_err(|e| self.transport(&e))?;
        let status = resp.status();
        if status.is_success() {
            return Ok(resp);
        }
        let body = tokio::time::timeout(self.timeout, resp.bytes())
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        let message = self.scrub(&excerpt(&body));
        Err(match status {
            StatusCode::UNAUTHORIZED => ApiError::Rejected {
                status: 401,
                message: REFUSED_TOKEN.into(),
            },
            s if s.is_server_error() => ApiError::Server {
                status: s.as_u16(),
                message,
            },
            StatusCode::NOT_FOUND => ApiError::NotOffered {
                what: format!("/hub/v1/{} (is this address a frontdesk hub?)", path.join("/")),
            },
            s => ApiError::Rejected {
                status: s.as_u16(),
                message,
            },
        })
    }

    /// The next piece of a body, waiting at most `wait`.
    pub(super) async fn chunk(&self, resp: &mut reqwest::Response, wait: Duration) -> Result<Option<Bytes>, ApiError> {
        match tokio::time::timeout(wait, resp.chunk()).await {
            Err(_) => Err(ApiError::Timeout(format!(
                "nothing from the hub for {} s",
                wait.as_secs()
            ))),
            Ok(r) => r.map_err(|e| self.transport(&e)),
        }
    }

    /// A small JSON answer's body, read within the timeout and capped.
    async fn small_json<T: serde::de::DeserializeOwned>(
        &self,
        what: &str,
        resp: reqwest::Response,
    ) -> Result<T, ApiError> {
        self.json_capped(what, resp, 64 * 1024).await
    }

    /// A JSON answer's body of at most `cap` bytes, read within the timeout.
    pub(super) async fn json_capped<T: serde::de::DeserializeOwned>(
        &self,
        what: &str,
        resp: reqwest::Response,
        cap: usize,
    ) -> Result<T, ApiError> {
        let mut resp = resp;
        let mut body = Vec::new();
        while let Some(chunk) = self.chunk(&mut resp, self.timeout).await? {
            body.extend_from_slice(&chunk);
            if body.len() > cap {
                return Err(ApiError::Decode {
                    endpoint: what.into(),
                    reason: format!("the answer is larger than {} KiB", cap / 1024),
                    excerpt: String::new(),
                });
            }
        }
        serde_json::from_slice(&body).map_err(|e| ApiError::Decode {
            endpoint: what.into(),
            reason: e.to_string(),
            excerpt: self.scrub(&excerpt(&body)),
        })
    }

    /// `GET /hub/v1/whoami`: the agent this token belongs to.
    pub async fn whoami(&self) -> Result<WhoAmI, ApiError> {
        let resp = self.open(&["whoami"], &[]).await?;
        self.small_json("GET /hub/v1/whoami", resp).await
    }

    /// `POST /hub/v1/presence`: tell colleagues what this agent does with
    /// a contact (renew it within 30 s, or it expires).
    pub async fn presence(&self, contact: &str, state: PresenceState) -> Result<(), ApiError> {
        let state = match state {
            PresenceState::Viewing => "viewing",
            PresenceState::Composing => "composing",
            PresenceState::Idle | PresenceState::Other => "idle",
        };
        let body = serde_json::json!({ "contact": contact, "state": state }).to_string();
        self.send(reqwest::Method::POST, &["presence"], &[], Some(body)).await?;
        Ok(())
    }

    /// `GET /hub/v1/snippets`: the team's canned replies, checked as a
    /// local file's are (what does not pass is left out with a warning).
    pub async fn snippets(&self) -> Result<crate::snippets::Snippets, ApiError> {
        let resp = self.open(&["snippets"], &[]).await?;
        let wire: TeamSnippets = self.json_capped("GET /hub/v1/snippets", resp, LIST_CAP).await?;
        let mut out = crate::snippets::from_pairs(wire.snippets.into_iter().map(|s| (s.name, s.label, s.text)));
        out.warnings.extend(
            wire.warnings
                .iter()
                .take(20)
                .map(|w| format!("the hub: {}", crate::text::sanitize_line(w))),
        );
        Ok(out)
    }

    /// `GET /hub/v1/snoozes`: what the team keeps asleep.
    pub async fn snoozes(&self) -> Result<Vec<TeamSnooze>, ApiError> {
        let resp = self.open(&["snoozes"], &[]).await?;
        let wire: TeamSnoozes = self.json_capped("GET /hub/v1/snoozes", resp, LIST_CAP).await?;
        Ok(wire.snoozes)
    }

    /// `PUT /hub/v1/snoozes/{contact}`: snoozes it until `until` (or the
    /// customer writes), or until they write when `until` is `None`.
    pub async fn snooze(&self, contact: &str, until: Option<chrono::DateTime<chrono::Utc>>) -> Result<(), ApiError> {
        let body = serde_json::json!({
            "until": until.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)),
            "until_reply": until.is_none(),
        })
        .to_string();
        self.send(reqwest::Method::PUT, &["snoozes", contact], &[], Some(body))
            .await?;
        Ok(())
    }

    /// `GET /hub/v1/timeline/{contact}`: who closed, opened, assigned or
    /// tagged the conversation through the hub, and closes the webhooks
    /// told of, oldest first. Text from the hub: inert before it is shown.
    pub async fn timeline(&self, contact: &str) -> Result<Vec<TimelineEvent>, ApiError> {
        let resp = self.open(&["timeline", contact], &[]).await?;
        let wire: TimelineWire = self.json_capped("GET /hub/v1/timeline", resp, LIST_CAP).await?;
        Ok(wire.events)
    }

    /// `DELETE /hub/v1/snoozes/{contact}`: wakes it (nothing when it sleeps not).
    pub async fn wake(&self, contact: &str) -> Result<(), ApiError> {
        self.send(reqwest::Method::DELETE, &["snoozes", contact], &[], None)
            .await?;
        Ok(())
    }

    fn transport(&self, e: &reqwest::Error) -> ApiError {
        if e.is_timeout() {
            return ApiError::Timeout(String::new());
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
        ApiError::Transport(self.scrub(&text))
    }

    fn scrub(&self, text: &str) -> String {
        redact(text, self.token.expose())
    }
}

/// A hub URL as given, without trailing slashes and `/v1`.
pub fn hub_root(url: &str) -> String {
    let t = url.trim().trim_end_matches('/');
    t.strip_suffix("/v1").unwrap_or(t).trim_end_matches('/').to_string()
}

/// One change of a conversation in the hub's timeline.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct TimelineEvent {
    /// RFC 3339.
    pub at: String,
    /// The agent who made it through the hub (`None`: someone elsewhere).
    #[serde(default)]
    pub agent: Option<String>,
    pub what: String,
    /// A close's reason.
    #[serde(default)]
    pub reason: Option<String>,
}

#[derive(serde::Deserialize)]
struct TimelineWire {
    events: Vec<TimelineEvent>,
}
