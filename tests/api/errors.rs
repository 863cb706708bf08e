//! Status codes, timeouts and refused connections mapped to `ApiError`; the key kept out of every error.

use super::*;

#[tokio::test]
async fn status_codes_map_to_errors() {
    let (server, client) = setup().await;
    let client = client.with_retry(fast_retry(1));
    serve(
        &server,
        "GET",
        "/v1/contacts/c401",
        status_json(401, json!({"error": "bad key"})),
    )
    .await;
    serve(
        &server,
        "GET",
        "/v1/contacts/c404",
        status_json(404, json!({"error": "contact not found"})),
    )
    .await;
    serve(
        &server,
        "PATCH",
        "/v1/contacts/c422",
        status_json(
            422,
            json!({"error": {"note": ["is too long (maximum is 1000 characters)"]}}),
        ),
    )
    .await;
    serve(
        &server,
        "PATCH",
        "/v1/contacts/c422m",
        status_json(422, json!({"error": "unknown tag: vipp", "code": "invalid"})),
    )
    .await;
    serve(
        &server,
        "GET",
        "/v1/contacts/c403",
        status_json(403, json!({"error": "forbidden here"})),
    )
    .await;
    serve(
        &server,
        "GET",
        "/v1/contacts/c429",
        ResponseTemplate::new(429).insert_header("Retry-After", "7"),
    )
    .await;
    serve(
        &server,
        "GET",
        "/v1/contacts/c500",
        status_json(500, json!({"error": "boom"})),
    )
    .await;
    serve(&server, "GET", "/v1/contacts/c503", ResponseTemplate::new(503)).await;
    serve(
        &server,
        "GET",
        "/v1/contacts/cbad",
        ResponseTemplate::new(200).set_body_string("<html>\n\u{1b}[31mProxy error</html>"),
    )
    .await;
    serve(&server, "GET", "/v1/contacts/c204", ResponseTemplate::new(204)).await;
    Mock::given(method("GET"))
        .and(path("/v1/contacts"))
        .and(query_param("after", "junk"))
        .respond_with(status_json(400, json!({"error": "Invalid pagination cursor"})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/contacts"))
        .and(query_param("page", "7"))
        .respond_with(status_json(400, json!({"error": "Pagination limit exceeded"})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/contacts"))
        .and(query_param("page", "8"))
        .respond_with(status_json(400, json!({"error": "Seite zu groß"})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/contacts"))
        .and(query_param("source", "bad"))
        .respond_with(status_json(400, json!({"error": "source is not valid"})))
        .mount(&server)
        .await;

    let none = ContactFilter::default();
    let mut seen = Vec::new();
    let e = client
        .get_contact(&ContactId::new("c401".to_string()), false)
        .await
        .unwrap_err();
    assert_eq!(e, ApiError::Unauthorized);
    seen.push(e);
    let e = client
        .get_contact(&ContactId::new("c404".to_string()), false)
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::NotFound {
            what: "contact c404".into()
        }
    );
    assert_eq!(e.to_string(), "contact c404 was not found");
    seen.push(e);
    let e = client
        .update_contact(&ContactId::new("c422".to_string()), &ContactPatch::default())
        .await
        .unwrap_err();
    let ApiError::Validation { fields, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(
        fields["note"],
        vec!["is too long (maximum is 1000 characters)".to_string()]
    );
    assert!(e.to_string().contains("note: is too long"), "{e}");
    seen.push(e);
    let e = client
        .update_contact(&ContactId::new("c422m".to_string()), &ContactPatch::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ApiError::Validation { message, fields } if message == "unknown tag: vipp" && fields.is_empty()),
        "{e:?}"
    );
    seen.push(e);
    let e = client
        .get_contact(&ContactId::new("c403".to_string()), false)
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::Rejected {
            status: 403,
            message: "forbidden here".into()
        }
    );
    seen.push(e);
    let e = client
        .get_contact(&ContactId::new("c429".to_string()), false)
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(7))
        }
    );
    assert!(e.to_string().contains("7 s"), "{e}");
    seen.push(e);
    let e = client
        .get_contact(&ContactId::new("c500".to_string()), false)
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::Server {
            status: 500,
            message: "boom".into()
        }
    );
    seen.push(e);
    let e = client
        .get_contact(&ContactId::new("c503".to_string()), false)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Server { status: 503, .. }), "{e:?}");
    seen.push(e);
    let e = client
        .get_contact(&ContactId::new("cbad".to_string()), false)
        .await
        .unwrap_err();
    let ApiError::Decode { endpoint, excerpt, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(endpoint, "GET /contacts/cbad");
    assert!(
        excerpt.starts_with("<html>") && excerpt.contains("Proxy error"),
        "{excerpt}"
    );
    assert!(!excerpt.chars().any(char::is_control), "{excerpt:?}");
    seen.push(e);
    let e = client
        .get_contact(&ContactId::new("c204".to_string()), false)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Decode { .. }), "{e:?}");
    seen.push(e);
    let e = client
        .list_contacts(&none, &PageRequest::After("junk".into()))
        .await
        .unwrap_err();
    assert_eq!(e, ApiError::Pagination("Invalid pagination cursor".into()));
    seen.push(e);
    let e = client.list_contacts(&none, &PageRequest::Number(7)).await.unwrap_err();
    assert_eq!(e, ApiError::Pagination("Pagination limit exceeded".into()));
    seen.push(e);
    // A 400 to a paged request is about the page, whatever its words; the
    // server's words are kept for display.
    let e = client.list_contacts(&none, &PageRequest::Number(8)).await.unwrap_err();
    assert_eq!(e, ApiError::Pagination("Seite zu groß".into()));
    seen.push(e);
    let bad_source = ContactFilter {
        source: Some("bad".into()),
        ..Default::default()
    };
    let e = client
        .list_contacts(&bad_source, &PageRequest::First)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Rejected { status: 400, .. }), "{e:?}");
    seen.push(e);
    for e in &seen {
        assert_no_key(e);
    }
}

