//! A request described before it is sent (method, path segments, query,
//! body, whether it may be repeated) and how a 404 to it is read.

use reqwest::Method;
use serde::Serialize;

use super::error::ApiError;

/// How a 404 answer is read for one request.
#[derive(Debug, Clone, Default)]
pub(crate) struct Missing {
    /// What the request names, as (noun, id); the first is the default.
    subjects: Vec<(&'static str, String)>,
    /// Set on the endpoints extensions.md adds: what a server without the
    /// route does not offer.
    offered: Option<&'static str>,
}

impl Missing {
    fn name(noun: &str, id: &str) -> String {
        if id.is_empty() {
            noun.to_string()
        } else {
            format!("{noun} {id}")
        }
    }

    /// Reads a 404 by what the request was, not by the server's wording:
    /// a message that names one of the request's ids is that resource; on an
    /// endpoint extensions.md adds, an answer without the API's error shape
    /// (`{"error": …}`: an empty body, a proxy's page, a framework's default)
    /// is a route the server lacks; anything else is the request's first
    /// subject missing.
    pub(crate) fn resolve(&self, message: Option<&str>, api_shaped: bool) -> ApiError {
        let lower = message.map(str::to_lowercase).unwrap_or_default();
        let by_id = self
            .subjects
            .iter()
            .find(|(_, id)| !id.is_empty() && lower.contains(&id.to_lowercase()));
        if let Some((noun, id)) = by_id {
            return ApiError::NotFound {
                what: Self::name(noun, id),
            };
        }
        match (self.offered, self.subjects.first()) {
            (Some(what), _) if !api_shaped => ApiError::NotOffered { what: what.to_string() },
            (_, Some((noun, id))) => ApiError::NotFound {
                what: Self::name(noun, id),
            },
            (Some(what), None) => ApiError::NotOffered { what: what.to_string() },
            (None, None) => ApiError::NotFound {
                what: "the requested resource".to_string(),
            },
        }
    }
}

/// One request, described before it is sent.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub(crate) method: Method,
    pub(crate) path: Vec<String>,
    pub(crate) query: Vec<(&'static str, String)>,
    pub(crate) body: Option<Vec<u8>>,
    pub(crate) idempotent: bool,
    pub(crate) missing: Missing,
}

impl Call {
    /// A request to `path` (segments, each percent-encoded on its own).
    /// GET, PUT, PATCH and DELETE are retried; POST is not unless
    /// [`Call::idempotent`] says so.
    pub(crate) fn new(method: Method, path: &[&str]) -> Call {
        let idempotent = method != Method::POST;
        Call {
            method,
            path: path.iter().map(|s| s.to_string()).collect(),
            query: Vec::new(),
            body: None,
            idempotent,
            missing: Missing::default(),
        }
    }

    pub(crate) fn get(path: &[&str]) -> Call {
        Call::new(Method::GET, path)
    }

    /// Adds a query parameter.
    pub(crate) fn query(mut self, key: &'static str, value: impl Into<String>) -> Call {
        self.query.push((key, value.into()));
        self
    }

    /// Adds a query parameter when there is a value.
    pub(crate) fn query_opt(self, key: &'static str, value: Option<impl Into<String>>) -> Call {
        match value {
            Some(v) => self.query(key, v),
            None => self,
        }
    }

    /// Sets the JSON body.
    pub(crate) fn json(mut self, body: &impl Serialize) -> Result<Call, ApiError> {
        let bytes = serde_json::to_vec(body)
            .map_err(|e| ApiError::Config(format!("the request body could not be encoded: {e}")))?;
        self.body = Some(bytes);
        Ok(self)
    }

    /// Marks the request safe (or unsafe) to repeat.
    pub(crate) fn idempotent(mut self, yes: bool) -> Call {
        self.idempotent = yes;
        self
    }

    /// Names what the request is about, for a 404 (`contact <uuid>`).
    pub(crate) fn about(mut self, noun: &'static str, id: &str) -> Call {
        self.missing.subjects.push((noun, id.to_string()));
        self
    }

    /// Marks an endpoint extensions.md adds: a route-level 404 becomes
    /// `NotOffered { what }`.
    pub(crate) fn offered(mut self, what: &'static str) -> Call {
        self.missing.offered = Some(what);
        self
    }

    /// When the request asks for a page by number or cursor: what a 400 to
    /// it means (the service's wording, shown when the server gives none).
    pub(crate) fn paging(&self) -> Option<&'static str> {
        if self.query.iter().any(|(k, _)| *k == "after") {
            Some("Invalid pagination cursor")
        } else if self.query.iter().any(|(k, _)| *k == "page") {
            Some("Pagination limit exceeded")
        } else {
            None
        }
    }

    /// `GET /contacts/…`, for decode errors.
    pub(crate) fn endpoint(&self) -> String {
        format!("{} /{}", self.method, self.path.join("/"))
    }
}

#[cfg(test)]
mod tests;
