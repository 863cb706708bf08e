//! The API client against a local responder (wiremock on 127.0.0.1):
//! every endpoint's request and decoding, status mapping, retries,
//! cursor walks, the delete fallback, and the key's secrecy.

use std::collections::HashMap;
use std::time::Duration;

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

#[path = "api/delete.rs"]
mod delete;
#[path = "api/endpoints.rs"]
mod endpoints;
#[path = "api/errors.rs"]
mod errors;
#[path = "api/lost.rs"]
mod lost;
#[path = "api/pages.rs"]
mod pages;
#[path = "api/retries.rs"]
mod retries;

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
    client
        .close_conversation(&ContactId::new(CONTACT_UUID.to_string()))
        .await
        .unwrap();
    server.verify().await;
}

#[tokio::test]
async fn ids_are_percent_encoded_path_segments() {
    let (server, client) = setup().await;
    let e = client
        .get_contact(&ContactId::new("a/b?x".to_string()), false)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
    let got = requests(&server).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].url.path(), "/v1/contacts/a%2Fb%3Fx");
    assert_eq!(got[0].url.query(), None);
    // A dot segment would address another resource: refused unsent.
    for id in ["..", ".", " "] {
        assert!(
            client
                .get_contact(&ContactId::new(id.to_string()), false)
                .await
                .is_err()
        );
    }
    assert_eq!(requests(&server).await.len(), 1);
}
