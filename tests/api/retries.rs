//! Retries: which calls repeat, how often, and `Retry-After`.

use std::time::Instant;

use super::*;

async fn fail_then(
    server: &MockServer,
    verb: &str,
    at: &str,
    failure: ResponseTemplate,
    times: u64,
    ok: ResponseTemplate,
) {
    Mock::given(method(verb))
        .and(path(at))
        .respond_with(failure)
        .up_to_n_times(times)
        .with_priority(1)
        .mount(server)
        .await;
    Mock::given(method(verb))
        .and(path(at))
        .respond_with(ok)
        .with_priority(2)
        .mount(server)
        .await;
}

#[tokio::test]
async fn gets_are_retried_on_500_503_and_429() {
    for failure in [
        ResponseTemplate::new(500),
        ResponseTemplate::new(503),
        ResponseTemplate::new(429),
    ] {
        let (server, client) = setup().await;
        fail_then(&server, "GET", "/v1/plan", failure, 2, json_body(&fixture("plan.json"))).await;
        assert_eq!(client.plan().await.unwrap().plan, "Growth");
        assert_eq!(requests(&server).await.len(), 3);
    }
}

#[tokio::test]
async fn retries_stop_after_max_attempts() {
    let (server, client) = setup().await;
    serve(&server, "GET", "/v1/funnels", ResponseTemplate::new(502)).await;
    let e = client.list_funnels().await.unwrap_err();
    assert!(matches!(e, ApiError::Server { status: 502, .. }), "{e:?}");
    assert_eq!(requests(&server).await.len(), 3);
}

#[tokio::test]
async fn idempotent_writes_are_retried() {
    let (server, client) = setup().await;
    let c = format!("/v1/contacts/{CONTACT_UUID}");
    let ok = json_body(&fixture("contact_close_object_form.json"));
    fail_then(
        &server,
        "POST",
        &format!("{c}/conversation/close"),
        ResponseTemplate::new(502),
        1,
        ok.clone(),
    )
    .await;
    fail_then(
        &server,
        "POST",
        &format!("{c}/conversation/open"),
        ResponseTemplate::new(500),
        1,
        ok.clone(),
    )
    .await;
    fail_then(&server, "PATCH", &c, ResponseTemplate::new(503), 1, ok).await;
    fail_then(
        &server,
        "POST",
        &format!("{c}/bot"),
        ResponseTemplate::new(500),
        1,
        json_body(&fixture("bot.json")),
    )
    .await;
    fail_then(
        &server,
        "PUT",
        "/v1/users/u1/status",
        ResponseTemplate::new(429),
        1,
        json_body(&fixture("user_status.json")),
    )
    .await;
    fail_then(
        &server,
        "PATCH",
        "/v1/templates/t1",
        ResponseTemplate::new(500),
        1,
        json_body(&fixture("template_rename_templates.json")),
    )
    .await;
    client
        .close_conversation(&ContactId::new(CONTACT_UUID.to_string()))
        .await
        .unwrap();
    client
        .open_conversation(&ContactId::new(CONTACT_UUID.to_string()))
        .await
        .unwrap();
    client
        .update_contact(&ContactId::new(CONTACT_UUID.to_string()), &ContactPatch::default())
        .await
        .unwrap();
    client
        .set_bot(&ContactId::new(CONTACT_UUID.to_string()), BotAction::Start)
        .await
        .unwrap();
    client
        .set_user_status("u1", &UserStatusUpdate::default())
        .await
        .unwrap();
    client
        .rename_template(&TemplateId::new("t1".to_string()), "x")
        .await
        .unwrap();
    assert_eq!(requests(&server).await.len(), 12);
}

#[tokio::test]
async fn creates_and_sends_are_never_retried() {
    let (server, client) = setup().await;
    serve(&server, "POST", "/v1/contacts", ResponseTemplate::new(500)).await;
    serve(&server, "POST", "/v1/messages/send", ResponseTemplate::new(503)).await;
    serve(
        &server,
        "POST",
        "/v1/custom_statuses",
        ResponseTemplate::new(429).insert_header("Retry-After", "0"),
    )
    .await;
    // Not retried, and a 5xx may have been carried out: the error says so.
    let e = client.create_contact(&NewContact::default()).await.unwrap_err();
    let ApiError::MaybeApplied { cause } = &e else {
        panic!("{e:?}")
    };
    assert!(matches!(**cause, ApiError::Server { status: 500, .. }), "{e:?}");
    let e = client
        .send_message(&SendMessage::text("+1", "messaging_app", "hi"))
        .await
        .unwrap_err();
    let ApiError::MaybeApplied { cause } = &e else {
        panic!("{e:?}")
    };
    assert!(matches!(**cause, ApiError::Server { status: 503, .. }), "{e:?}");
    let body = CustomStatusBody {
        name: "x".into(),
        emoji: None,
    };
    let e = client.create_custom_status(&body).await.unwrap_err();
    assert!(matches!(e, ApiError::RateLimited { .. }), "{e:?}");
    let got = requests(&server).await;
    assert_eq!(
        got.len(),
        3,
        "one request each: {:?}",
        got.iter().map(|r| r.url.path()).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn retry_after_is_honoured() {
    let server = MockServer::start().await;
    fail_then(
        &server,
        "GET",
        "/v1/plan",
        ResponseTemplate::new(429).insert_header("Retry-After", "0.3"),
        1,
        json_body(&fixture("plan.json")),
    )
    .await;
    // Backoff alone would wait about a millisecond; the server asks 300 ms.
    let client = Client::new(&format!("{}/v1", server.uri()), KEY, Duration::from_secs(5))
        .unwrap()
        .with_retry(RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_secs(5),
        });
    let started = Instant::now();
    client.plan().await.unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(300),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(requests(&server).await.len(), 2);

    // A long Retry-After is capped at max_delay rather than stalling.
    let server = MockServer::start().await;
    fail_then(
        &server,
        "GET",
        "/v1/plan",
        ResponseTemplate::new(429).insert_header("Retry-After", "3600"),
        2,
        json_body(&fixture("plan.json")),
    )
    .await;
    let client = Client::new(&format!("{}/v1", server.uri()), KEY, Duration::from_secs(5))
        .unwrap()
        .with_retry(fast_retry(3));
    client.plan().await.unwrap();
    assert_eq!(requests(&server).await.len(), 3);
}
