//! The embedded reference server, tested as a client sees it over HTTP.
//! Every test binds 127.0.0.1:0 and talks to the real server with reqwest.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use frontdesk::server::{RunningServer, ServerConfig, start};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

struct Srv {
    s: RunningServer,
    c: reqwest::Client,
}

async fn spawn(cfg: ServerConfig) -> Srv {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let s = start(listener, cfg).await.expect("server starts");
    Srv {
        s,
        c: reqwest::Client::new(),
    }
}

async fn default_server() -> Srv {
    spawn(ServerConfig::default()).await
}

impl Srv {
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        let mut req = self
            .c
            .request(method, format!("{}{path}", self.s.base_url))
            .bearer_auth(&self.s.api_key)
            .header("content-type", "application/json");
        if let Some(b) = body {
            req = req.body(b.to_string());
        }
        let resp = req.send().await.unwrap();
        let status = resp.status();
        let text = resp.text().await.unwrap();
        let v = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(json!({ "raw": text }))
        };
        (status, v)
    }
    async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.call(Method::GET, path, None).await
    }
    async fn ok(&self, path: &str) -> Value {
        let (st, v) = self.get(path).await;
        assert_eq!(st, StatusCode::OK, "GET {path}: {v}");
        v
    }
    async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, Some(body)).await
    }
    async fn patch(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::PATCH, path, Some(body)).await
    }
    async fn put(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::PUT, path, Some(body)).await
    }
    /// First contact of the default list.
    async fn first_contact(&self) -> Value {
        self.ok("/contacts").await["contacts"][0].clone()
    }
    async fn contact(&self, uuid: &str) -> Value {
        let v = self.ok(&format!("/contacts/{uuid}")).await;
        assert_eq!(v["contact"].as_array().map(Vec::len), Some(1), "{v}");
        v["contact"][0].clone()
    }
    async fn create(&self, body: Value) -> (StatusCode, Value) {
        self.post("/contacts", body).await
    }
    /// Walk GET /contacts by cursor from the start; uuids in order.
    async fn walk(&self, filters: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let mut v = self.ok(&format!("/contacts?{filters}")).await;
        loop {
            out.extend(v["contacts"].as_array().unwrap().iter().cloned());
            match v["meta"]["next"].as_str() {
                None => break,
                Some(n) => v = self.ok(&format!("/contacts?{filters}&after={n}")).await,
            }
        }
        out
    }
}

fn uuids(list: &[Value]) -> Vec<String> {
    list.iter().map(|c| c["uuid"].as_str().unwrap().to_string()).collect()
}

fn new_contact(identifier: &str) -> Value {
    json!({ "identifier": identifier, "source": "messaging_app", "name": "Test Person" })
}

#[tokio::test]
async fn every_route_requires_the_key() {
    let srv = default_server().await;
    let c = reqwest::Client::new();
    let routes = [
        (Method::GET, "/contacts"),
        (Method::POST, "/contacts"),
        (Method::GET, "/plan"),
        (Method::GET, "/webhooks/events"),
        (Method::DELETE, "/messages"),
        (Method::PUT, "/users/x/status"),
        (Method::GET, "/no/such/route"),
    ];
    for (m, path) in routes {
        let url = format!("{}{path}", srv.s.base_url);
        let none = c.request(m.clone(), &url).send().await.unwrap();
        assert_eq!(none.status(), StatusCode::UNAUTHORIZED, "{m} {path} without key");
        let body: Value = none.json().await.unwrap();
        assert!(body["error"].is_string());
        let wrong = c.request(m.clone(), &url).bearer_auth("nope").send().await.unwrap();
        assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED, "{m} {path} wrong key");
    }
    let (st, v) = srv.get("/no/such/route").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(v["error"].is_string());
    srv.s.stop().await;
}

#[tokio::test]
async fn cursor_and_page_walks_over_10_500_contacts() {
    let srv = spawn(ServerConfig {
        contacts: 10_500,
        ..Default::default()
    })
    .await;
    let first = srv.ok("/contacts?page=1").await;
    assert_eq!(first["meta"]["page"], 1);
    assert_eq!(first["meta"]["pages"], 525);
    assert!(first["meta"]["next"].is_string());

    // Cursor walk, creating contacts while it runs: they must stay out, and
    // nothing may repeat or go missing.
    let mut seen = Vec::new();
    let mut v = first.clone();
    let mut created = Vec::new();
    let mut batches = 0;
    loop {
        let batch = v["contacts"].as_array().unwrap();
        assert!(batch.len() <= 20);
        seen.extend(batch.iter().cloned());
        batches += 1;
        if batches % 100 == 0 {
            let (st, c) = srv.create(new_contact(&format!("+1999000{batches}"))).await;
            assert_eq!(st, StatusCode::CREATED, "{c}");
            created.push(c["contact"][0]["uuid"].as_str().unwrap().to_string());
        }
        match v["meta"]["next"].as_str() {
            None => break,
            Some(n) => v = srv.ok(&format!("/contacts?after={n}&page=3")).await,
        }
        assert!(v["meta"].get("next").is_some(), "meta.next always present");
    }
    let ids = uuids(&seen);
    assert_eq!(ids.len(), 10_500);
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 10_500, "no duplicates");
    assert!(
        created.iter().all(|c| !ids.contains(c)),
        "contacts created mid-walk are excluded"
    );
    let times: Vec<&str> = seen.iter().map(|c| c["lastMessageAt"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "most recent first");

    // Page mode gives the same order (the new contacts sit on top now).
    let mut by_page = Vec::new();
    for p in 1..=500 {
        let v = srv.ok(&format!("/contacts?page={p}")).await;
        by_page.extend(uuids(v["contacts"].as_array().unwrap()));
    }
    let skip = created.len();
    assert_eq!(
        &by_page[..skip],
        created.iter().rev().cloned().collect::<Vec<_>>().as_slice()
    );
    assert_eq!(by_page[skip..], ids[..10_000 - skip]);

    let (st, v) = srv.get("/contacts?page=501").await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"], "Pagination limit exceeded");
    srv.s.stop().await;
}

