//! The API client against a local responder (wiremock on 127.0.0.1):
//! every endpoint's request and decoding, status mapping, retries,
//! cursor walks, the delete fallback, and the key's secrecy.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use frontdesk::api::*;
use futures::StreamExt;
use serde_json::{Value, json};
use wiremock::matchers::{body_json, header, method, path, query_param};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const KEY: &str = "sk_live_TOPSECRET_4242";
const CONTACT_UUID: &str = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/api/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn fast_retry(max_attempts: u32) -> RetryPolicy {
    RetryPolicy {
        max_attempts,
        base_delay: Duration::from_millis(1),
        max_delay: Duration::from_millis(20),
    }
}

async fn setup() -> (MockServer, Client) {
    let server = MockServer::start().await;
    let client = Client::new(&format!("{}/v1", server.uri()), KEY, Duration::from_secs(5))
        .unwrap()
        .with_retry(fast_retry(3));
    (server, client)
}

fn json_body(text: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(text.as_bytes().to_vec(), "application/json")
}

fn status_json(status: u16, body: Value) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_json(body)
}

async fn serve(server: &MockServer, verb: &str, at: &str, response: ResponseTemplate) {
    Mock::given(method(verb))
        .and(path(at))
        .respond_with(response)
        .mount(server)
        .await;
}

async fn requests(server: &MockServer) -> Vec<Request> {
    server.received_requests().await.expect("recording is on")
}

fn query_of(r: &Request) -> HashMap<String, String> {
    r.url.query_pairs().into_owned().collect()
}

/// Asserts the key is in neither the Display nor the Debug of `e`.
fn assert_no_key(e: &ApiError) {
    let shown = format!("{e} {e:?}");
    assert!(!shown.contains(KEY), "the key leaked: {shown}");
}

// ---------- construction and headers ----------

#[test]
fn plain_http_to_another_host_is_refused() {
    for url in ["http://api.example.com/v1", "http://192.168.1.10:8080/v1"] {
        let e = Client::new(url, KEY, Duration::from_secs(5)).unwrap_err();
        assert!(matches!(e, ApiError::Config(ref m) if m.contains("https")), "{e:?}");
        assert_no_key(&e);
    }
    assert!(Client::new("https://api.example.com/v1", KEY, Duration::from_secs(5)).is_ok());
    assert!(Client::new("http://localhost:9/v1/", KEY, Duration::from_secs(5)).is_ok());
    let e = Client::new("https://api.example.com/v1", "", Duration::from_secs(5)).unwrap_err();
    assert!(matches!(e, ApiError::Config(_)));
}

#[test]
fn client_debug_hides_the_key() {
    let c = Client::new("https://api.example.com/v1", KEY, Duration::from_secs(5)).unwrap();
    let shown = format!("{c:?}");
    assert!(!shown.contains(KEY), "{shown}");
    assert!(shown.contains("redacted"), "{shown}");
}

#[tokio::test]
async fn every_request_carries_bearer_key_and_json_content_type() {
    let (server, client) = setup().await;
    Mock::given(header("Authorization", format!("Bearer {KEY}").as_str()))
        .and(header("Content-Type", "application/json"))
        .and(method("GET"))
        .and(path("/v1/plan"))
        .respond_with(json_body(&fixture("plan.json")))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(header("Authorization", format!("Bearer {KEY}").as_str()))
        .and(header("Content-Type", "application/json"))
        .and(method("DELETE"))
        .and(path("/v1/custom_statuses/cs1"))
        .respond_with(json_body(&fixture("custom_status_deleted.json")))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(header("Authorization", format!("Bearer {KEY}").as_str()))
        .and(header("Content-Type", "application/json"))
        .and(method("POST"))
        .and(path(format!("/v1/contacts/{CONTACT_UUID}/conversation/close")))
        .respond_with(json_body(&fixture("contact_close_object_form.json")))
        .expect(1)
        .mount(&server)
        .await;
    client.plan().await.unwrap();
    client.delete_custom_status("cs1").await.unwrap();
    client.close_conversation(CONTACT_UUID).await.unwrap();
    server.verify().await;
}

#[tokio::test]
async fn ids_are_percent_encoded_path_segments() {
    let (server, client) = setup().await;
    let e = client.get_contact("a/b?x", false).await.unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
    let got = requests(&server).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].url.path(), "/v1/contacts/a%2Fb%3Fx");
    assert_eq!(got[0].url.query(), None);
    // A dot segment would address another resource: refused unsent.
    for id in ["..", ".", " "] {
        assert!(client.get_contact(id, false).await.is_err());
    }
    assert_eq!(requests(&server).await.len(), 1);
}

