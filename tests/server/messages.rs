//! Messages, send and delivery status, the 24-hour rule, the bot.

use super::*;

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

    // Delete sent messages, body form then path form: 204 and no body, then gone.
    let with_uuid: Vec<String> = walked
        .iter()
        .filter(|m| m["status"] == "sent")
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

#[tokio::test]
async fn send_status_advances_and_24_hour_rule() {
    // A manual clock: the status moves exactly when the test moves time.
    let clock = Clock::manual();
    let srv = spawn(ServerConfig {
        status_step_ms: 400,
        clock: clock.clone(),
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
            json!({ "to": phone, "from": recent["channel"]["type"], "type": "text",
                    "channel_uuid": recent["channel"]["uuid"], "content": { "text": "Hi 👋" } }),
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
    assert!(p["payload"]["whatsappMessageId"].is_string());
    assert_eq!(p["destination"], phone);
    assert_eq!(p["id"].as_str().unwrap().len(), 36);
    clock.advance(Duration::from_millis(399));
    assert_eq!(
        srv.ok(&format!("/messages/status/{id}")).await["message"]["status"],
        "enqueued",
        "one millisecond before the first step"
    );
    clock.advance(Duration::from_millis(1));
    assert_eq!(
        srv.ok(&format!("/messages/status/{id}")).await["message"]["status"],
        "sent"
    );
    clock.advance(Duration::from_millis(400));
    assert_eq!(
        srv.ok(&format!("/messages/status/{id}")).await["message"]["status"],
        "delivered"
    );
    clock.advance(Duration::from_secs(3600));
    assert_eq!(
        srv.ok(&format!("/messages/status/{id}")).await["message"]["status"],
        "read"
    );
    let ev = srv.ok("/webhooks/events?subscriptions=message_status_updated").await;
    assert!(ev["webhook_events"].as_array().unwrap().len() >= 3, "{ev}");
    let (st, _) = srv.get("/messages/status/unknown").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    // Delete by the external id of a message sent through the interface.
    let wamid = s["message"]["messageStatusPayload"]["payload"]["whatsappMessageId"]
        .as_str()
        .unwrap()
        .to_string();
    let (st, _) = srv.call(Method::DELETE, &format!("/messages/{wamid}"), None).await;
    assert_eq!(st, StatusCode::NO_CONTENT, "delete by external id");
    let msgs = srv
        .ok(&format!("/contacts/{}/messages", recent["uuid"].as_str().unwrap()))
        .await;
    assert_ne!(msgs["messages"][0]["uuid"], id.as_str());

    // A contact that never wrote: free text refused, nothing stored; a template passes.
    let (_, v) = srv.create(new_contact("+8100000001")).await;
    let quiet = v["contact"][0]["uuid"].as_str().unwrap().to_string();
    let main = v["contact"][0]["channel"]["uuid"].clone();
    let (st, v) = srv
        .post(
            "/messages/send",
            json!({ "to": "+8100000001", "type": "text", "from": "messaging_app", "channel_uuid": main,
                    "content": { "text": "hello" } }),
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
            json!({ "to": "+8100000001", "type": "text", "content": { "text": "" }, "from": "messaging_app", "channel_uuid": main,
            "template_uuid": approved["uuid"], "optin_contact": true, "template_values": ["Ana", "42", "today"] }),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let sent = srv.ok(&format!("/contacts/{quiet}/messages")).await;
    assert!(sent["messages"][0]["text"].as_str().unwrap().contains("Ana"), "{sent}");
    let (st, _) = srv
        .post(
            "/messages/send",
            json!({ "to": "+8100000001", "template_uuid": rejected["uuid"], "optin_contact": true,
                    "type": "text", "from": "messaging_app", "channel_uuid": main, "content": { "text": "x" } }),
        )
        .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    let (st, v) = srv
        .post(
            "/messages/send",
            json!({ "to": "+0000", "type": "text", "from": "messaging_app", "channel_uuid": main,
                    "content": { "text": "x" } }),
        )
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
async fn only_messages_the_account_sent_can_be_deleted() {
    let srv = default_server().await;
    let mut received = None;
    for c in srv.ok("/contacts").await["contacts"].as_array().unwrap() {
        let path = format!("/contacts/{}/messages", c["uuid"].as_str().unwrap());
        let thread = srv.ok(&path).await;
        if let Some(m) = thread["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["status"] == "received")
        {
            received = Some((path, m["uuid"].as_str().unwrap().to_string()));
            break;
        }
    }
    let (path, uuid) = received.expect("a received message");
    for (st, v) in [
        srv.call(Method::DELETE, &format!("/messages/{uuid}"), None).await,
        srv.call(Method::DELETE, "/messages", Some(json!({ "uuid": uuid })))
            .await,
    ] {
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        let msg = v["error"]["uuid"][0].as_str().unwrap_or_else(|| panic!("{v}"));
        assert!(msg.contains("received"), "{msg}");
    }
    let still = srv.walk_messages(&path).await;
    assert!(
        still.iter().any(|m| m["uuid"] == uuid.as_str()),
        "the received message was deleted"
    );
    srv.s.stop().await;
}

#[tokio::test]
async fn send_refuses_other_types_and_overlong_text() {
    let srv = default_server().await;
    let first = srv.first_contact().await;
    let phone = first["phoneNumber"].as_str().unwrap().to_string();
    let channel = first["channel"]["uuid"].clone();
    let send = |body: Value| srv.post("/messages/send", body);
    let (st, v) = send(json!({ "to": phone, "from": "messaging_app", "type": "sticker",
                               "channel_uuid": channel, "content": { "text": "hi" } }))
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"]["type"].is_array(), "{v}");
    let long = "é".repeat(4097);
    let (st, v) = send(json!({ "to": phone, "from": "messaging_app", "type": "text",
                               "channel_uuid": channel, "content": { "text": long } }))
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let msg = v["error"]["content.text"][0].as_str().unwrap_or_else(|| panic!("{v}"));
    assert!(msg.contains("4096"), "{msg}");
    srv.s.stop().await;
}

#[tokio::test]
async fn the_24_hour_rule_follows_the_server_clock() {
    let clock = Clock::manual();
    let srv = spawn(ServerConfig {
        clock: clock.clone(),
        ..Default::default()
    })
    .await;
    // A contact that wrote within the last 23 hours of the server's clock.
    let recent = |m: &Value| {
        let at = chrono::DateTime::parse_from_rfc3339(m["createdAt"].as_str().unwrap()).unwrap();
        m["status"] == "received" && clock.now_ms() - at.timestamp_millis() < 23 * 3_600_000
    };
    let mut warm = None;
    for c in srv.ok("/contacts").await["contacts"].as_array().unwrap() {
        let msgs = srv
            .ok(&format!("/contacts/{}/messages", c["uuid"].as_str().unwrap()))
            .await;
        if msgs["messages"].as_array().unwrap().iter().any(recent) && c["phoneNumber"].is_string() {
            warm = Some(c.clone());
            break;
        }
    }
    let warm = warm.expect("a contact that wrote");
    let body = json!({ "to": warm["phoneNumber"], "from": warm["channel"]["type"], "type": "text",
                       "channel_uuid": warm["channel"]["uuid"], "content": { "text": "hello" } });
    let (st, v) = srv.post("/messages/send", body.clone()).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    // A day and a bit later by the server's clock the window is closed.
    clock.advance(Duration::from_secs(25 * 3600));
    let (st, v) = srv.post("/messages/send", body).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"]["content"][0].as_str().unwrap().contains("24-hour"), "{v}");
    srv.s.stop().await;
}
