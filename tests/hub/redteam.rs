//! Issue 34's attacks on the hub's agent side, each repeated: an agent
//! token on admin routes, paths and methods that escape the allowlist, an
//! upstream that echoes the key, one agent spending the team's budget.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use frontdesk::hub::agents::{self, Role};
use frontdesk::hub::store::Store;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::common;
use super::support;

/// Adds an agent with `role` (and `user_uuid`) to the hub's data dir.
pub fn add(dir: &std::path::Path, name: &str, role: Role, user: Option<&str>) -> String {
    let store = Store::open(dir).expect("store");
    agents::add_with(&store, name, &format!("{name}@example.com"), user, role, None).expect("added")
}

/// One request written byte for byte (no client normalizes its path);
/// the status and body of the answer.
pub async fn raw(url: &str, method: &str, path: &str, token: &str) -> (u16, String) {
    let addr = url.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, text)
}

/// Requests the server got since `before`, by method and path.
fn grown(before: &BTreeMap<String, u64>, after: &BTreeMap<String, u64>) -> Vec<String> {
    after
        .iter()
        .filter(|(k, n)| before.get(*k).copied().unwrap_or(0) < **n)
        .map(|(k, _)| k.clone())
        .collect()
}

/// Reads the hub makes by itself (reconciliation, previews).
fn background(key: &str) -> bool {
    key.starts_with("GET /v1/contacts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_token_gets_403_on_admin_routes_audited_and_nothing_reaches_the_service() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let raw_server = common::Raw::new(&t.server);
    let template = raw_server.ok("/templates").await["templates"][0]["uuid"]
        .as_str()
        .expect("a template")
        .to_string();
    let channel = raw_server.ok("/channels").await["channels"][0]["uuid"]
        .as_str()
        .expect("a channel")
        .to_string();
    let status = raw_server.ok("/custom_statuses").await["customStatuses"][0]["uuid"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| "1".into());
    let before = t.server.requests_by_path();
    let attacks: Vec<(Method, String, Value)> = vec![
        (
            Method::POST,
            "/v1/webhooks/subscribe".into(),
            json!({ "url": "https://attacker.example/x", "subscriptions": ["message_created"] }),
        ),
        (Method::DELETE, "/v1/webhooks/unsubscribe".into(), Value::Null),
        (Method::GET, "/v1/webhooks/events".into(), Value::Null),
        (Method::POST, "/v1/custom_statuses".into(), json!({ "name": "pwned" })),
        (
            Method::PUT,
            format!("/v1/custom_statuses/{status}"),
            json!({ "name": "pwned" }),
        ),
        (Method::DELETE, format!("/v1/custom_statuses/{status}"), Value::Null),
        (
            Method::PATCH,
            format!("/v1/templates/{template}"),
            json!({ "title": "pwned" }),
        ),
        (
            Method::PATCH,
            format!("/v1/channels/{channel}"),
            json!({ "title": "pwned" }),
        ),
        (
            Method::PUT,
            "/v1/users/abcdef12/status".into(),
            json!({ "available": false }),
        ),
        (Method::DELETE, "/v1/users/abcdef12/status".into(), Value::Null),
    ];
    for (method, path, body) in &attacks {
        let mut req = t
            .dana
            .http
            .request(method.clone(), format!("{}{path}", t.dana.url))
            .bearer_auth(&t.dana.token);
        if !body.is_null() {
            req = req.json(body);
        }
        let resp = req.send().await.expect("answer");
        assert_eq!(resp.status(), StatusCode::FORBIDDEN, "{method} {path}");
    }
    let reached: Vec<_> = grown(&before, &t.server.requests_by_path())
        .into_iter()
        .filter(|k| !background(k))
        .collect();
    assert!(reached.is_empty(), "the service saw {reached:?}");
    let (_, audit) = t.lee.json("/hub/v1/audit?limit=100").await;
    let refused = audit["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["agent"] == "dana" && e["status"] == 403)
        .count();
    assert_eq!(refused, attacks.len(), "each refusal is audited: {audit}");
    // An admin's token does what an agent's cannot.
    let admin = add(t.dir.path(), "ada", Role::Admin, None);
    let resp = t
        .dana
        .http
        .patch(format!("{}/v1/templates/{template}", t.dana.url))
        .bearer_auth(&admin)
        .json(&json!({ "title": "renamed by an admin" }))
        .send()
        .await
        .expect("answer");
    assert_eq!(resp.status(), StatusCode::OK);
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_changes_its_own_users_status_and_no_other() {
    let t = support::team().await;
    let kim = add(t.dir.path(), "kim", Role::Agent, Some("abc123"));
    let put = |path: &str| {
        t.dana
            .http
            .put(format!("{}{path}", t.dana.url))
            .bearer_auth(&kim)
            .json(&json!({ "available": false }))
            .send()
    };
    let own = put("/v1/users/abc123/status").await.expect("answer");
    assert_ne!(own.status(), StatusCode::FORBIDDEN, "forwarded to the service");
    let other = put("/v1/users/abc124/status").await.expect("answer");
    assert_eq!(other.status(), StatusCode::FORBIDDEN);
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn escaping_paths_and_odd_methods_get_400_and_reach_nothing() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let uuid = common::Raw::new(&t.server).ok("/contacts").await["contacts"][0]["uuid"]
        .as_str()
        .expect("uuid")
        .to_string();
    let before = t.server.requests_by_path();
    let escapes = [
        "/v1/../plan".to_string(),
        "/v1/../../etc/passwd".into(),
        "/v1/%2e%2e/outside".into(),
        "/v1/%2E%2E/plan".into(),
        "/v1/..\\..\\outside".into(),
        "/v1/contacts%2F..%2Fplan".into(),
        "/v1/contacts/%5c/plan".into(),
        "/v1/contacts//messages".into(),
        "/v1/plan/".into(),
        format!("/v1/contacts/{uuid}/conversation/%2e%2e/%2e%2e/%2e%2e/webhooks/subscribe"),
    ];
    for path in &escapes {
        for method in ["GET", "POST"] {
            let (status, text) = raw(&t.hub.url, method, path, &t.dana.token).await;
            assert_eq!(status, 400, "{method} {path}: {text}");
        }
    }
    for method in ["TRACE", "FOO", "OPTIONS", "HEAD", "CONNECT"] {
        let (status, text) = raw(&t.hub.url, method, "/v1/plan", &t.dana.token).await;
        // HEAD's answer has no body; hyper answers CONNECT to a path itself.
        assert!(
            status == 400 || (method == "CONNECT" && status != 200),
            "{method}: {text}"
        );
    }
    let reached: Vec<_> = grown(&before, &t.server.requests_by_path())
        .into_iter()
        .filter(|k| !background(k))
        .collect();
    assert!(reached.is_empty(), "the service saw {reached:?}");
    // The allowlist passes the service's own paths on.
    let (status, _) = raw(&t.hub.url, "GET", "/v1/plan", &t.dana.token).await;
    assert_eq!(status, 200);
    t.hub.stop().await;
}

/// A service stand-in on 127.0.0.1:0 that echoes the request's
/// `Authorization` in its body and a header (as TRACE would), and answers
/// 503 while `down` is set. Counts what it receives.
pub struct Echo {
    pub base_url: String,
    pub down: Arc<AtomicBool>,
    pub hits: Arc<AtomicU64>,
}

pub async fn echo_upstream() -> Echo {
    use axum::http::HeaderMap;
    let down = Arc::new(AtomicBool::new(false));
    let hits = Arc::new(AtomicU64::new(0));
    let (d, h) = (down.clone(), hits.clone());
    let app = axum::Router::new().fallback(move |headers: HeaderMap| {
        let (d, h) = (d.clone(), h.clone());
        async move {
            h.fetch_add(1, Ordering::SeqCst);
            if d.load(Ordering::SeqCst) {
                return (StatusCode::SERVICE_UNAVAILABLE, HeaderMap::new(), "down".to_string());
            }
            let auth = headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            let mut out = HeaderMap::new();
            if let Ok(v) = auth.parse() {
                out.insert("x-echo-authorization", v);
            }
            out.insert("content-type", "application/json".parse().expect("header"));
            (StatusCode::OK, out, json!({ "echo": auth }).to_string())
        }
    });
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = l.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(l, app).await;
    });
    Echo {
        base_url: format!("http://{addr}/v1"),
        down,
        hits,
    }
}

/// A hub in front of `echo` with agent dana (its token); `tune` applied.
pub async fn hub_on_echo(
    echo: &Echo,
    tune: impl FnOnce(&mut frontdesk::hub::HubConfig),
) -> (frontdesk::hub::RunningHub, tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let token = support::add_agent(dir.path(), "dana");
    let mut cfg = frontdesk::hub::HubConfig::new(
        dir.path().to_path_buf(),
        &echo.base_url,
        frontdesk::api::ApiKey::new("sk_live_secret_key_1234".to_string()),
    );
    cfg.reconcile_every = std::time::Duration::from_secs(3600);
    cfg.lost_check_every = std::time::Duration::from_secs(3600);
    tune(&mut cfg);
    (support::start_hub(cfg).await, dir, token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_echoes_the_request_never_hands_the_agent_the_key() {
    let echo = echo_upstream().await;
    let (hub, _dir, token) = hub_on_echo(&echo, |_| {}).await;
    let resp = reqwest::Client::new()
        .get(format!("{}/v1/plan", hub.url))
        .bearer_auth(&token)
        .send()
        .await
        .expect("answer");
    assert_eq!(resp.status(), StatusCode::OK);
    let headers = format!("{:?}", resp.headers());
    let body = resp.text().await.expect("body");
    assert!(body.contains("echo"), "the service's answer came back: {body}");
    for text in [&headers, &body] {
        assert!(!text.contains("sk_live_secret_key_1234"), "the key leaked: {text}");
    }
    hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_agent_past_its_rate_gets_429_with_retry_after_and_the_others_go_on() {
    let t = support::team_with(30, |c| {
        c.agent_rate = frontdesk::hub::guard::RateLimit { rate: 0.01, burst: 3.0 };
    })
    .await;
    for _ in 0..3 {
        let (st, _) = t.dana.json("/v1/plan").await;
        assert_eq!(st, StatusCode::OK);
    }
    let resp = t.dana.get("/v1/plan").send().await.expect("answer");
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!(wait >= 1);
    let (st, _) = t.lee.json("/v1/plan").await;
    assert_eq!(st, StatusCode::OK, "lee has a bucket of its own");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_deletes_only_a_message_it_sent() {
    let t = support::team().await;
    let store = Store::open(t.dir.path()).expect("store");
    store
        .conn()
        .execute(
            "INSERT INTO sent (message, recipient, agent, at) VALUES ('abc123', '+15550000', 'dana', '2026-01-01T00:00:00Z')",
            [],
        )
        .expect("a send by dana");
    let delete = |token: &str, path: &str| {
        t.dana
            .http
            .delete(format!("{}{path}", t.dana.url))
            .bearer_auth(token)
            .send()
    };
    let lee = delete(&t.lee.token, "/v1/messages/abc123").await.expect("answer");
    assert_eq!(lee.status(), StatusCode::FORBIDDEN, "not lee's message");
    let body_form = t
        .dana
        .http
        .delete(format!("{}/v1/messages", t.dana.url))
        .bearer_auth(&t.lee.token)
        .json(&json!({ "uuid": "abc123" }))
        .send()
        .await
        .expect("answer");
    assert_eq!(body_form.status(), StatusCode::FORBIDDEN);
    let dana = delete(&t.dana.token, "/v1/messages/abc123").await.expect("answer");
    assert_ne!(dana.status(), StatusCode::FORBIDDEN, "dana's own goes to the service");
    t.hub.stop().await;
}