// ---------- every endpoint: request shape and decoding ----------

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

    let got = client.get_contact(CONTACT_UUID, true).await.unwrap();
    assert_eq!(got.name, "Ana Souza");
    assert!(got.custom_fields_metadata.is_some());
    let closed = client.close_conversation(CONTACT_UUID).await.unwrap();
    assert!(closed.closed_at.is_some());
    let opened = client.open_conversation(CONTACT_UUID).await.unwrap();
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
    let updated = client.update_contact(CONTACT_UUID, &patch).await.unwrap();
    assert_eq!(updated.uuid, CONTACT_UUID);
    let leave_note = ContactPatch {
        name: Some("Ana S.".into()),
        ..Default::default()
    };
    client.update_contact(CONTACT_UUID, &leave_note).await.unwrap();

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
    let e = client.get_contact("c1", false).await.unwrap_err();
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
        .list_messages(CONTACT_UUID, &PageRequest::Number(3))
        .await
        .unwrap();
    assert_eq!(m.items[1].status, MessageStatus::Note);
    assert_eq!(
        client.message_status("s1").await.unwrap().status,
        DeliveryStatus::Enqueued
    );
    assert_eq!(client.get_bot(CONTACT_UUID).await.unwrap().status, BotStatus::Started);
    let b = client.set_bot(CONTACT_UUID, BotAction::End).await.unwrap();
    assert_eq!(b.status, BotStatus::Other("paused_by_admin".into()));
    assert_eq!(client.list_templates(Some(2)).await.unwrap().items.len(), 2);
    assert_eq!(client.get_template("t1").await.unwrap().title, "Welcome");
    assert_eq!(
        client.rename_template("t1", "Hello again").await.unwrap().title,
        "Hello again"
    );
    assert_eq!(
        client.rename_template("t2", "Hello again").await.unwrap().title,
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
        json!({"to": "+5511999990000", "from": "messaging_app", "type": "text", "content": {"text": ""},
               "template_uuid": "t1", "optin_contact": true, "template_values": ["Ana"]})
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

// ---------- status mapping ----------

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
        .respond_with(status_json(400, json!({"error": "source is not valid"})))
        .mount(&server)
        .await;

    let none = ContactFilter::default();
    let mut seen = Vec::new();
    let e = client.get_contact("c401", false).await.unwrap_err();
    assert_eq!(e, ApiError::Unauthorized);
    seen.push(e);
    let e = client.get_contact("c404", false).await.unwrap_err();
    assert_eq!(
        e,
        ApiError::NotFound {
            what: "contact c404".into()
        }
    );
    assert_eq!(e.to_string(), "contact c404 was not found");
    seen.push(e);
    let e = client
        .update_contact("c422", &ContactPatch::default())
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
        .update_contact("c422m", &ContactPatch::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ApiError::Validation { message, fields } if message == "unknown tag: vipp" && fields.is_empty()),
        "{e:?}"
    );
    seen.push(e);
    let e = client.get_contact("c403", false).await.unwrap_err();
    assert_eq!(
        e,
        ApiError::Rejected {
            status: 403,
            message: "forbidden here".into()
        }
    );
    seen.push(e);
    let e = client.get_contact("c429", false).await.unwrap_err();
    assert_eq!(
        e,
        ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(7))
        }
    );
    assert!(e.to_string().contains("7 s"), "{e}");
    seen.push(e);
    let e = client.get_contact("c500", false).await.unwrap_err();
    assert_eq!(
        e,
        ApiError::Server {
            status: 500,
            message: "boom".into()
        }
    );
    seen.push(e);
    let e = client.get_contact("c503", false).await.unwrap_err();
    assert!(matches!(e, ApiError::Server { status: 503, .. }), "{e:?}");
    seen.push(e);
    let e = client.get_contact("cbad", false).await.unwrap_err();
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
    let e = client.get_contact("c204", false).await.unwrap_err();
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
    let e = client.list_contacts(&none, &PageRequest::Number(8)).await.unwrap_err();
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
    assert_eq!(requests(&server).await.len(), 2, "a timed-out GET is retried");
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
        client.update_contact("c1", &ContactPatch::default()).await.unwrap_err(),
    ];
    for e in &errors {
        assert!(!matches!(e, ApiError::Config(_)), "{e:?}");
        assert_no_key(e);
    }
}

// ---------- NotOffered vs NotFound ----------

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

// ---------- retries ----------

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
    client.close_conversation(CONTACT_UUID).await.unwrap();
    client.open_conversation(CONTACT_UUID).await.unwrap();
    client
        .update_contact(CONTACT_UUID, &ContactPatch::default())
        .await
        .unwrap();
    client.set_bot(CONTACT_UUID, BotAction::Start).await.unwrap();
    client
        .set_user_status("u1", &UserStatusUpdate::default())
        .await
        .unwrap();
    client.rename_template("t1", "x").await.unwrap();
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
    let e = client.create_contact(&NewContact::default()).await.unwrap_err();
    assert!(matches!(e, ApiError::Server { status: 500, .. }), "{e:?}");
    let e = client
        .send_message(&SendMessage::text("+1", "messaging_app", "hi"))
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Server { status: 503, .. }), "{e:?}");
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

// ---------- pagination ----------

#[tokio::test]
async fn page_above_500_is_refused_before_any_request() {
    let (server, client) = setup().await;
    let e = client
        .list_contacts(&ContactFilter::default(), &PageRequest::Number(501))
        .await
        .unwrap_err();
    assert_eq!(e, ApiError::Pagination("Pagination limit exceeded".into()));
    assert!(requests(&server).await.is_empty());
}