#[tokio::test]
async fn malformed_cursor_and_pages() {
    let srv = default_server().await;
    for bad in ["garbage", "ZmQxOjE6Mg", "%00%01", "ZmQxOmE6YjpjOmQ"] {
        let (st, v) = srv.get(&format!("/contacts?after={bad}")).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}");
        assert_eq!(v["error"], "Invalid pagination cursor");
    }
    let (st, _) = srv.get("/contacts?page=abc").await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    // `after` wins over `page`, even an out-of-range one.
    let next = srv.ok("/contacts").await["meta"]["next"].as_str().unwrap().to_string();
    let a = srv.ok(&format!("/contacts?after={next}&page=900")).await;
    let b = srv.ok("/contacts?page=2").await;
    assert_eq!(
        uuids(a["contacts"].as_array().unwrap()),
        uuids(b["contacts"].as_array().unwrap())
    );
    assert!(a["meta"].get("page").is_none());
    // The last page says so.
    let last = srv.ok("/contacts?page=15").await;
    assert_eq!(last["meta"]["pages"], 15);
    assert!(last["meta"]["next"].is_null());
    let beyond = srv.ok("/contacts?page=16").await;
    assert_eq!(beyond["contacts"].as_array().unwrap().len(), 0);
    srv.s.stop().await;
}

#[tokio::test]
async fn filters_apply_to_pages_and_cursors_alike() {
    let srv = default_server().await;
    let team = srv.s.manifest.teams[1].uuid.clone();
    for filter in [
        "source=whatsapp",
        "tags=VIP",
        "tags=vip,Lead",
        &format!("team_uuid={team}"),
        "source=telegram&tags=urgent",
    ] {
        let walked = srv.walk(filter).await;
        assert!(!walked.is_empty(), "{filter} matches something");
        let mut paged = Vec::new();
        let first = srv.ok(&format!("/contacts?{filter}")).await;
        let pages = first["meta"]["pages"].as_u64().unwrap();
        for p in 1..=pages {
            let v = srv.ok(&format!("/contacts?{filter}&page={p}")).await;
            paged.extend(v["contacts"].as_array().unwrap().iter().cloned());
        }
        assert_eq!(uuids(&walked), uuids(&paged), "{filter}");
        for c in &walked {
            let tags: Vec<String> = c["tags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_lowercase())
                .collect();
            if filter.contains("source=whatsapp") {
                assert_eq!(c["source"], "whatsapp");
            }
            if filter == "tags=VIP" {
                assert!(tags.contains(&"vip".into()));
            }
            if filter == "tags=vip,Lead" {
                assert!(
                    tags.contains(&"vip".into()) && tags.contains(&"lead".into()),
                    "all tags: {tags:?}"
                );
            }
            if filter.starts_with("team_uuid") {
                assert_eq!(c["team"]["uuid"], team.as_str());
            }
        }
    }
    let all = srv.walk("").await.len();
    assert_eq!(all, 300);
    assert!(srv.walk("source=whatsapp").await.len() < all);
    srv.s.stop().await;
}

#[tokio::test]
async fn contact_shape_and_field_types() {
    let srv = default_server().await;
    let c = srv.first_contact().await;
    for key in [
        "uuid",
        "name",
        "phoneNumber",
        "avatarUrl",
        "createdAt",
        "source",
        "href",
        "conversationHref",
        "assignedUser",
        "tags",
        "customFields",
        "closedAt",
        "funnelId",
        "team",
        "lastMessageAt",
        "note",
    ] {
        assert!(c.get(key).is_some(), "missing {key}: {c}");
    }
    let uuid = c["uuid"].as_str().unwrap();
    assert_eq!(uuid.len(), 32);
    assert!(uuid.chars().all(|ch| ch.is_ascii_hexdigit()));
    assert_eq!(c["href"], format!("https://app.example.com/contacts/{uuid}"));
    assert!(c["createdAt"].as_str().unwrap().ends_with('Z'));
    assert!(c["team"].is_object());

    let v = srv.ok("/contacts?include_field_types=true").await;
    let mut saw_checkbox = false;
    for c in v["contacts"].as_array().unwrap() {
        let meta = &c["customFieldsMetadata"];
        assert_eq!(meta["Interests"]["type"], "checkbox");
        assert!(meta["Interests"]["value"].is_array());
        assert_eq!(meta["Plan"]["options"], json!(["Free", "Pro", "Enterprise"]));
        if let Some(raw) = c["customFields"]["Interests"].as_str() {
            let decoded: Value = serde_json::from_str(raw).unwrap();
            assert_eq!(decoded, meta["Interests"]["value"]);
            saw_checkbox = true;
        }
    }
    assert!(saw_checkbox, "some contact on page one has a checkbox value");
    let one = srv.ok(&format!("/contacts/{uuid}?include_field_types=true")).await;
    assert!(one["contact"][0]["customFieldsMetadata"].is_object());
    let (st, v) = srv.get("/contacts/ffffffffffffffffffffffffffffffff").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(v["error"].is_string());
    srv.s.stop().await;
}

#[tokio::test]
async fn create_contact_and_every_validation_error() {
    let srv = default_server().await;
    let m = srv.s.manifest.clone();
    let (st, v) = srv.create(new_contact("+4915100000001")).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let c = &v["contact"][0];
    assert_eq!(c["tags"], json!([]));
    assert_eq!(c["customFields"], json!({}));
    assert_eq!(c["phoneNumber"], "+4915100000001");
    assert!(c["closedAt"].is_null());
    assert_eq!(
        srv.first_contact().await["uuid"],
        c["uuid"],
        "a new conversation is the most recent"
    );

    let full = json!({
        "identifier": "+4915100000002", "source": "whatsapp", "name": "Zoë 山田 🌸",
        "tags": ["VIP", "lead"], "assigned_user": m.collaborators[1].to_uppercase(),
        "team_uuid": m.teams[2].uuid, "channel_uuid": m.channels[1].uuid,
        "bot_status": "bot_end", "note": "é".repeat(1000),
        "custom_fields": { "Company": "Acme", "Work email": "a@b.co", "Order total": "12.50",
            "Birthday": "1990-02-28", "Plan": "Pro", "Interests": ["Bags", "Shoes"] }
    });
    let (st, v) = srv.create(full).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let c = &v["contact"][0];
    assert_eq!(c["tags"], json!(["vip", "lead"]));
    assert_eq!(c["assignedUser"], m.collaborators[1].as_str());
    assert_eq!(c["team"]["uuid"], m.teams[2].uuid.as_str());
    assert_eq!(c["customFields"]["Interests"], "[\"Bags\",\"Shoes\"]");
    assert_eq!(c["note"].as_str().unwrap().chars().count(), 1000);
    let bot = srv.ok(&format!("/contacts/{}/bot", c["uuid"].as_str().unwrap())).await;
    assert_eq!(bot["bot"]["status"], "ended");

    let cases: Vec<(Value, &str)> = vec![
        (
            json!({ "source": "messaging_app", "name": "x", "identifier": "" }),
            "identifier",
        ),
        (json!({ "source": "messaging_app", "name": "x" }), "identifier"),
        (json!({ "identifier": "+100", "name": "x" }), "source"),
        (json!({ "identifier": "+100", "source": "messaging_app" }), "name"),
        (
            json!({ "identifier": "+4915100000001", "source": "messaging_app", "name": "dup" }),
            "identifier",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "tags": ["nope"] }),
            "tags",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "tags": "vip" }),
            "tags",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "assigned_user": "ghost@x.io" }),
            "assigned_user",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "team_uuid": "nope" }),
            "team_uuid",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "channel_uuid": "nope" }),
            "channel_uuid",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "bot_status": "bot_maybe" }),
            "bot_status",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "note": "é".repeat(1001) }),
            "note",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "custom_fields": { "Nope": "1" } }),
            "custom_fields.Nope",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "custom_fields": { "Work email": "not-mail" } }),
            "custom_fields.Work email",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "custom_fields": { "Order total": "ten" } }),
            "custom_fields.Order total",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "custom_fields": { "Birthday": "28/02/1990" } }),
            "custom_fields.Birthday",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "custom_fields": { "Plan": "Gold" } }),
            "custom_fields.Plan",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "custom_fields": { "Interests": ["Cars"] } }),
            "custom_fields.Interests",
        ),
        (
            json!({ "identifier": "+100", "source": "s", "name": "x", "custom_fields": { "Interests": "Bags" } }),
            "custom_fields.Interests",
        ),
    ];
    for (body, field) in cases {
        let (st, v) = srv.create(body.clone()).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
        assert!(
            v["error"][field].is_array(),
            "{body}: expected error on {field}, got {v}"
        );
        // Nothing was created.
        let (st, _) = srv.get("/contacts/+100").await;
        assert_eq!(st, StatusCode::NOT_FOUND, "{body} created a contact");
    }
    assert_eq!(srv.walk("").await.len(), 302);
    // Bad JSON is a JSON 400, not a panic.
    let resp = srv
        .c
        .post(format!("{}/contacts", srv.s.base_url))
        .bearer_auth(&srv.s.api_key)
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    assert!(resp.json::<Value>().await.unwrap()["error"].is_string());
    let (st, _) = srv.post("/contacts", json!([1, 2])).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    srv.s.stop().await;
}

