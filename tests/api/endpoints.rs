//! Every endpoint: the request it sends and how its answer decodes.

use super::*;

#[tokio::test]
async fn contacts_endpoints_accept_object_and_list_forms() {
    let (server, client) = setup().await;
    let c = format!("/v1/contacts/{CONTACT_UUID}");
    Mock::given(method("GET"))
        .and(path(c.as_str()))
        .and(query_param("include_field_types", "true"))
        .respond_with(json_body(&fixture("contact_get_list_form.json")))
        .mount(&server)
        .await;
    serve(
        &server,
        "PATCH",
        &c,
        json_body(&fixture("contact_close_object_form.json")),
    )
    .await;
    serve(
        &server,
        "POST",
        "/v1/contacts",
        json_body(&fixture("contact_get_list_form.json")),
    )
    .await;
    serve(
        &server,
        "POST",
        &format!("{c}/conversation/close"),
        json_body(&fixture("contact_close_object_form.json")),
    )
    .await;
    serve(
        &server,
        "POST",
        &format!("{c}/conversation/open"),
        json_body(&fixture("contact_open_list_form.json")),
    )
    .await;

    let got = client
        .get_contact(&ContactId::new(CONTACT_UUID.to_string()), true)
        .await
        .unwrap();
    assert_eq!(got.name, "Ana Souza");
    assert!(got.custom_fields_metadata.is_some());
    let closed = client
        .close_conversation(&ContactId::new(CONTACT_UUID.to_string()))
        .await
        .unwrap();
    assert!(closed.closed_at.is_some());
    let opened = client
        .open_conversation(&ContactId::new(CONTACT_UUID.to_string()))
        .await
        .unwrap();
    assert!(opened.closed_at.is_none());

    let new = NewContact {
        identifier: "+5511999990000".into(),
        source: "messaging_app".into(),
        name: "Ana Souza".into(),
        tags: Some(vec!["vip".into()]),
        custom_fields: Some([("Plan".to_string(), json!("gold"))].into()),
        assigned_user: Some("agent@example.com".into()),
        team_uuid: Some("tm1".into()),
        channel_uuid: Some("ch1".into()),
        bot_status: Some(BotAction::Start),
        note: Some("met at the fair".into()),
    };
    client.create_contact(&new).await.unwrap();

    let patch = ContactPatch {
        unassign_user: Some(true),
        note: Some(String::new()),
        ..Default::default()
    };
    let updated = client
        .update_contact(&ContactId::new(CONTACT_UUID.to_string()), &patch)
        .await
        .unwrap();
    assert_eq!(updated.uuid, CONTACT_UUID);
    let leave_note = ContactPatch {
        name: Some("Ana S.".into()),
        ..Default::default()
    };
    client
        .update_contact(&ContactId::new(CONTACT_UUID.to_string()), &leave_note)
        .await
        .unwrap();

    let got = requests(&server).await;
    let bodies: Vec<Value> = got
        .iter()
        .filter(|r| !r.body.is_empty())
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    assert_eq!(
        bodies[0],
        json!({"identifier": "+5511999990000", "source": "messaging_app", "name": "Ana Souza",
               "tags": ["vip"], "custom_fields": {"Plan": "gold"}, "assigned_user": "agent@example.com",
               "team_uuid": "tm1", "channel_uuid": "ch1", "bot_status": "bot_start", "note": "met at the fair"})
    );
    assert_eq!(
        bodies[1],
        json!({"unassign_user": true, "note": ""}),
        "empty note clears it"
    );
    assert_eq!(bodies[2], json!({"name": "Ana S."}), "absent note leaves it");
}

