//! The service's paths an agent may reach through the hub (issue 34): an
//! allowlist of (method, path pattern) with typed segments. The upstream
//! path is rebuilt from the parsed segments, never joined from the raw
//! path, and only known query parameters are passed on, re-encoded. Dot
//! segments, encoded slashes, dots or backslashes, backslashes, empty
//! segments and unusual methods are refused before anything is sent.

use axum::http::{Method, Uri};

/// Who may use a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Any agent.
    Agent,
    /// An agent for its own user (`/users/:uuid/status`), an admin for any.
    OwnUser,
    /// Admins only (webhook subscription, renames, custom status management…).
    Admin,
}

/// One segment of a pattern.
#[derive(Debug, Clone, Copy)]
enum Seg {
    Lit(&'static str),
    /// Hex digits and hyphens (the service's uuids).
    Uuid,
    /// Digits with an optional leading `+`.
    Phone,
    /// A platform id or a message's external id: letters, digits, `-`, `_`, `.`, `=`, `:`.
    Id,
}

use Seg::{Id, Lit, Phone, Uuid};

struct Rule {
    method: Method,
    pattern: &'static [Seg],
    access: Access,
    query: &'static [&'static str],
}

const CONTACTS_QUERY: &[&str] = &["page", "after", "source", "tags", "team_uuid", "include_field_types"];
const PAGE: &[&str] = &["page"];

fn rules() -> &'static [Rule] {
    use Access::{Admin, Agent, OwnUser};
    static RULES: std::sync::OnceLock<Vec<Rule>> = std::sync::OnceLock::new();
    let r = |method: Method, pattern: &'static [Seg], access: Access, query: &'static [&'static str]| Rule {
        method,
        pattern,
        access,
        query,
    };
    RULES.get_or_init(|| {
        vec![
            r(Method::GET, &[Lit("contacts")], Agent, CONTACTS_QUERY),
            r(Method::POST, &[Lit("contacts")], Agent, &[]),
            r(
                Method::GET,
                &[Lit("contacts"), Lit("phone"), Phone],
                Agent,
                &["channel_uuid"],
            ),
            r(Method::GET, &[Lit("contacts"), Lit("bsuid"), Id], Agent, &[]),
            r(Method::GET, &[Lit("contacts"), Uuid], Agent, &["include_field_types"]),
            r(Method::PATCH, &[Lit("contacts"), Uuid], Agent, &[]),
            r(Method::DELETE, &[Lit("contacts"), Uuid], Admin, &[]),
            r(
                Method::POST,
                &[Lit("contacts"), Uuid, Lit("conversation"), Lit("close")],
                Agent,
                &[],
            ),
            r(
                Method::POST,
                &[Lit("contacts"), Uuid, Lit("conversation"), Lit("open")],
                Agent,
                &[],
            ),
            r(
                Method::POST,
                &[Lit("contacts"), Uuid, Lit("conversation"), Lit("note")],
                Agent,
                &[],
            ),
            r(
                Method::PUT,
                &[Lit("contacts"), Uuid, Lit("conversation"), Lit("update_funnel")],
                Agent,
                &[],
            ),
            r(
                Method::GET,
                &[Lit("contacts"), Uuid, Lit("messages")],
                Agent,
                &["page", "after"],
            ),
            r(Method::GET, &[Lit("contacts"), Uuid, Lit("bot")], Agent, &[]),
            r(Method::POST, &[Lit("contacts"), Uuid, Lit("bot")], Agent, &[]),
            r(Method::POST, &[Lit("messages"), Lit("send")], Agent, &[]),
            r(Method::DELETE, &[Lit("messages")], Agent, &[]),
            r(Method::DELETE, &[Lit("messages"), Id], Agent, &[]),
            r(Method::GET, &[Lit("messages"), Lit("status"), Id], Agent, &[]),
            r(Method::GET, &[Lit("templates")], Agent, PAGE),
            r(Method::GET, &[Lit("templates"), Uuid], Agent, &[]),
            r(Method::PATCH, &[Lit("templates"), Uuid], Admin, &[]),
            r(Method::GET, &[Lit("channels")], Agent, &["page", "type", "active"]),
            r(Method::GET, &[Lit("channels"), Uuid], Agent, &[]),
            r(Method::PATCH, &[Lit("channels"), Uuid], Admin, &[]),
            r(Method::GET, &[Lit("teams")], Agent, PAGE),
            r(Method::GET, &[Lit("teams"), Uuid], Agent, &[]),
            r(Method::PATCH, &[Lit("teams"), Uuid], Admin, &[]),
            r(
                Method::GET,
                &[Lit("teams"), Uuid, Lit("members")],
                Agent,
                &["page", "status"],
            ),
            r(Method::GET, &[Lit("funnels")], Agent, &[]),
            r(Method::GET, &[Lit("plan")], Agent, &[]),
            r(Method::GET, &[Lit("auth"), Lit("me")], Agent, &[]),
            r(Method::GET, &[Lit("custom_statuses")], Agent, PAGE),
            r(Method::GET, &[Lit("custom_statuses"), Id], Agent, &[]),
            r(Method::POST, &[Lit("custom_statuses")], Admin, &[]),
            r(Method::PUT, &[Lit("custom_statuses"), Id], Admin, &[]),
            r(Method::DELETE, &[Lit("custom_statuses"), Id], Admin, &[]),
            r(Method::PUT, &[Lit("users"), Uuid, Lit("status")], OwnUser, &[]),
            r(Method::DELETE, &[Lit("users"), Uuid, Lit("status")], OwnUser, &[]),
            r(
                Method::GET,
                &[Lit("webhooks"), Lit("events")],
                Admin,
                &["status", "page", "items", "subscriptions"],
            ),
            r(Method::POST, &[Lit("webhooks"), Lit("subscribe")], Admin, &[]),
            r(Method::DELETE, &[Lit("webhooks"), Lit("unsubscribe")], Admin, &[]),
        ]
    })
}