#[tokio::test]
async fn bot_status_needs_an_enabled_bot() {
    let srv = spawn(ServerConfig {
        bot_enabled: false,
        contacts: 20,
        ..Default::default()
    })
    .await;
    assert!(!srv.s.manifest.bot_enabled);
    let mut body = new_contact("+3300000001");
    body["bot_status"] = json!("bot_start");
    let (st, v) = srv.create(body).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"]["bot_status"].is_array());
    let uuid = srv.first_contact().await["uuid"].as_str().unwrap().to_string();
    let (st, _) = srv
        .post(&format!("/contacts/{uuid}/bot"), json!({ "status": "bot_start" }))
        .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    let (st, _) = srv.get(&format!("/contacts/{uuid}/bot")).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    srv.s.stop().await;
}

#[tokio::test]
async fn update_contact_rules() {
    let srv = default_server().await;
    let m = srv.s.manifest.clone();
    let (_, v) = srv
        .create(
            json!({ "identifier": "+4400001", "source": "telegram", "name": "Before",
        "note": "keep me", "assigned_user": m.collaborators[0], "custom_fields": { "Plan": "Free" } }),
        )
        .await;
    let uuid = v["contact"][0]["uuid"].as_str().unwrap().to_string();
    let path = format!("/contacts/{uuid}");

    let (st, v) = srv
        .patch(
            &path,
            json!({ "name": "After", "tags": ["beta"], "custom_fields": { "Birthday": "2001-12-31" },
        "team_uuid": m.teams[0].uuid }),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let c = &v["contact"][0];
    assert_eq!(c["name"], "After");
    assert_eq!(c["tags"], json!(["beta"]));
    assert_eq!(c["customFields"], json!({ "Plan": "Free", "Birthday": "2001-12-31" }));
    assert_eq!(c["note"], "keep me", "absent note is kept");
    assert_eq!(c["team"]["name"], m.teams[0].name.as_str());

    // A failed update changes nothing, even the valid parts of it.
    let before = srv.contact(&uuid).await;
    for body in [
        json!({ "name": "Changed", "tags": ["missing-tag"] }),
        json!({ "name": "Changed", "note": "x".repeat(1001) }),
        json!({ "name": "Changed", "custom_fields": { "Order total": "1,5" } }),
        json!({ "name": "Changed", "assigned_user": "nobody@nowhere.io" }),
        json!({ "name": "Changed", "team_uuid": "0000" }),
        json!({ "name": "" }),
    ] {
        let (st, v) = srv.patch(&path, body.clone()).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
        assert_eq!(srv.contact(&uuid).await, before, "{body} changed the contact");
    }

    // The path may carry the identifier instead of the uuid.
    let (st, v) = srv
        .patch("/contacts/+4400001", json!({ "unassign_user": true, "note": "" }))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert!(v["contact"][0]["assignedUser"].is_null());
    assert!(v["contact"][0]["note"].is_null(), "empty note clears it");
    let (st, v) = srv
        .patch(
            &path,
            json!({ "assigned_user": m.collaborators[2], "custom_fields": { "Plan": null } }),
        )
        .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(v["contact"][0]["assignedUser"], m.collaborators[2].as_str());
    assert_eq!(v["contact"][0]["customFields"], json!({ "Birthday": "2001-12-31" }));
    let (st, _) = srv.patch("/contacts/nobody", json!({ "name": "x" })).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    srv.s.stop().await;
}

#[tokio::test]
async fn close_and_open() {
    let srv = default_server().await;
    let uuid = srv.first_contact().await["uuid"].as_str().unwrap().to_string();
    let (st, v) = srv
        .post(&format!("/contacts/{uuid}/conversation/close"), json!(null))
        .await;
    assert_eq!(st, StatusCode::OK);
    let c = &v["contact"];
    assert!(c.is_object(), "close answers an object: {v}");
    let closed = c["closedAt"].as_str().unwrap();
    assert!(closed.ends_with('Z'));
    let at = chrono::DateTime::parse_from_rfc3339(closed).unwrap();
    assert!(
        (chrono::Utc::now() - at.with_timezone(&chrono::Utc))
            .num_seconds()
            .abs()
            < 5
    );
    assert!(c["funnelId"].is_string() && c["team"].is_object());
    assert_eq!(srv.contact(&uuid).await["closedAt"], closed);
    let (st, v) = srv
        .post(&format!("/contacts/{uuid}/conversation/open"), json!(null))
        .await;
    assert_eq!(st, StatusCode::OK);
    assert!(v["contact"][0]["closedAt"].is_null());
    assert!(srv.contact(&uuid).await["closedAt"].is_null());
    let (st, _) = srv.post("/contacts/nope/conversation/close", json!(null)).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let events = srv
        .ok("/webhooks/events?subscriptions=conversation_closed,conversation_opened&items=2")
        .await;
    let kinds: Vec<&str> = events["webhook_events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["conversation_opened", "conversation_closed"]);
    srv.s.stop().await;
}

/// A contact of the default account with a long thread.
async fn contact_with_messages(srv: &Srv, min: usize) -> (String, Value) {
    for c in srv.walk("").await {
        let uuid = c["uuid"].as_str().unwrap().to_string();
        let v = srv.ok(&format!("/contacts/{uuid}/messages")).await;
        let total = v["meta"]["pages"].as_u64().unwrap();
        if total > 1 || v["messages"].as_array().unwrap().len() >= min {
            return (uuid, v);
        }
    }
    panic!("no contact with {min} messages");
}

#[tokio::test]
async fn messages_pages_cursors_and_delete() {
    let srv = default_server().await;
    let (uuid, first) = contact_with_messages(&srv, 21).await;
    let path = format!("/contacts/{uuid}/messages");
    let pages = first["meta"]["pages"].as_u64().unwrap();
    assert!(pages >= 2, "{first}");
    let mut paged = Vec::new();
    for p in 1..=pages {
        paged.extend(
            srv.ok(&format!("{path}?page={p}")).await["messages"]
                .as_array()
                .unwrap()
                .clone(),
        );
    }
    let mut walked = Vec::new();
    let mut v = first.clone();
    loop {
        walked.extend(v["messages"].as_array().unwrap().clone());
        match v["meta"]["next"].as_str() {
            Some(n) => v = srv.ok(&format!("{path}?after={n}")).await,
            None => break,
        }
    }
    assert_eq!(paged, walked);
    let times: Vec<&str> = walked.iter().map(|m| m["createdAt"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");
    for m in &walked {
        let status = m["status"].as_str().unwrap();
        assert!(["sent", "received", "note"].contains(&status));
        assert_eq!(m.get("uuid").is_none(), status == "note", "{m}");
        for k in ["text", "createdAt", "channel", "from", "to"] {
            assert!(m[k].is_string(), "{k} in {m}");
        }
    }
    let (st, v) = srv.get(&format!("{path}?after=bogus")).await;
    assert_eq!(
        (st, v["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("Invalid pagination cursor"))
    );
    let (st, _) = srv.get("/contacts/nope/messages").await;
    assert_eq!(st, StatusCode::NOT_FOUND);

    // Delete, body form then path form: 204 and no body, then gone.
    let with_uuid: Vec<String> = walked
        .iter()
        .filter_map(|m| m["uuid"].as_str().map(String::from))
        .take(2)
        .collect();
    let resp = srv
        .c
        .delete(format!("{}/messages", srv.s.base_url))
        .bearer_auth(&srv.s.api_key)
        .json(&json!({ "uuid": with_uuid[0] }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NO_CONTENT);
    assert!(resp.bytes().await.unwrap().is_empty());
    let (st, v) = srv
        .call(Method::DELETE, &format!("/messages/{}", with_uuid[1]), None)
        .await;
    assert_eq!(st, StatusCode::NO_CONTENT);
    assert!(v.is_null());
    let after = srv.walk_messages(&path).await;
    assert_eq!(after.len(), walked.len() - 2);
    assert!(after.iter().all(|m| !with_uuid.iter().any(|u| m["uuid"] == u.as_str())));
    let (st, _) = srv
        .call(Method::DELETE, &format!("/messages/{}", with_uuid[1]), None)
        .await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, v) = srv.call(Method::DELETE, "/messages", Some(json!({}))).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    srv.s.stop().await;
}

impl Srv {
    async fn walk_messages(&self, path: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let mut v = self.ok(path).await;
        loop {
            out.extend(v["messages"].as_array().unwrap().clone());
            match v["meta"]["next"].as_str() {
                Some(n) => v = self.ok(&format!("{path}?after={n}")).await,
                None => break,
            }
        }
        out
    }
}

#[tokio::test]
async fn send_status_advances_and_24_hour_rule() {
    let srv = spawn(ServerConfig {
        status_step_ms: 400,
        ..Default::default()
    })
    .await;
    // A contact that wrote within the last day.
    let mut recent = None;
    for c in srv.ok("/contacts").await["contacts"].as_array().unwrap() {
        let uuid = c["uuid"].as_str().unwrap();
        let msgs = srv.ok(&format!("/contacts/{uuid}/messages")).await;
        let wrote = msgs["messages"].as_array().unwrap().iter().any(|m| {
            m["status"] == "received"
                && chrono::Utc::now()
                    - chrono::DateTime::parse_from_rfc3339(m["createdAt"].as_str().unwrap())
                        .unwrap()
                        .to_utc()
                    < chrono::TimeDelta::hours(23)
        });
        if wrote {
            recent = Some(c.clone());
            break;
        }
    }
    let recent = recent.expect("a contact wrote recently");
    let phone = recent["phoneNumber"].as_str().unwrap();
    let (st, v) = srv
        .post(
            "/messages/send",
            json!({ "to": phone, "from": "messaging_app", "type": "text", "content": { "text": "Hi 👋" } }),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["message"]["status"], "enqueued");
    let id = v["message"]["uuid"].as_str().unwrap().to_string();
    let msgs = srv
        .ok(&format!("/contacts/{}/messages", recent["uuid"].as_str().unwrap()))
        .await;
    assert_eq!(msgs["messages"][0]["uuid"], id.as_str());
    assert_eq!(msgs["messages"][0]["status"], "sent");
    assert_eq!(msgs["messages"][0]["text"], "Hi 👋");

    let s = srv.ok(&format!("/messages/status/{id}")).await;
    assert_eq!(s["message"]["status"], "enqueued");
    let p = &s["message"]["messageStatusPayload"];
    assert_eq!(p["payload"]["type"], "session");
    assert!(p["payload"]["messagingAppMessageId"].is_string());
    assert_eq!(p["destination"], phone);
    assert_eq!(p["id"].as_str().unwrap().len(), 36);
    tokio::time::sleep(Duration::from_millis(450)).await;
    assert_eq!(
        srv.ok(&format!("/messages/status/{id}")).await["message"]["status"],
        "sent"
    );
    tokio::time::sleep(Duration::from_millis(900)).await;
    assert_eq!(
        srv.ok(&format!("/messages/status/{id}")).await["message"]["status"],
        "read"
    );
    let ev = srv.ok("/webhooks/events?subscriptions=message_status_updated").await;
    assert!(ev["webhook_events"].as_array().unwrap().len() >= 3, "{ev}");
    let (st, _) = srv.get("/messages/status/unknown").await;
    assert_eq!(st, StatusCode::NOT_FOUND);

    // A contact that never wrote: free text refused, nothing stored; a template passes.
    let (_, v) = srv.create(new_contact("+8100000001")).await;
    let quiet = v["contact"][0]["uuid"].as_str().unwrap().to_string();
    let (st, v) = srv
        .post(
            "/messages/send",
            json!({ "to": "+8100000001", "type": "text", "content": { "text": "hello" } }),
        )
        .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"]["content"].is_array());
    assert_eq!(
        srv.ok(&format!("/contacts/{quiet}/messages")).await["messages"],
        json!([])
    );
    let templates = srv.ok("/templates").await["templates"].as_array().unwrap().clone();
    let approved = templates
        .iter()
        .find(|t| t["status"] == "approved" && t["text"].as_str().unwrap().contains("{{1}}"))
        .unwrap();
    let rejected = templates.iter().find(|t| t["status"] == "rejected").unwrap();
    let (st, v) = srv
        .post(
            "/messages/send",
            json!({ "to": "+8100000001", "type": "text", "content": { "text": "" },
            "template_uuid": approved["uuid"], "optin_contact": true, "template_values": ["Ana", "42", "today"] }),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let sent = srv.ok(&format!("/contacts/{quiet}/messages")).await;
    assert!(sent["messages"][0]["text"].as_str().unwrap().contains("Ana"), "{sent}");
    let (st, _) = srv
        .post(
            "/messages/send",
            json!({ "to": "+8100000001", "template_uuid": rejected["uuid"] }),
        )
        .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    let (st, v) = srv
        .post("/messages/send", json!({ "to": "+0000", "content": { "text": "x" } }))
        .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"]["to"].is_array());
    srv.s.stop().await;
}

#[tokio::test]
async fn bot_start_and_end() {
    let srv = default_server().await;
    let uuid = srv.first_contact().await["uuid"].as_str().unwrap().to_string();
    let path = format!("/contacts/{uuid}/bot");
    let b = srv.ok(&path).await["bot"].clone();
    for k in ["uuid", "name", "status", "version", "latestBotVersion"] {
        assert!(!b[k].is_null(), "{k}: {b}");
    }
    let (st, v) = srv.post(&path, json!({ "status": "bot_end" })).await;
    assert_eq!((st, v["bot"]["status"].as_str()), (StatusCode::OK, Some("ended")));
    let (st, v) = srv.post(&path, json!({ "status": "bot_start" })).await;
    assert_eq!((st, v["bot"]["status"].as_str()), (StatusCode::OK, Some("started")));
    assert!(v["bot"]["conversationStartedAt"].is_string());
    assert_eq!(srv.ok(&path).await["bot"]["status"], "started");
    for body in [json!({}), json!({ "status": "go" }), json!({ "status": 1 })] {
        let (st, _) = srv.post(&path, body).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    }
    srv.s.stop().await;
}

#[tokio::test]
async fn templates_channels_funnels_teams_plan() {
    let srv = default_server().await;
    let t = srv.ok("/templates").await;
    assert_eq!(t["meta"], json!({ "page": 1, "pages": 1 }));
    let list = t["templates"].as_array().unwrap();
    assert!(list.iter().any(|t| t["status"] == "approved") && list.iter().any(|t| t["status"] == "rejected"));
    let id = list[0]["uuid"].as_str().unwrap();
    assert_eq!(srv.ok(&format!("/templates/{id}")).await["template"]["uuid"], id);
    let (st, v) = srv
        .patch(&format!("/templates/{id}"), json!({ "title": "renamed_ok" }))
        .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(v["templates"]["title"], "renamed_ok");
    assert_eq!(
        srv.ok(&format!("/templates/{id}")).await["template"]["title"],
        "renamed_ok"
    );
    assert_eq!(
        srv.patch(&format!("/templates/{id}"), json!({ "title": " " })).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(srv.get("/templates/nope").await.0, StatusCode::NOT_FOUND);

    let ch = srv.ok("/channels").await;
    let channels = ch["channels"].as_array().unwrap();
    assert_eq!(channels.iter().filter(|c| c["main"] == true).count(), 1);
    let wa = srv.ok("/channels?type=whatsapp").await["channels"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!wa.is_empty() && wa.iter().all(|c| c["type"] == "whatsapp"));
    let cid = channels[0]["uuid"].as_str().unwrap();
    let (st, v) = srv
        .patch(&format!("/channels/{cid}"), json!({ "title": "Front line 📞" }))
        .await;
    assert_eq!(
        (st, v["channel"]["title"].as_str()),
        (StatusCode::OK, Some("Front line 📞"))
    );
    assert_eq!(srv.ok("/channels").await["channels"][0]["title"], "Front line 📞");
    assert_eq!(
        srv.patch("/channels/nope", json!({ "title": "x" })).await.0,
        StatusCode::NOT_FOUND
    );

    let legacy = |s: &str| chrono::DateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S %z").is_ok();
    let funnels = srv.ok("/funnels").await["funnels"].as_array().unwrap().clone();
    assert!(funnels.len() >= 2);
    assert!(
        funnels
            .iter()
            .all(|f| legacy(f["createdAt"].as_str().unwrap()) && f["position"].is_i64())
    );
    assert_eq!(funnels[0]["uuid"].as_str().unwrap().len(), 36);

    let teams = srv.ok("/teams").await;
    assert_eq!(teams["meta"]["page"], 1);
    let team = &teams["teams"][0];
    let tid = team["uuid"].as_str().unwrap();
    let one = srv.ok(&format!("/teams/{tid}")).await["team"].clone();
    assert_eq!(&one, team);
    let members = srv.ok(&format!("/teams/{tid}/members")).await;
    let users = members["users"].as_array().unwrap();
    assert_eq!(users.len() as i64, team["members"].as_i64().unwrap());
    let away = srv.ok(&format!("/teams/{tid}/members?status=away")).await["users"]
        .as_array()
        .unwrap()
        .clone();
    assert!(away.iter().all(|u| u["available"] == false));
    let avail = srv.ok(&format!("/teams/{tid}/members?status=available")).await["users"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(avail.len() + away.len(), users.len());
    assert_eq!(
        srv.get(&format!("/teams/{tid}/members?status=busy")).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(srv.get("/teams/nope").await.0, StatusCode::NOT_FOUND);

    let plan = srv.ok("/plan").await;
    assert!(plan["plan"].is_string() && plan["licenses"].is_i64() && plan["includedChannels"].is_i64());
    assert_eq!(plan["activeUsers"], srv.s.manifest.users.len());
    assert_eq!(plan["teams"], teams["teams"]);
    srv.s.stop().await;
}

#[tokio::test]
async fn custom_statuses_and_user_status() {
    let srv = default_server().await;
    let legacy = |s: &Value| chrono::DateTime::parse_from_str(s.as_str().unwrap(), "%Y-%m-%d %H:%M:%S %z").is_ok();
    let list = srv.ok("/custom_statuses").await;
    assert_eq!(
        list["customStatuses"].as_array().unwrap().len(),
        srv.s.manifest.custom_statuses.len()
    );
    let (st, v) = srv
        .post("/custom_statuses", json!({ "name": "Gone fishing", "emoji": "🎣" }))
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let cs = v["customStatus"].clone();
    assert!(legacy(&cs["createdAt"]) && legacy(&cs["updatedAt"]));
    let id = cs["id"].as_str().unwrap().to_string();
    assert_eq!(srv.ok(&format!("/custom_statuses/{id}")).await["customStatus"], cs);
    let (st, v) = srv
        .put(&format!("/custom_statuses/{id}"), json!({ "name": "Gone sailing" }))
        .await;
    assert_eq!(
        (
            st,
            v["customStatus"]["name"].as_str(),
            v["customStatus"]["emoji"].as_str()
        ),
        (StatusCode::OK, Some("Gone sailing"), Some("🎣"))
    );
    assert_eq!(
        srv.post("/custom_statuses", json!({ "emoji": "x" })).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    let user = srv.s.manifest.users[0].uuid.clone();
    let path = format!("/users/{user}/status");
    let (st, v) = srv
        .put(&path, json!({ "available": false, "custom_status_uuid": id }))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let us = &v["user_status"];
    assert_eq!(us["appearance"]["available"], false);
    assert_eq!(us["custom_status"]["id"], id.as_str());
    assert_eq!(us["custom_status"]["name"], "Gone sailing");
    let ts = us["appearance"]["last_updated_at"].as_str().unwrap();
    assert!(
        chrono::DateTime::parse_from_rfc3339(ts).is_ok() && ts.contains('.') && ts.ends_with("+00:00"),
        "{ts}"
    );
    // Absent fields are left alone.
    let (_, v) = srv.put(&path, json!({ "available": true })).await;
    assert_eq!(v["user_status"]["custom_status"]["id"], id.as_str());
    assert_eq!(v["user_status"]["appearance"]["available"], true);
    let (_, v) = srv.put(&path, json!({})).await;
    assert_eq!(v["user_status"]["custom_status"]["id"], id.as_str());
    // Null unassigns.
    let (_, v) = srv.put(&path, json!({ "custom_status_uuid": null })).await;
    assert!(v["user_status"]["custom_status"]["id"].is_null(), "{v}");
    assert_eq!(v["user_status"]["appearance"]["available"], true);
    let (st, v) = srv
        .put(&path, json!({ "custom_status_uuid": "nope", "available": false }))
        .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let (_, v) = srv.put(&path, json!({})).await;
    assert_eq!(
        v["user_status"]["appearance"]["available"], true,
        "a failed write changes nothing"
    );
    assert_eq!(
        srv.put("/users/nobody/status", json!({ "available": true })).await.0,
        StatusCode::NOT_FOUND
    );

    let (st, v) = srv.call(Method::DELETE, &format!("/custom_statuses/{id}"), None).await;
    assert_eq!(
        (st, v),
        (StatusCode::OK, json!({ "status": "custom status was destroyed" }))
    );
    assert_eq!(
        srv.get(&format!("/custom_statuses/{id}")).await.0,
        StatusCode::NOT_FOUND
    );
    srv.s.stop().await;
}

#[tokio::test]
async fn webhook_event_log_filters() {
    let srv = default_server().await;
    let all = srv.ok("/webhooks/events?items=100").await;
    let events = all["webhook_events"].as_array().unwrap();
    assert!(events.iter().any(|e| e["success"] == true) && events.iter().any(|e| e["success"] == false));
    for e in events {
        assert!(
            e["response"]["code"].is_i64() && e["response"]["headers"].is_object() && e["response"]["body"].is_object()
        );
        assert!(["message_object", "contact_object"].contains(&e["payload"].as_str().unwrap()));
    }
    let failed = srv.ok("/webhooks/events?status=failed&items=100").await["webhook_events"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        !failed.is_empty()
            && failed
                .iter()
                .all(|e| e["success"] == false && e["response"]["code"].as_i64() >= Some(400))
    );
    let ok = srv.ok("/webhooks/events?status=success&items=100").await["webhook_events"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(ok.len() + failed.len(), events.len());
    let subs = srv
        .ok("/webhooks/events?subscriptions=contact_created,message_created&items=100")
        .await;
    assert!(
        subs["webhook_events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| ["contact_created", "message_created"].contains(&e["event"].as_str().unwrap()))
    );
    let p = srv.ok("/webhooks/events?items=7&page=2").await;
    assert_eq!(p["webhook_events"].as_array().unwrap().len(), 7);
    assert_eq!(p["meta"]["page"], 2);
    assert_eq!(p["meta"]["pages"], (events.len() as u64).div_ceil(7));
    assert_eq!(p["webhook_events"][0], events[7]);
    assert_eq!(
        srv.get("/webhooks/events?status=maybe").await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        srv.get("/webhooks/events?items=0").await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // Things that happen are logged, newest first.
    srv.create(new_contact("+1555000999")).await;
    assert_eq!(
        srv.ok("/webhooks/events").await["webhook_events"][0]["event"],
        "contact_created"
    );
    srv.s.stop().await;
}

#[tokio::test]
async fn real_webhook_delivery_to_a_loopback_receiver() {
    use std::sync::{Arc, Mutex};
    let got: Arc<Mutex<Vec<Value>>> = Arc::default();
    let sink = got.clone();
    let receiver = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |axum::Json(body): axum::Json<Value>| {
            let sink = sink.clone();
            async move {
                let fail = body["event"] == "conversation_closed";
                sink.lock().unwrap().push(body);
                let code = if fail {
                    axum::http::StatusCode::SERVICE_UNAVAILABLE
                } else {
                    axum::http::StatusCode::ACCEPTED
                };
                (code, [("x-receiver", "test")], axum::Json(json!({ "received": !fail })))
            }
        }),
    );
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hook = format!("http://{}/hook", l.local_addr().unwrap());
    let recv_task = tokio::spawn(async move { axum::serve(l, receiver).await.unwrap() });

    let srv = spawn(ServerConfig {
        webhook_url: Some(hook),
        contacts: 30,
        ..Default::default()
    })
    .await;
    let (_, v) = srv.create(new_contact("+4900000042")).await;
    let uuid = v["contact"][0]["uuid"].as_str().unwrap().to_string();
    srv.post(&format!("/contacts/{uuid}/conversation/close"), json!(null))
        .await;
    let deadline = Instant::now() + Duration::from_secs(5);
    let events = loop {
        let e = srv
            .ok("/webhooks/events?subscriptions=contact_created,conversation_closed")
            .await;
        if e["webhook_events"].as_array().unwrap().len() >= 2 || Instant::now() > deadline {
            break e["webhook_events"].as_array().unwrap().clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let received = got.lock().unwrap().clone();
    assert_eq!(received.len(), 2, "{received:?}");
    assert_eq!(received[0]["event"], "contact_created");
    assert_eq!(received[0]["data"]["uuid"], uuid.as_str());
    let created = events.iter().find(|e| e["event"] == "contact_created").unwrap();
    assert_eq!(created["success"], true);
    assert_eq!(created["response"]["code"], 202);
    assert_eq!(created["response"]["body"], json!({ "received": true }));
    assert_eq!(created["response"]["headers"]["x-receiver"], "test");
    let closed = events.iter().find(|e| e["event"] == "conversation_closed").unwrap();
    assert_eq!(
        (closed["success"].as_bool(), closed["response"]["code"].as_i64()),
        (Some(false), Some(503))
    );
    srv.s.stop().await;
    recv_task.abort();

    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let cfg = ServerConfig {
        webhook_url: Some("https://example.com/hook".into()),
        ..Default::default()
    };
    assert!(start(l, cfg).await.is_err(), "a non-loopback webhook URL is refused");
}

#[tokio::test]
async fn a_database_file_keeps_every_change_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.sqlite");
    let cfg = ServerConfig {
        db: Some(db.clone()),
        contacts: 50,
        ..Default::default()
    };
    let srv = spawn(cfg.clone()).await;
    let key = srv.s.api_key.clone();
    let first = srv.first_contact().await;
    let uuid = first["uuid"].as_str().unwrap().to_string();
    srv.patch(
        &format!("/contacts/{uuid}"),
        json!({ "name": "Renamed ✨", "note": "persist me" }),
    )
    .await;
    srv.post(&format!("/contacts/{uuid}/conversation/close"), json!(null))
        .await;
    let (_, v) = srv.create(new_contact("+3900000001")).await;
    let created = v["contact"][0].clone();
    let manifest = srv.s.manifest.clone();
    let before = srv.walk("").await;
    srv.s.stop().await;

    // A different seed must not matter: the file is not seeded again.
    let srv = spawn(ServerConfig { seed: 999, ..cfg }).await;
    assert_eq!(srv.s.api_key, key, "the generated key is kept");
    assert_eq!(srv.s.manifest.users, manifest.users);
    assert_eq!(srv.s.manifest.contacts, 51);
    let c = srv.contact(&uuid).await;
    assert_eq!(
        (c["name"].as_str(), c["note"].as_str()),
        (Some("Renamed ✨"), Some("persist me"))
    );
    assert!(c["closedAt"].is_string());
    assert_eq!(srv.contact(created["uuid"].as_str().unwrap()).await, created);
    assert_eq!(srv.walk("").await, before);
    srv.s.stop().await;
}

#[tokio::test]
async fn fault_knobs() {
    let srv = spawn(ServerConfig {
        fail_rate: 1.0,
        contacts: 5,
        ..Default::default()
    })
    .await;
    let (st, v) = srv.get("/contacts").await;
    assert_eq!(
        (st, v),
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({ "error": "simulated failure" })
        )
    );
    srv.s.stop().await;

    let srv = spawn(ServerConfig {
        rate_limit: Some(3),
        contacts: 5,
        ..Default::default()
    })
    .await;
    let mut limited = None;
    for _ in 0..10 {
        let resp = srv
            .c
            .get(format!("{}/plan", srv.s.base_url))
            .bearer_auth(&srv.s.api_key)
            .send()
            .await
            .unwrap();
        if resp.status() == StatusCode::TOO_MANY_REQUESTS {
            limited = Some(resp);
            break;
        }
    }
    let resp = limited.expect("more than 3 requests in a second are limited");
    let retry: u64 = resp.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry));
    assert!(resp.json::<Value>().await.unwrap()["error"].is_string());
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(srv.get("/plan").await.0, StatusCode::OK, "the window passes");
    srv.s.stop().await;

    let srv = spawn(ServerConfig {
        latency_ms: 250,
        contacts: 5,
        ..Default::default()
    })
    .await;
    let t = Instant::now();
    assert_eq!(srv.get("/plan").await.0, StatusCode::OK);
    assert!(t.elapsed() >= Duration::from_millis(250));
    srv.s.stop().await;

    let srv = spawn(ServerConfig {
        fail_rate: 0.5,
        contacts: 5,
        ..Default::default()
    })
    .await;
    let mut codes = HashSet::new();
    for _ in 0..60 {
        codes.insert(srv.get("/plan").await.0.as_u16());
    }
    assert_eq!(codes, HashSet::from([200, 500]));
    srv.s.stop().await;
}

#[tokio::test]
async fn the_same_seed_gives_the_same_account() {
    let names = |v: &Value| -> Vec<(String, String, String)> {
        v["contacts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["uuid"].as_str().unwrap().into(),
                    c["name"].as_str().unwrap().into(),
                    c["phoneNumber"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    let strip = |mut m: frontdesk::server::Manifest| {
        m.base_url.clear();
        m.api_key.clear();
        m
    };
    let a = spawn(ServerConfig {
        seed: 7,
        ..Default::default()
    })
    .await;
    let b = spawn(ServerConfig {
        seed: 7,
        ..Default::default()
    })
    .await;
    let c = spawn(ServerConfig {
        seed: 8,
        ..Default::default()
    })
    .await;
    assert_ne!(a.s.api_key, b.s.api_key, "generated keys differ");
    assert_eq!(strip(a.s.manifest.clone()), strip(b.s.manifest.clone()));
    assert_ne!(strip(a.s.manifest.clone()).users, strip(c.s.manifest.clone()).users);
    let (pa, pb, pc) = (
        a.ok("/contacts").await,
        b.ok("/contacts").await,
        c.ok("/contacts").await,
    );
    assert_eq!(names(&pa), names(&pb));
    assert_ne!(names(&pa), names(&pc));
    let uuid = pa["contacts"][0]["uuid"].as_str().unwrap();
    let ma = a.ok(&format!("/contacts/{uuid}/messages")).await;
    let mb = b.ok(&format!("/contacts/{uuid}/messages")).await;
    assert_eq!(ma, mb);
    let m = a.s.manifest.clone();
    assert_eq!(m.contacts, 300);
    assert_eq!(m.channels.iter().filter(|c| c.main).count(), 1);
    let kinds: HashSet<&str> = m.custom_fields.values().map(|f| f.field_type.as_str()).collect();
    assert_eq!(
        kinds,
        HashSet::from(["text", "email", "number", "date", "dropdown", "checkbox"])
    );
    assert!(m.bot_enabled && m.users.len() >= 3 && m.teams.len() >= 2 && m.sources.len() >= 4 && !m.tags.is_empty());
    for s in [a, b, c] {
        s.s.stop().await;
    }
}

#[tokio::test]
async fn demo_text_is_hostile_to_terminals() {
    let srv = default_server().await;
    let mut texts = String::new();
    let mut longest = 0;
    for c in srv.walk("").await.iter().take(60) {
        texts.push_str(c["name"].as_str().unwrap());
        let m = srv
            .ok(&format!("/contacts/{}/messages", c["uuid"].as_str().unwrap()))
            .await;
        for msg in m["messages"].as_array().unwrap() {
            let t = msg["text"].as_str().unwrap();
            longest = longest.max(t.chars().count());
            texts.push_str(t);
            texts.push('\n');
        }
    }
    assert!(texts.contains('\u{1b}'), "escape sequences");
    assert!(
        texts.chars().any(|c| ('\u{0590}'..='\u{06FF}').contains(&c)),
        "right-to-left"
    );
    assert!(texts.chars().any(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c)), "CJK");
    assert!(
        texts.chars().any(|c| ('\u{0300}'..='\u{036F}').contains(&c)),
        "combining marks"
    );
    assert!(texts.chars().any(|c| c as u32 >= 0x1F300), "emoji");
    assert!(longest > 2000, "a very long message ({longest})");
    srv.s.stop().await;
}

#[tokio::test]
async fn live_activity_moves_conversations() {
    let srv = spawn(ServerConfig {
        activity: true,
        activity_interval_ms: 100,
        contacts: 40,
        ..Default::default()
    })
    .await;
    let before = srv.ok("/webhooks/events?subscriptions=message_created").await["webhook_events"]
        .as_array()
        .unwrap()
        .len();
    tokio::time::sleep(Duration::from_millis(700)).await;
    let events = srv.ok("/webhooks/events?subscriptions=message_created&items=100").await;
    assert!(
        events["webhook_events"].as_array().unwrap().len() > before,
        "customers wrote"
    );
    let top = srv.first_contact().await;
    let msgs = srv
        .ok(&format!("/contacts/{}/messages", top["uuid"].as_str().unwrap()))
        .await;
    let newest = &msgs["messages"][0];
    assert_eq!(newest["createdAt"], top["lastMessageAt"]);
    let at = chrono::DateTime::parse_from_rfc3339(newest["createdAt"].as_str().unwrap()).unwrap();
    assert!(chrono::Utc::now() - at.to_utc() < chrono::TimeDelta::seconds(5));
    srv.s.stop().await;
}

#[test]
fn frontdesk_serve_prints_the_ready_lines_and_writes_the_manifest() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("manifest.json");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_frontdesk"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--contacts",
            "25",
            "--no-activity",
            "--api-key",
            "k-123",
            "--manifest",
        ])
        .arg(&manifest)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (mut l1, mut l2) = (String::new(), String::new());
    out.read_line(&mut l1).unwrap();
    out.read_line(&mut l2).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let url = l1.trim().strip_prefix("frontdesk serve: listening on ").expect(&l1);
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with("/v1"), "{url}");
    assert_eq!(l2.trim(), "frontdesk serve: api key k-123");
    let m: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    let mut keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "api_key",
            "base_url",
            "bot_enabled",
            "channels",
            "collaborators",
            "contacts",
            "custom_fields",
            "custom_statuses",
            "sources",
            "tags",
            "teams",
            "users"
        ]
    );
    assert_eq!(
        (m["base_url"].as_str(), m["api_key"].as_str(), m["contacts"].as_u64()),
        (Some(url), Some("k-123"), Some(25))
    );
    assert!(m["channels"][0]["type"].is_string() && m["custom_fields"]["Plan"]["type"] == "dropdown");
}
