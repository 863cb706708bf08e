//! Deleting a message: body form first, path form on 404 or 405.

use super::*;

#[tokio::test]
async fn delete_sends_the_body_form_first() {
    let (server, client) = setup().await;
    Mock::given(method("DELETE"))
        .and(path("/v1/messages"))
        .and(body_json(json!({"uuid": "m1"})))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&server)
        .await;
    client.delete_message(&MessageId::new("m1".to_string())).await.unwrap();
    assert_eq!(requests(&server).await.len(), 1);
}

#[tokio::test]
async fn delete_falls_back_to_the_path_form_on_405_or_404() {
    for status in [405, 404] {
        let (server, client) = setup().await;
        Mock::given(method("DELETE"))
            .and(path("/v1/messages"))
            .and(body_json(json!({"uuid": "m1"})))
            .respond_with(ResponseTemplate::new(status))
            .expect(1)
            .mount(&server)
            .await;
        Mock::given(method("DELETE"))
            .and(path("/v1/messages/m1"))
            .respond_with(ResponseTemplate::new(204))
            .expect(1)
            .mount(&server)
            .await;
        client.delete_message(&MessageId::new("m1".to_string())).await.unwrap();
        server.verify().await;
    }
}

#[tokio::test]
async fn delete_of_an_unknown_message_is_not_found() {
    let (server, client) = setup().await;
    serve(
        &server,
        "DELETE",
        "/v1/messages/m9",
        status_json(404, json!({"error": "message not found"})),
    )
    .await;
    let e = client
        .delete_message(&MessageId::new("m9".to_string()))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::NotFound {
            what: "message m9".into()
        }
    );
    assert_eq!(requests(&server).await.len(), 2, "body form, then path form once");
}

#[tokio::test]
async fn delete_does_not_fall_back_on_other_errors() {
    let (server, client) = setup().await;
    serve(
        &server,
        "DELETE",
        "/v1/messages",
        status_json(422, json!({"error": "too old to delete"})),
    )
    .await;
    let e = client
        .delete_message(&MessageId::new("m1".to_string()))
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Validation { .. }), "{e:?}");
    assert_eq!(requests(&server).await.len(), 1);
}