/// A request the allowlist admits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// The path after `/v1`, rebuilt from checked segments (`/contacts/ab12`).
    pub path: String,
    /// The known query parameters, re-encoded (without `?`), if any.
    pub query: Option<String>,
    pub access: Access,
    /// The user uuid of an `OwnUser` route.
    pub user: Option<String>,
}

impl Route {
    /// The path and query as sent upstream (after the base URL).
    pub fn path_and_query(&self) -> String {
        match &self.query {
            Some(q) => format!("{}?{q}", self.path),
            None => self.path.clone(),
        }
    }
}

/// Why a request is not forwarded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Malformed: 400.
    Bad(&'static str),
    /// No such route (or not one the hub forwards): 404.
    Unknown,
}

/// The methods the service uses; any other is refused.
fn method_ok(m: &Method) -> bool {
    matches!(
        *m,
        Method::GET | Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    )
}

fn hex_uuid(s: &str) -> bool {
    (1..=64).contains(&s.len()) && s.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

fn phone(s: &str) -> bool {
    let digits = s.strip_prefix('+').unwrap_or(s);
    (3..=20).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit())
}

fn id(s: &str) -> bool {
    (1..=128).contains(&s.len())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=' | ':'))
        && s.chars().any(|c| c != '.')
}

/// One raw segment, decoded and checked for the tricks that escape a path.
fn segment(raw: &str) -> Result<String, Refused> {
    if raw.is_empty() {
        return Err(Refused::Bad("empty path segment"));
    }
    if raw.contains('\\') {
        return Err(Refused::Bad("backslash in the path"));
    }
    if raw == "." || raw == ".." {
        return Err(Refused::Bad("dot segment in the path"));
    }
    if !raw.contains('%') {
        return Ok(raw.to_string());
    }
    let decoded = percent_decode(raw).ok_or(Refused::Bad("malformed percent-encoding in the path"))?;
    if decoded.contains(['/', '\\', '.', '%']) || decoded.chars().any(char::is_control) {
        return Err(Refused::Bad("encoded slash, dot or backslash in the path"));
    }
    Ok(decoded)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The known parameters of `query`, re-encoded; `None` when none remain.
fn known_query(query: Option<&str>, known: &[&str]) -> Option<String> {
    let q = query?;
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    let mut any = false;
    for (k, v) in url::form_urlencoded::parse(q.as_bytes()) {
        if known.contains(&k.as_ref()) {
            out.append_pair(&k, &v);
            any = true;
        }
    }
    any.then(|| out.finish())
}

/// Parses a request to `/v1/...` against the allowlist.
pub fn parse(method: &Method, uri: &Uri) -> Result<Route, Refused> {
    if !method_ok(method) {
        return Err(Refused::Bad("method not allowed through the hub"));
    }
    let rest = uri.path().strip_prefix("/v1").ok_or(Refused::Unknown)?;
    let Some(rest) = rest.strip_prefix('/') else {
        return Err(if rest.is_empty() {
            Refused::Unknown
        } else {
            Refused::Bad("malformed path")
        });
    };
    let segs = rest.split('/').map(segment).collect::<Result<Vec<_>, _>>()?;
    let rule = rules()
        .iter()
        .find(|r| r.method == *method && matches(r.pattern, &segs))
        .ok_or(Refused::Unknown)?;
    let user = (rule.access == Access::OwnUser).then(|| segs.get(1).cloned()).flatten();
    Ok(Route {
        path: segs.iter().fold(String::new(), |mut p, s| {
            p.push('/');
            p.push_str(s);
            p
        }),
        query: known_query(uri.query(), rule.query),
        access: rule.access,
        user,
    })
}

fn matches(pattern: &[Seg], segs: &[String]) -> bool {
    pattern.len() == segs.len()
        && pattern.iter().zip(segs).all(|(p, s)| match p {
            Lit(l) => s == l,
            Uuid => hex_uuid(s),
            Phone => phone(s),
            Id => id(s),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(m: Method, u: &str) -> Result<Route, Refused> {
        parse(&m, &u.parse::<Uri>().expect("uri"))
    }

    #[test]
    fn escapes_are_refused_before_matching() {
        for u in [
            "/v1/../plan",
            "/v1/%2e%2e/outside",
            "/v1/contacts/%2Fetc",
            "/v1/..%5C..%5Coutside",
            "/v1/contacts//messages",
            "/v1/contacts/ab/conversation/%2e%2e/%2e%2e/%2e%2e/webhooks/subscribe",
            "/v1/plan/",
        ] {
            assert!(matches!(p(Method::GET, u), Err(Refused::Bad(_))), "{u}");
        }
        for m in ["TRACE", "FOO", "OPTIONS", "HEAD", "CONNECT"] {
            let m = Method::from_bytes(m.as_bytes()).expect("method");
            assert!(matches!(p(m, "/v1/plan"), Err(Refused::Bad(_))));
        }
    }

    #[test]
    fn a_route_is_rebuilt_with_known_query_only() {
        let r = p(Method::GET, "/v1/contacts?page=2&evil=1&tags=a%2Cb").expect("route");
        assert_eq!(r.path_and_query(), "/contacts?page=2&tags=a%2Cb");
        assert_eq!(r.access, Access::Agent);
        let r = p(Method::PUT, "/v1/users/abc-1/status").expect("route");
        assert_eq!((r.access, r.user.as_deref()), (Access::OwnUser, Some("abc-1")));
        assert_eq!(
            p(Method::GET, "/v1/contacts/phone/+15551234").expect("phone").path,
            "/contacts/phone/+15551234"
        );
        assert_eq!(p(Method::GET, "/v1/contacts/zz-not-hex"), Err(Refused::Unknown));
        assert_eq!(
            p(Method::POST, "/v1/webhooks/subscribe").expect("route").access,
            Access::Admin
        );
    }
}
