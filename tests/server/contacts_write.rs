//! Contact writes: create, update, validation, close and open.

use super::*;

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
        let (st, _) = srv.get("/contacts/phone/+100").await;
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
    // Only PATCH: the documented GET takes the uuid (a number has
    // /contacts/phone/:number), so no client may read a contact by number there.
    let (st, _) = srv.get("/contacts/+4400001").await;
    assert_eq!(st, StatusCode::NOT_FOUND, "GET /contacts/:uuid with a phone number");
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

/// Hostile input never panics the server and always answers a JSON error.
#[tokio::test]
async fn hostile_input_gets_json_errors() {
    let srv = spawn(ServerConfig {
        contacts: 10,
        ..Default::default()
    })
    .await;
    let uuid = srv.first_contact().await["uuid"].as_str().unwrap().to_string();
    let user = srv.s.manifest.users[0].uuid.clone();
    let writes = [
        (Method::POST, "/contacts".to_string()),
        (Method::PATCH, format!("/contacts/{uuid}")),
        (Method::POST, format!("/contacts/{uuid}/bot")),
        (Method::POST, "/messages/send".to_string()),
        (Method::DELETE, "/messages".to_string()),
        (Method::PUT, format!("/users/{user}/status")),
        (Method::POST, "/custom_statuses".to_string()),
    ];
    let bodies = [
        "{",
        "null",
        "[]",
        "42",
        "\"x\"",
        "{\"name\": 5}",
        "{\"tags\": [1, null, {}]}",
        "{\"custom_fields\": [\"a\"]}",
        "{\"custom_fields\": {\"Interests\": [[1]]}}",
        "{\"available\": \"yes\", \"custom_status_uuid\": 7}",
        "{\"to\": [], \"content\": 3}",
        "{\"uuid\": {}}",
        "{\"status\": null}",
        "\u{0}\u{1b}[2J",
    ];
    for (m, path) in &writes {
        for body in bodies {
            let resp = srv
                .c
                .request(m.clone(), format!("{}{path}", srv.s.base_url))
                .bearer_auth(&srv.s.api_key)
                .body(body)
                .send()
                .await
                .unwrap();
            let st = resp.status();
            let v: Value = resp
                .json()
                .await
                .unwrap_or_else(|e| panic!("{m} {path} {body:?}: not JSON: {e}"));
            // Unknown keys are ignored, so some bodies are fine; none may break the server.
            assert!(!st.is_server_error(), "{m} {path} {body:?}: {st} {v}");
            if !st.is_success() {
                assert!(!v["error"].is_null(), "{m} {path} {body:?}: {v}");
            }
            // Anything but a JSON object is a 400.
            if !body.starts_with('{') || body == "{" {
                assert_eq!(st, StatusCode::BAD_REQUEST, "{m} {path} {body:?}: {v}");
            }
        }
    }
    // axum's own rejections come back as JSON too.
    for path in ["/contacts/%FF%FE", "/contacts/%C0"] {
        let (st, v) = srv.get(path).await;
        assert!(st.is_client_error(), "{path}: {st}");
        assert!(v["error"].is_string(), "{path}: {v}");
    }
    let (st, v) = srv.call(Method::PUT, "/contacts", None).await;
    assert_eq!(st, StatusCode::METHOD_NOT_ALLOWED);
    assert!(v["error"].is_string());
    // The server is still fine.
    assert_eq!(srv.contact(&uuid).await["uuid"], uuid.as_str());
    srv.s.stop().await;
}

#[tokio::test]
async fn closing_twice_keeps_the_first_closed_at() {
    let clock = Clock::manual();
    let srv = spawn(ServerConfig {
        clock: clock.clone(),
        ..Default::default()
    })
    .await;
    let open = srv.ok("/contacts").await["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["closedAt"].is_null())
        .expect("an open contact")["uuid"]
        .as_str()
        .unwrap()
        .to_string();
    let log = "/webhooks/events?subscriptions=conversation_closed,conversation_opened&items=100";
    let seeded = srv.ok(log).await["webhook_events"].as_array().unwrap().len();
    let close = format!("/contacts/{open}/conversation/close");
    let first = srv.post(&close, json!(null)).await.1["contact"]["closedAt"].clone();
    assert!(first.is_string());
    clock.advance(Duration::from_secs(90));
    let (st, v) = srv.post(&close, json!(null)).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(v["contact"]["closedAt"], first, "a second close moved closedAt");
    assert_eq!(srv.contact(&open).await["closedAt"], first);
    // Opening twice: open, and one event for each real change only.
    let reopen = format!("/contacts/{open}/conversation/open");
    srv.post(&reopen, json!(null)).await;
    let (st, v) = srv.post(&reopen, json!(null)).await;
    assert_eq!(st, StatusCode::OK);
    assert!(v["contact"][0]["closedAt"].is_null());
    let events = srv.ok(log).await;
    assert_eq!(
        events["webhook_events"].as_array().unwrap().len(),
        seeded + 2,
        "one event per real change: {events}"
    );
    srv.s.stop().await;
}
