//! POST /messages/send as the documentation describes it.

use super::*;

/// A contact on the main channel that wrote within the last day.
async fn warm_contact(srv: &Srv) -> Value {
    for c in srv.walk("").await {
        if c["phoneNumber"].is_null() {
            continue;
        }
        let msgs = srv
            .ok(&format!("/contacts/{}/messages", c["uuid"].as_str().unwrap()))
            .await;
        let wrote = msgs["messages"].as_array().unwrap().iter().any(|m| {
            m["status"] == "received"
                && chrono::Utc::now()
                    - chrono::DateTime::parse_from_rfc3339(m["createdAt"].as_str().unwrap())
                        .unwrap()
                        .to_utc()
                    < chrono::TimeDelta::hours(23)
        });
        if wrote {
            return c;
        }
    }
    panic!("no contact wrote within a day");
}

fn body(c: &Value) -> Value {
    json!({ "to": c["phoneNumber"], "from": c["channel"]["type"], "type": "text",
            "channel_uuid": c["channel"]["uuid"], "content": { "text": "Hello 👋" } })
}

#[tokio::test]
async fn each_missing_required_field_is_named() {
    let srv = default_server().await;
    let c = warm_contact(&srv).await;
    let (st, v) = srv.post("/messages/send", body(&c)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    for field in ["from", "type", "content", "channel_uuid"] {
        let mut b = body(&c);
        b.as_object_mut().unwrap().remove(field);
        let (st, v) = srv.post("/messages/send", b).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{field}: {v}");
        assert!(v["error"][field].is_array(), "{field} not named: {v}");
    }
    // Neither `to` nor `bsuid`.
    let mut b = body(&c);
    b.as_object_mut().unwrap().remove("to");
    let (st, v) = srv.post("/messages/send", b).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"]["to"][0].as_str().unwrap().contains("bsuid"), "{v}");
    // Invalid values.
    for (field, value, key) in [
        ("type", json!("sticker"), "type"),
        ("channel_uuid", json!("nope"), "channel_uuid"),
        ("content", json!("hello"), "content"),
        ("metadata", json!({ "k": 5 }), "metadata"),
    ] {
        let mut b = body(&c);
        b[field] = value;
        let (st, v) = srv.post("/messages/send", b).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{field}: {v}");
        assert!(v["error"][key].is_array(), "{key} not named: {v}");
    }
    // Another channel than the contact's.
    let other = srv
        .s
        .manifest
        .channels
        .iter()
        .find(|ch| ch.uuid != c["channel"]["uuid"])
        .unwrap();
    let mut b = body(&c);
    b["channel_uuid"] = json!(other.uuid);
    let (st, v) = srv.post("/messages/send", b).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"]["channel_uuid"].is_array(), "{v}");
    srv.s.stop().await;
}

#[tokio::test]
async fn media_by_url_and_recipients_by_bsuid() {
    let srv = default_server().await;
    let c = warm_contact(&srv).await;
    let mut b = body(&c);
    b["type"] = json!("image");
    b["content"] = json!({ "url": "https://files.example.com/a.png", "text": "A caption" });
    let (st, v) = srv.post("/messages/send", b.clone()).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let msgs = srv
        .ok(&format!("/contacts/{}/messages", c["uuid"].as_str().unwrap()))
        .await;
    let m = &msgs["messages"][0];
    assert_eq!(m["text"], "A caption");
    assert_eq!(m["uuid"], v["message"]["uuid"]);
    // The REST listing stays as documented: no attachments.
    assert_eq!(
        keys_of(m),
        HashSet::from(["uuid", "text", "createdAt", "status", "channel", "from", "to"].map(String::from))
    );
    b["content"] = json!({ "text": "no url" });
    let (st, v) = srv.post("/messages/send", b.clone()).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"]["content.url"].is_array(), "{v}");
    b["content"] = json!({ "url": "file:///etc/passwd" });
    assert_eq!(srv.post("/messages/send", b).await.0, StatusCode::UNPROCESSABLE_ENTITY);

    // A contact with no phone number is reached by its bsuid (with a template:
    // it may not have written within the day).
    let all = srv.walk("").await;
    let p = all.iter().find(|c| c["phoneNumber"].is_null()).unwrap();
    let template = srv.ok("/templates").await["templates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["status"] == "approved" && t["text"].as_str().unwrap().matches("{{").count() == 1)
        .unwrap()
        .clone();
    let send = json!({ "bsuid": p["bsuid"], "from": p["channel"]["type"], "type": "text",
                       "channel_uuid": p["channel"]["uuid"], "content": { "text": "Zoë" },
                       "template_uuid": template["uuid"], "optin_contact": true });
    let (st, v) = srv.post("/messages/send", send.clone()).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let msgs = srv
        .ok(&format!("/contacts/{}/messages", p["uuid"].as_str().unwrap()))
        .await;
    assert!(
        msgs["messages"][0]["text"].as_str().unwrap().contains("Zoë"),
        "one variable from content.text"
    );
    assert_eq!(msgs["messages"][0]["to"], p["bsuid"]);
    // A template needs the opt-in.
    let mut no_optin = send.clone();
    no_optin.as_object_mut().unwrap().remove("optin_contact");
    let (st, v) = srv.post("/messages/send", no_optin).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"]["optin_contact"].is_array(), "{v}");
    let mut unknown = send;
    unknown["bsuid"] = json!("US.1");
    let (st, v) = srv.post("/messages/send", unknown).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"]["bsuid"].is_array(), "{v}");
    srv.s.stop().await;
}

fn keys_of(v: &Value) -> HashSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[tokio::test]
async fn assignment_and_fields_as_documented() {
    let srv = default_server().await;
    let c = warm_contact(&srv).await;
    let team = &srv.s.manifest.teams[2];
    let mut b = body(&c);
    b["assigned_user"] = json!("bea@frontdesk.example");
    b["team_uuid"] = json!(team.uuid);
    b["fields"] = json!("contact,conversation");
    let (st, v) = srv.post("/messages/send", b.clone()).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        keys_of(&v["message"]),
        HashSet::from(["uuid", "status", "contact", "conversation"].map(String::from))
    );
    assert_eq!(
        keys_of(&v["message"]["contact"]),
        HashSet::from(["uuid", "name", "phone", "email"].map(String::from))
    );
    assert_eq!(v["message"]["contact"]["uuid"], c["uuid"]);
    assert_eq!(
        keys_of(&v["message"]["conversation"]),
        HashSet::from(["source", "href", "createdAt"].map(String::from))
    );
    let after = srv.contact(c["uuid"].as_str().unwrap()).await;
    assert_eq!(after["assignedUser"], "bea@frontdesk.example");
    assert_eq!(after["team"]["uuid"], team.uuid.as_str());
    // Without `fields` the answer is the bare send request.
    let (_, v) = srv.post("/messages/send", body(&c)).await;
    assert_eq!(
        keys_of(&v["message"]),
        HashSet::from(["uuid", "status"].map(String::from))
    );
    for (field, value) in [
        ("assigned_user", json!("nobody@example.com")),
        ("team_uuid", json!("nope")),
        ("bot_status", json!("bot_pause")),
        ("fields", json!("contact,everything")),
    ] {
        let mut b = body(&c);
        b[field] = value;
        let (st, v) = srv.post("/messages/send", b).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{field}: {v}");
        assert!(v["error"][field].is_array(), "{field} not named: {v}");
    }
    srv.s.stop().await;
}
