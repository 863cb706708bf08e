//! The hub's `/mcp`: the same tools over MCP's Streamable HTTP transport,
//! driven by raw JSON-RPC posts with an agent's token, against a hub on
//! 127.0.0.1:0 in front of the embedded server.

use frontdesk::hub::agents::{self, Role};
use frontdesk::hub::store::Store;
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::common;
use super::hub_support::{Agent, Team, team, wait_for_contacts};

/// An MCP session over HTTP: the session id `initialize` gave.
struct Http {
    url: String,
    token: String,
    http: reqwest::Client,
    session: Option<String>,
    next: u64,
}

impl Http {
    fn new(agent: &Agent) -> Http {
        Http {
            url: format!("{}/mcp", agent.url),
            token: agent.token.clone(),
            http: reqwest::Client::new(),
            session: None,
            next: 1,
        }
    }

    /// Posts one message; the status and the JSON-RPC answers in the body
    /// (a JSON body or the `data:` lines of an event stream).
    async fn post(&self, msg: &Value) -> (StatusCode, reqwest::header::HeaderMap, Vec<Value>) {
        let mut req = self
            .http
            .post(&self.url)
            .bearer_auth(&self.token)
            .header("Accept", "application/json, text/event-stream")
            .json(msg);
        if let Some(s) = &self.session {
            req = req.header("Mcp-Session-Id", s);
        }
        let resp = req.send().await.expect("post");
        let (status, headers) = (resp.status(), resp.headers().clone());
        let text = resp.text().await.expect("body");
        let answers = match serde_json::from_str::<Value>(&text) {
            Ok(v) => vec![v],
            Err(_) => text
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .filter_map(|d| serde_json::from_str(d.trim()).ok())
                .collect(),
        };
        (status, headers, answers)
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        let (status, _, answers) = self
            .post(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        assert_eq!(status, StatusCode::OK, "{method}: {answers:?}");
        answers
            .into_iter()
            .find(|a| a["id"] == json!(id))
            .unwrap_or_else(|| panic!("no answer to {method}"))
    }

    async fn initialize(&mut self) -> Value {
        let (status, headers, answers) = self
            .post(&json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": { "name": "hub-test", "version": "1" } } }))
            .await;
        assert_eq!(status, StatusCode::OK, "{answers:?}");
        self.session = headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        assert!(self.session.is_some(), "initialize gives a session id");
        let (status, _, _) = self
            .post(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        assert!(status.is_success(), "{status}");
        answers.into_iter().next().expect("initialize answered")
    }

    async fn tools(&mut self) -> Vec<String> {
        let r = self.request("tools/list", json!({})).await;
        r["result"]["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|t| t["name"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// A tool's result: whether it is an error, and the result.
    async fn call(&mut self, name: &str, args: Value) -> (bool, Value) {
        let r = self
            .request("tools/call", json!({ "name": name, "arguments": args }))
            .await;
        let result = r["result"].clone();
        assert!(result.is_object(), "{name}: {r}");
        (result["isError"] == json!(true), result)
    }
}

fn text(result: &Value) -> String {
    result["content"][0]["text"].as_str().unwrap_or_default().to_string()
}

fn make_admin(t: &Team, name: &str) {
    let store = Store::open(t.dir.path()).expect("store");
    agents::set_role(&store, name, Role::Admin).expect("role");
}

#[tokio::test]
async fn the_hub_serves_the_tools_over_http_with_the_agents_token() {
    let t = team().await;
    wait_for_contacts(&t.dana, 30).await;
    let mut s = Http::new(&t.dana);
    let init = s.initialize().await;
    assert_eq!(init["result"]["serverInfo"]["name"], "frontdesk", "{init}");

    let tools = s.tools().await;
    for name in [
        "list_contacts",
        "search",
        "read_thread",
        "contact_details",
        "contact_by_phone",
        "history",
    ] {
        assert!(tools.contains(&name.to_string()), "{name} in {tools:?}");
    }
    // An agent's token: no writes offered; a draft lives on a machine.
    assert!(!tools.iter().any(|t| t == "close" || t == "draft_reply"), "{tools:?}");

    let (err, list) = s.call("list_contacts", json!({ "limit": 5 })).await;
    assert!(!err, "{list}");
    let data = &list["structuredContent"];
    assert_eq!(data["total"], 30, "{data}");
    assert_eq!(data["contacts"].as_array().map(Vec::len), Some(5));
    assert_eq!(data["complete"], true, "{data}");
    assert!(data["asOf"].is_string(), "{data}");

    let c = data["contacts"][0].clone();
    let (err, found) = s.call("contact_by_phone", json!({ "phone": c["phone"] })).await;
    assert!(!err, "{found}");
    assert_eq!(found["structuredContent"]["uuid"], c["uuid"]);
    let (err, thread) = s.call("read_thread", json!({ "contact": c["uuid"], "limit": 3 })).await;
    assert!(!err, "{thread}");
    assert!(
        !thread["structuredContent"]["messages"]
            .as_array()
            .expect("messages")
            .is_empty()
    );

    // The client ends its session: 200 (the official SDK warns on 202).
    let ended = s
        .http
        .delete(&s.url)
        .bearer_auth(&s.token)
        .header("Mcp-Session-Id", s.session.clone().unwrap_or_default())
        .send()
        .await
        .expect("delete");
    assert_eq!(ended.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_hubs_mcp_without_a_token_or_with_a_wrong_one_is_401() {
    let t = team().await;
    let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "x", "version": "1" } } });
    let http = reqwest::Client::new();
    let url = format!("{}/mcp", t.hub.url);
    for token in [None, Some("fdh_not-a-token")] {
        let mut req = http
            .post(&url)
            .header("Accept", "application/json, text/event-stream")
            .json(&init);
        if let Some(tok) = token {
            req = req.bearer_auth(tok);
        }
        let resp = req.send().await.expect("post");
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
        assert!(resp.headers().get("mcp-session-id").is_none());
        let body = resp.text().await.expect("body");
        assert!(!body.contains("jsonrpc") && !body.contains("frontdesk"), "{body}");
    }
}

#[tokio::test]
async fn a_write_needs_an_admin_and_is_audited_under_the_agent() {
    let t = team().await;
    wait_for_contacts(&t.dana, 30).await;
    let raw = common::Raw::new(&t.server);
    let first = raw.ok("/contacts").await["contacts"][0].clone();
    let uuid = first["uuid"].as_str().expect("uuid").to_string();
    let (st, _) = raw
        .call(
            reqwest::Method::POST,
            &format!("/contacts/{uuid}/conversation/open"),
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK);

    // lee is an agent: the write is refused, naming the fix, and nothing changes.
    let mut lee = Http::new(&t.lee);
    lee.initialize().await;
    let (err, refused) = lee.call("close", json!({ "contact": uuid })).await;
    assert!(err, "{refused}");
    assert!(
        text(&refused).contains("frontdesk hub agents role lee admin"),
        "{refused}"
    );
    let after = raw.ok(&format!("/contacts/{uuid}")).await;
    assert!(after["contact"][0]["closedAt"].is_null(), "{after}");

    // dana is an admin: the write is applied and audited under dana.
    make_admin(&t, "dana");
    let mut dana = Http::new(&t.dana);
    dana.initialize().await;
    assert!(dana.tools().await.contains(&"close".to_string()));
    let (err, closed) = dana.call("close", json!({ "contact": uuid })).await;
    assert!(!err, "{closed}");
    let after = raw.ok(&format!("/contacts/{uuid}")).await;
    assert!(!after["contact"][0]["closedAt"].is_null(), "{after}");

    let (status, audit) = t.dana.json("/hub/v1/audit").await;
    assert_eq!(status, StatusCode::OK);
    let entries = audit["entries"].as_array().expect("entries");
    assert!(
        entries.iter().any(|e| e["agent"] == "dana"
            && e["contact"] == json!(uuid)
            && e["path"].as_str().is_some_and(|p| p.ends_with("/conversation/close"))),
        "{audit}"
    );
    assert!(!entries.iter().any(|e| e["agent"] == "lee"), "{audit}");

    // The assistant's history is dana's part of the audit, naming the contact.
    let (err, history) = dana.call("history", json!({})).await;
    assert!(!err, "{history}");
    let run = &history["structuredContent"]["runs"][0];
    assert_eq!(run["action"], "closed", "{history}");
    assert_eq!(run["contacts"][0]["uuid"], json!(uuid), "{history}");
    assert_eq!(run["contacts"][0]["name"], first["name"], "{history}");
}