#[tokio::test]
async fn timeouts_and_refused_connections() {
    let server = MockServer::start().await;
    serve(
        &server,
        "GET",
        "/v1/plan",
        json_body("{}").set_delay(Duration::from_secs(3)),
    )
    .await;
    let client = Client::new(&format!("{}/v1", server.uri()), KEY, Duration::from_millis(200))
        .unwrap()
        .with_retry(fast_retry(2));
    let e = client.plan().await.unwrap_err();
    assert!(matches!(e, ApiError::Timeout(_)), "{e:?}");
    // The timeout bounds the whole call: the first attempt used it all, so
    // there is no second, and the message says so.
    assert_eq!(requests(&server).await.len(), 1, "no retry past the call's time bound");
    let shown = e.to_string();
    assert!(
        shown.contains("within 0.2 s") && shown.contains("1 attempt in"),
        "{shown}"
    );
    assert_no_key(&e);

    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let client = Client::new(&format!("http://127.0.0.1:{port}/v1"), KEY, Duration::from_secs(2))
        .unwrap()
        .with_retry(fast_retry(2));
    let e = client.plan().await.unwrap_err();
    assert!(matches!(e, ApiError::Transport(_)), "{e:?}");
    assert!(e.to_string().starts_with("could not reach the server"), "{e}");
    assert_no_key(&e);
}

#[tokio::test]
async fn the_key_never_appears_even_when_the_server_echoes_it() {
    let (server, client) = setup().await;
    let client = client.with_retry(fast_retry(1));
    let echo = format!("key {KEY} is not allowed here");
    serve(&server, "GET", "/v1/plan", status_json(403, json!({ "error": echo }))).await;
    serve(
        &server,
        "GET",
        "/v1/funnels",
        status_json(500, json!({ "error": echo })),
    )
    .await;
    serve(&server, "GET", "/v1/templates", json_body(&format!("not json {KEY}"))).await;
    serve(
        &server,
        "PATCH",
        "/v1/contacts/c1",
        status_json(422, json!({"error": {"note": [echo]}})),
    )
    .await;
    let errors = vec![
        client.plan().await.unwrap_err(),
        client.list_funnels().await.unwrap_err(),
        client.list_templates(None).await.unwrap_err(),
        client
            .update_contact(&ContactId::new("c1".to_string()), &ContactPatch::default())
            .await
            .unwrap_err(),
    ];
    for e in &errors {
        assert!(!matches!(e, ApiError::Config(_)), "{e:?}");
        assert_no_key(e);
    }
}

#[tokio::test]
async fn extension_routes_missing_are_not_offered() {
    let (_server, client) = setup().await;
    // Nothing mounted: wiremock answers 404 with an empty body, as a
    // server without the route would.
    let e = client
        .send_message(&SendMessage::text("+1555", "messaging_app", "hi"))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::NotOffered {
            what: "sending messages".into()
        }
    );
    assert_eq!(e.to_string(), "this server does not offer sending messages");
    assert!(matches!(
        client.list_teams(None).await,
        Err(ApiError::NotOffered { .. })
    ));
    assert!(matches!(
        client.list_channels(None, None).await,
        Err(ApiError::NotOffered { .. })
    ));
    assert!(matches!(
        client.list_custom_statuses(None).await,
        Err(ApiError::NotOffered { .. })
    ));
    assert!(matches!(
        client.team_members("tm9", None, None).await,
        Err(ApiError::NotOffered { .. })
    ));
    let body = CustomStatusBody {
        name: "x".into(),
        emoji: None,
    };
    assert!(matches!(
        client.create_custom_status(&body).await,
        Err(ApiError::NotOffered { .. })
    ));
    assert!(matches!(
        client.update_custom_status("cs9", &body).await,
        Err(ApiError::NotOffered { .. })
    ));
    assert!(matches!(
        client.delete_custom_status("cs9").await,
        Err(ApiError::NotOffered { .. })
    ));
    // An api.md endpoint's 404 is always NotFound.
    assert_eq!(
        client.get_team("tm9").await.unwrap_err(),
        ApiError::NotFound {
            what: "team tm9".into()
        }
    );
}

#[tokio::test]
async fn extension_routes_naming_a_missing_resource_are_not_found() {
    let (server, client) = setup().await;
    serve(
        &server,
        "GET",
        "/v1/teams/tm9/members",
        status_json(404, json!({"error": "team not found"})),
    )
    .await;
    serve(
        &server,
        "PUT",
        "/v1/custom_statuses/cs9",
        status_json(404, json!({"error": "custom status not found"})),
    )
    .await;
    serve(
        &server,
        "POST",
        "/v1/messages/send",
        status_json(404, json!({"error": "contact not found"})),
    )
    .await;
    assert_eq!(
        client.team_members("tm9", None, None).await.unwrap_err(),
        ApiError::NotFound {
            what: "team tm9".into()
        }
    );
    let body = CustomStatusBody {
        name: "x".into(),
        emoji: None,
    };
    assert_eq!(
        client.update_custom_status("cs9", &body).await.unwrap_err(),
        ApiError::NotFound {
            what: "custom status cs9".into()
        }
    );
    assert_eq!(
        client
            .send_message(&SendMessage::text("+1555", "messaging_app", "hi"))
            .await
            .unwrap_err(),
        ApiError::NotFound {
            what: "contact +1555".into()
        }
    );
}
