//! Lost answers, oversized answers, the key in messages, and 404s read by
//! route rather than wording.

use super::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A listener on 127.0.0.1 that reads one request whole and closes the
/// connection without answering (the answer was lost after the request
/// arrived). Returns its base URL.
async fn swallowing_server() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let mut buf = vec![0u8; 64 * 1024];
            let mut seen = Vec::new();
            // Read until the headers and the announced body are in.
            loop {
                let n = sock.read(&mut buf).await.unwrap_or(0);
                if n == 0 {
                    break;
                }
                seen.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&seen).to_lowercase();
                if let Some(end) = text.find("\r\n\r\n") {
                    let len = text
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .unwrap_or(0);
                    if seen.len() >= end + 4 + len {
                        break;
                    }
                }
            }
            let _ = sock.shutdown().await;
        }
    });
    format!("http://{addr}/v1")
}

#[tokio::test]
async fn a_send_whose_answer_is_lost_may_have_been_carried_out() {
    let base = swallowing_server().await;
    let client = Client::new(&base, KEY, Duration::from_secs(5))
        .unwrap()
        .with_retry(fast_retry(3));
    let e = client
        .send_message(&SendMessage::text("+1555", "messaging_app", "hi"))
        .await
        .unwrap_err();
    assert!(e.may_have_applied(), "{e:?}");
    assert!(e.to_string().contains("may still have been carried out"), "{e}");
    let e = client.create_contact(&NewContact::default()).await.unwrap_err();
    assert!(e.may_have_applied(), "{e:?}");
    assert_no_key(&e);
}

#[tokio::test]
async fn a_send_that_never_connected_was_not_carried_out() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let client = Client::new(&format!("http://127.0.0.1:{port}/v1"), KEY, Duration::from_secs(2)).unwrap();
    let e = client
        .send_message(&SendMessage::text("+1555", "messaging_app", "hi"))
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Transport(_)), "{e:?}");
    assert!(!e.may_have_applied());
}

#[tokio::test]
async fn a_delete_retried_after_a_lost_answer_is_already_done() {
    let (server, client) = setup().await;
    // The first attempt deletes the message but its answer is a 503; the
    // retry finds it gone.
    Mock::given(method("DELETE"))
        .and(path("/v1/messages"))
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("DELETE"))
        .and(path("/v1/messages"))
        .respond_with(status_json(404, json!({"error": "message not found"})))
        .mount(&server)
        .await;
    assert_eq!(
        client.delete_message(&MessageId::new("m1".to_string())).await.unwrap(),
        Deletion::AlreadyGone
    );
    // Without an earlier attempt, a 404 is still "not found".
    let (server, client) = setup().await;
    serve(
        &server,
        "DELETE",
        "/v1/messages",
        status_json(404, json!({"error": "x"})),
    )
    .await;
    serve(
        &server,
        "DELETE",
        "/v1/messages/m9",
        status_json(404, json!({"error": "x"})),
    )
    .await;
    let e = client
        .delete_message(&MessageId::new("m9".to_string()))
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn an_oversized_answer_is_refused_with_a_clear_error() {
    let (server, client) = setup().await;
    let huge = format!("{{\"templates\":[],\"pad\":\"{}\"}}", "x".repeat(MAX_BODY_BYTES));
    serve(&server, "GET", "/v1/templates", json_body(&huge)).await;
    let e = client.list_templates(None).await.unwrap_err();
    let ApiError::Decode { reason, .. } = &e else {
        panic!("{e:?}")
    };
    assert!(reason.contains("larger than 8 MiB"), "{reason}");
    // Just under the cap is read as usual.
    let (server, client) = setup().await;
    let fits = format!("{{\"templates\":[],\"pad\":\"{}\"}}", "x".repeat(MAX_BODY_BYTES - 100));
    serve(&server, "GET", "/v1/templates", json_body(&fits)).await;
    assert!(client.list_templates(None).await.unwrap().items.is_empty());
}

#[tokio::test]
async fn a_short_key_is_redacted_only_as_a_whole_word() {
    let server = MockServer::start().await;
    let client = Client::new(&format!("{}/v1", server.uri()), "k", Duration::from_secs(5)).unwrap();
    serve(
        &server,
        "PATCH",
        "/v1/contacts/c1",
        status_json(422, json!({"error": {"tags": ["unknown tag vip, key k"]}})),
    )
    .await;
    let e = client
        .update_contact(&ContactId::new("c1".to_string()), &ContactPatch::default())
        .await
        .unwrap_err();
    let shown = e.to_string();
    assert!(shown.contains("unknown tag vip, key <redacted>"), "{shown}");
}

#[tokio::test]
async fn a_404_on_an_extension_route_is_read_by_its_shape_not_its_words() {
    let (server, client) = setup().await;
    // The API's error shape, in words no rule knows: the contact is missing.
    serve(
        &server,
        "POST",
        "/v1/messages/send",
        status_json(404, json!({"error": "Kontakt unbekannt"})),
    )
    .await;
    let e = client
        .send_message(&SendMessage::text("+1555", "messaging_app", "hi"))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::NotFound {
            what: "contact +1555".into()
        }
    );
    // A framework's default 404 that even says "endpoint": still read by
    // shape, so a route the server lacks.
    let (server, client) = setup().await;
    serve(
        &server,
        "GET",
        "/v1/teams",
        status_json(404, json!({"message": "no such endpoint"})),
    )
    .await;
    assert!(matches!(
        client.list_teams(None).await,
        Err(ApiError::NotOffered { .. })
    ));
}