#[tokio::test]
async fn an_empty_contact_list_is_a_decode_error() {
    let (server, client) = setup().await;
    serve(&server, "GET", "/v1/contacts/c1", json_body(r#"{"contact": []}"#)).await;
    let e = client
        .get_contact(&ContactId::new("c1".to_string()), false)
        .await
        .unwrap_err();
    let ApiError::Decode { endpoint, excerpt, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(endpoint, "GET /contacts/c1");
    assert!(excerpt.contains("contact"), "{excerpt}");
}

#[tokio::test]
async fn contact_list_query_parameters() {
    let (server, client) = setup().await;
    serve(
        &server,
        "GET",
        "/v1/contacts",
        json_body(&fixture("contacts_list.json")),
    )
    .await;
    let filter = ContactFilter {
        source: Some("messaging_app".into()),
        tags: vec!["vip".into(), "Lead".into()],
        team_uuid: Some("tm1".into()),
        include_field_types: false,
    };
    let page = client.list_contacts(&filter, &PageRequest::Number(2)).await.unwrap();
    assert_eq!(page.items.len(), 2);
    client
        .list_contacts(&ContactFilter::default(), &PageRequest::After("abc".into()))
        .await
        .unwrap();
    client
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .unwrap();
    let got = requests(&server).await;
    assert_eq!(
        query_of(&got[0]),
        HashMap::from([
            ("page".to_string(), "2".to_string()),
            ("source".to_string(), "messaging_app".to_string()),
            ("tags".to_string(), "vip,Lead".to_string()),
            ("team_uuid".to_string(), "tm1".to_string()),
        ])
    );
    assert_eq!(
        query_of(&got[1]),
        HashMap::from([("after".to_string(), "abc".to_string())])
    );
    assert!(query_of(&got[2]).is_empty());
}

#[tokio::test]
async fn messages_bot_templates_channels_funnels_teams_plan() {
    let (server, client) = setup().await;
    let c = format!("/v1/contacts/{CONTACT_UUID}");
    serve(
        &server,
        "GET",
        &format!("{c}/messages"),
        json_body(&fixture("messages.json")),
    )
    .await;
    serve(
        &server,
        "GET",
        "/v1/messages/status/s1",
        json_body(&fixture("message_status.json")),
    )
    .await;
    serve(&server, "GET", &format!("{c}/bot"), json_body(&fixture("bot.json"))).await;
    serve(
        &server,
        "POST",
        &format!("{c}/bot"),
        json_body(&fixture("bot_unknown_status.json")),
    )
    .await;
    serve(&server, "GET", "/v1/templates", json_body(&fixture("templates.json"))).await;
    serve(&server, "GET", "/v1/templates/t1", json_body(&fixture("template.json"))).await;
    serve(
        &server,
        "PATCH",
        "/v1/templates/t1",
        json_body(&fixture("template_rename_templates.json")),
    )
    .await;
    serve(
        &server,
        "PATCH",
        "/v1/templates/t2",
        json_body(&fixture("template_rename_template.json")),
    )
    .await;
    serve(&server, "GET", "/v1/channels", json_body(&fixture("channels.json"))).await;
    serve(
        &server,
        "PATCH",
        "/v1/channels/ch1",
        json_body(&fixture("channel.json")),
    )
    .await;
    serve(&server, "GET", "/v1/funnels", json_body(&fixture("funnels.json"))).await;
    serve(&server, "GET", "/v1/teams", json_body(&fixture("teams.json"))).await;
    serve(&server, "GET", "/v1/teams/tm1", json_body(&fixture("team.json"))).await;
    serve(
        &server,
        "GET",
        "/v1/teams/tm1/members",
        json_body(&fixture("team_members.json")),
    )
    .await;
    serve(&server, "GET", "/v1/plan", json_body(&fixture("plan.json"))).await;

    let m = client
        .list_messages(&ContactId::new(CONTACT_UUID.to_string()), &PageRequest::Number(3))
        .await
        .unwrap();
    assert_eq!(m.items[1].status, MessageStatus::Note);
    assert_eq!(
        client
            .message_status(&MessageId::new("s1".to_string()))
            .await
            .unwrap()
            .status,
        DeliveryStatus::Enqueued
    );
    assert_eq!(
        client
            .get_bot(&ContactId::new(CONTACT_UUID.to_string()))
            .await
            .unwrap()
            .status,
        BotStatus::Started
    );
    let b = client
        .set_bot(&ContactId::new(CONTACT_UUID.to_string()), BotAction::End)
        .await
        .unwrap();
    assert_eq!(b.status, BotStatus::Other("paused_by_admin".into()));
    assert_eq!(client.list_templates(Some(2)).await.unwrap().items.len(), 2);
    assert_eq!(
        client
            .get_template(&TemplateId::new("t1".to_string()))
            .await
            .unwrap()
            .title,
        "Welcome"
    );
    assert_eq!(
        client
            .rename_template(&TemplateId::new("t1".to_string()), "Hello again")
            .await
            .unwrap()
            .title,
        "Hello again"
    );
    assert_eq!(
        client
            .rename_template(&TemplateId::new("t2".to_string()), "Hello again")
            .await
            .unwrap()
            .title,
        "Hello again"
    );
    let ch = client.list_channels(None, Some("messaging_app")).await.unwrap();
    assert_eq!(ch.items[1].channel_type, "carrier_pigeon");
    assert!(client.rename_channel("ch1", "Support line").await.unwrap().main);
    assert_eq!(client.list_funnels().await.unwrap()[0].name, "Sales");
    assert_eq!(client.list_teams(Some(1)).await.unwrap().items[0].name, "Support");
    assert_eq!(client.get_team("tm1").await.unwrap().members, Some(4));
    let members = client.team_members("tm1", Some(1), Some("away")).await.unwrap();
    assert_eq!(members.items.len(), 2);
    assert_eq!(client.plan().await.unwrap().licenses, 10);

    let got = requests(&server).await;
    let find = |verb: &str, p: &str| -> Vec<&Request> {
        got.iter()
            .filter(|r| r.method.as_str() == verb && r.url.path() == p)
            .collect()
    };
    assert_eq!(query_of(find("GET", &format!("{c}/messages"))[0])["page"], "3");
    let bot_body: Value = serde_json::from_slice(&find("POST", &format!("{c}/bot"))[0].body).unwrap();
    assert_eq!(bot_body, json!({"status": "bot_end"}));
    let rename: Value = serde_json::from_slice(&find("PATCH", "/v1/templates/t1")[0].body).unwrap();
    assert_eq!(rename, json!({"title": "Hello again"}));
    let rename: Value = serde_json::from_slice(&find("PATCH", "/v1/channels/ch1")[0].body).unwrap();
    assert_eq!(rename, json!({"title": "Support line"}));
    assert_eq!(query_of(find("GET", "/v1/channels")[0])["type"], "messaging_app");
    assert_eq!(query_of(find("GET", "/v1/templates")[0])["page"], "2");
    let mq = query_of(find("GET", "/v1/teams/tm1/members")[0]);
    assert_eq!((mq["page"].as_str(), mq["status"].as_str()), ("1", "away"));
}

#[tokio::test]
async fn custom_statuses_user_status_webhooks_and_send() {
    let (server, client) = setup().await;
    serve(
        &server,
        "GET",
        "/v1/custom_statuses",
        json_body(&fixture("custom_statuses.json")),
    )
    .await;
    serve(
        &server,
        "GET",
        "/v1/custom_statuses/cs1",
        json_body(&fixture("custom_status.json")),
    )
    .await;
    serve(
        &server,
        "POST",
        "/v1/custom_statuses",
        json_body(&fixture("custom_status.json")),
    )
    .await;
    serve(
        &server,
        "PUT",
        "/v1/custom_statuses/cs1",
        json_body(&fixture("custom_status.json")),
    )
    .await;
    serve(
        &server,
        "PUT",
        "/v1/users/u1/status",
        json_body(&fixture("user_status.json")),
    )
    .await;
    serve(
        &server,
        "GET",
        "/v1/webhooks/events",
        json_body(&fixture("webhook_events.json")),
    )
    .await;
    serve(
        &server,
        "POST",
        "/v1/messages/send",
        json_body(&fixture("message_sent.json")),
    )
    .await;

    assert_eq!(client.list_custom_statuses(None).await.unwrap().items.len(), 1);
    assert_eq!(client.get_custom_status("cs1").await.unwrap().emoji, "🍔");
    let body = CustomStatusBody {
        name: "Lunch".into(),
        emoji: Some("🍔".into()),
    };
    assert_eq!(client.create_custom_status(&body).await.unwrap().name, "Lunch");
    assert_eq!(client.update_custom_status("cs1", &body).await.unwrap().name, "Lunch");
    for change in [
        CustomStatusChange::Keep,
        CustomStatusChange::Clear,
        CustomStatusChange::Set("cs1".into()),
    ] {
        let update = UserStatusUpdate {
            available: Some(false),
            custom_status: change,
        };
        let s = client.set_user_status("u1", &update).await.unwrap();
        assert!(!s.appearance.unwrap().available);
    }
    let query = EventQuery {
        status: Some("failed".into()),
        subscriptions: vec!["message_created".into(), "contact_created".into()],
        page: Some(2),
        items: Some(50),
    };
    let events = client.webhook_events(&query).await.unwrap();
    assert_eq!(events.items[1].event, "agent_teleported");
    let sent = client
        .send_message(&SendMessage::template(
            "+5511999990000",
            "messaging_app",
            "t1",
            vec!["Ana".into()],
        ))
        .await
        .unwrap();
    assert_eq!(sent.uuid, "s2");

    let got = requests(&server).await;
    let bodies: Vec<Value> = got
        .iter()
        .filter(|r| r.url.path() == "/v1/users/u1/status")
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    assert_eq!(
        bodies,
        vec![
            json!({"available": false}),
            json!({"available": false, "custom_status_uuid": null}),
            json!({"available": false, "custom_status_uuid": "cs1"}),
        ]
    );
    let ev = got.iter().find(|r| r.url.path() == "/v1/webhooks/events").unwrap();
    assert_eq!(
        query_of(ev),
        HashMap::from([
            ("status".to_string(), "failed".to_string()),
            ("page".to_string(), "2".to_string()),
            ("items".to_string(), "50".to_string()),
            (
                "subscriptions".to_string(),
                "message_created,contact_created".to_string()
            ),
        ])
    );
    let send = got.iter().find(|r| r.url.path() == "/v1/messages/send").unwrap();
    let send: Value = serde_json::from_slice(&send.body).unwrap();
    assert_eq!(
        send,
        // A one-variable template takes its value in `content.text`, as
        // the documentation shows.
        json!({"to": "+5511999990000", "from": "messaging_app", "type": "text", "content": {"text": "Ana"},
               "template_uuid": "t1", "optin_contact": true})
    );
    let create = got
        .iter()
        .find(|r| r.method.as_str() == "POST" && r.url.path() == "/v1/custom_statuses")
        .unwrap();
    assert_eq!(
        serde_json::from_slice::<Value>(&create.body).unwrap(),
        json!({"name": "Lunch", "emoji": "🍔"})
    );
}