fn contacts_page(uuids: &[&str], next: Option<&str>) -> ResponseTemplate {
    let contacts: Vec<Value> = uuids.iter().map(|u| json!({"uuid": u, "name": u})).collect();
    status_json(200, json!({"contacts": contacts, "meta": {"next": next}}))
}

#[tokio::test]
async fn cursor_walk_resends_filters_until_next_is_null() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/v1/contacts"))
        .and(query_param("after", "c1"))
        .respond_with(contacts_page(&["b1", "b2"], Some("c2")))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/contacts"))
        .and(query_param("after", "c2"))
        .respond_with(contacts_page(&["c1"], None))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/contacts"))
        .respond_with(contacts_page(&["a1", "a2"], Some("c1")))
        .with_priority(10)
        .mount(&server)
        .await;
    let filter = ContactFilter {
        source: Some("messaging_app".into()),
        tags: vec!["vip".into(), "new".into()],
        team_uuid: Some("tm1".into()),
        include_field_types: true,
    };
    let all = client.all_contacts(filter.clone()).await.unwrap();
    let names: Vec<&str> = all.iter().map(|c| c.uuid.as_str()).collect();
    assert_eq!(names, ["a1", "a2", "b1", "b2", "c1"]);

    let got = requests(&server).await;
    assert_eq!(got.len(), 3);
    for (i, r) in got.iter().enumerate() {
        let q = query_of(r);
        assert_eq!(
            q.get("source").map(String::as_str),
            Some("messaging_app"),
            "request {i}"
        );
        assert_eq!(q.get("tags").map(String::as_str), Some("vip,new"), "request {i}");
        assert_eq!(q.get("team_uuid").map(String::as_str), Some("tm1"), "request {i}");
        assert_eq!(
            q.get("include_field_types").map(String::as_str),
            Some("true"),
            "request {i}"
        );
        assert!(!q.contains_key("page"), "request {i} must not send page");
    }
    assert_eq!(query_of(&got[0]).get("after"), None);
    assert_eq!(query_of(&got[1])["after"], "c1");
    assert_eq!(query_of(&got[2])["after"], "c2");

    let pages: Vec<_> = client.walk_contacts(filter).collect().await;
    assert_eq!(pages.len(), 3);
    assert!(pages.iter().all(Result::is_ok));
}

#[tokio::test]
async fn a_repeated_cursor_ends_the_walk_with_an_error() {
    let (server, client) = setup().await;
    Mock::given(method("GET"))
        .and(path(format!("/v1/contacts/{CONTACT_UUID}/messages")))
        .and(query_param("after", "loop"))
        .respond_with(status_json(
            200,
            json!({"messages": [{"uuid": "m2"}], "meta": {"next": "loop"}}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/v1/contacts/{CONTACT_UUID}/messages")))
        .respond_with(status_json(
            200,
            json!({"messages": [{"uuid": "m1"}], "meta": {"next": "loop"}}),
        ))
        .with_priority(10)
        .mount(&server)
        .await;
    let out: Vec<_> = tokio::time::timeout(Duration::from_secs(10), client.walk_messages(CONTACT_UUID).collect())
        .await
        .expect("the walk ends");
    assert_eq!(out.len(), 3);
    assert!(out[0].is_ok() && out[1].is_ok());
    assert_eq!(
        out[2],
        Err(ApiError::Pagination(
            "the server repeated a pagination cursor; stopping the walk".into()
        ))
    );
    assert_eq!(requests(&server).await.len(), 2);
}

#[tokio::test]
async fn a_walk_ends_on_the_first_error() {
    let (server, client) = setup().await;
    serve(
        &server,
        "GET",
        "/v1/contacts",
        status_json(401, json!({"error": "nope"})),
    )
    .await;
    let out: Vec<_> = client.walk_contacts(ContactFilter::default()).collect().await;
    assert_eq!(out, vec![Err(ApiError::Unauthorized)]);
}

#[tokio::test]
async fn numbered_walks_visit_every_page() {
    let (server, client) = setup().await;
    for n in 1..=3u32 {
        Mock::given(method("GET"))
            .and(path("/v1/templates"))
            .and(query_param("page", n.to_string().as_str()))
            .respond_with(status_json(
                200,
                json!({"templates": [{"uuid": format!("t{n}")}], "meta": {"page": n, "pages": 3}}),
            ))
            .mount(&server)
            .await;
    }
    let pages: Vec<_> = client.walk_templates().collect().await;
    let uuids: Vec<String> = pages
        .into_iter()
        .flat_map(|p| p.unwrap().items)
        .map(|t| t.uuid)
        .collect();
    assert_eq!(uuids, ["t1", "t2", "t3"]);
    assert_eq!(requests(&server).await.len(), 3);
}

// ---------- delete ----------

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
    client.delete_message("m1").await.unwrap();
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
        client.delete_message("m1").await.unwrap();
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
    let e = client.delete_message("m9").await.unwrap_err();
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
    let e = client.delete_message("m1").await.unwrap_err();
    assert!(matches!(e, ApiError::Validation { .. }), "{e:?}");
    assert_eq!(requests(&server).await.len(), 1);
}
