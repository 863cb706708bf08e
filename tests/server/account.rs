//! Templates, channels, funnels, teams, plan, custom statuses, user status, webhooks.

use super::*;

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
    // Six users are seeded; one never confirmed, one is deactivated.
    assert_eq!(srv.s.manifest.users.len(), 6);
    assert_eq!(plan["activeUsers"], 4, "active, confirmed users only");
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
        // One attempt: the failing receiver's answer is logged once.
        webhook_attempts: 1,
        ..Default::default()
    })
    .await;
    // The seed already logged events of both kinds: wait for two more.
    let path = "/webhooks/events?subscriptions=contact_created,conversation_closed&items=100";
    let seeded = srv.ok(path).await["webhook_events"].as_array().unwrap().len();
    let (_, v) = srv.create(new_contact("+4900000042")).await;
    let uuid = v["contact"][0]["uuid"].as_str().unwrap().to_string();
    srv.post(&format!("/contacts/{uuid}/conversation/close"), json!(null))
        .await;
    let deadline = Instant::now() + Duration::from_secs(5);
    let events = loop {
        let e = srv.ok(path).await;
        if e["webhook_events"].as_array().unwrap().len() >= seeded + 2 || Instant::now() > deadline {
            break e["webhook_events"].as_array().unwrap().clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let received = got.lock().unwrap().clone();
    assert_eq!(received.len(), 2, "{received:?}");
    assert_eq!(received[0]["event"], "contact_created");
    assert_eq!(received[0]["payload"]["uuid"], uuid.as_str());
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
async fn titles_are_limited_to_255_characters() {
    let srv = default_server().await;
    let template = srv.ok("/templates").await["templates"][0]["uuid"]
        .as_str()
        .unwrap()
        .to_string();
    let channel = srv.ok("/channels").await["channels"][0]["uuid"]
        .as_str()
        .unwrap()
        .to_string();
    for path in [format!("/templates/{template}"), format!("/channels/{channel}")] {
        for too_long in ["x".repeat(256), "✨".repeat(1_000_000 / 3)] {
            let (st, v) = srv.patch(&path, json!({ "title": too_long })).await;
            assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{path}");
            let msg = v["error"]["title"][0].as_str().unwrap_or_else(|| panic!("{v}"));
            assert!(msg.contains("255"), "{msg}");
        }
        let (st, v) = srv.patch(&path, json!({ "title": "ü".repeat(255) })).await;
        assert_eq!(st, StatusCode::OK, "{path}: {v}");
    }
    let (st, v) = srv
        .create(json!({ "identifier": "+4900000077", "source": "messaging_app", "name": "n".repeat(256) }))
        .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"]["name"].is_array(), "{v}");
    srv.s.stop().await;
}
