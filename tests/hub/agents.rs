//! Agents, tokens and who may use the hub.

use frontdesk::hub::agents;
use frontdesk::hub::store::Store;
use reqwest::StatusCode;
use serde_json::json;

use super::support::{self, PATIENCE};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_route_without_a_known_token_is_refused_and_says_why() {
    let t = support::team().await;
    let http = reqwest::Client::new();
    for token in [None, Some("fdh_nonsense")] {
        let mut req = http.get(format!("{}/hub/v1/whoami", t.hub.url));
        if let Some(tok) = token {
            req = req.bearer_auth(tok);
        }
        let resp = req.send().await.expect("answer");
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
        let body: serde_json::Value = resp.json().await.expect("json");
        assert_eq!(body, json!({ "error": "unknown or removed agent token" }));
    }
    let resp = http
        .get(format!("{}/v1/contacts", t.hub.url))
        .bearer_auth("fdh_nonsense")
        .send()
        .await
        .expect("answer");
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "no data for an unknown token");
    let (st, me) = t.dana.json("/hub/v1/whoami").await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        (
            &me["agent"],
            &me["email"],
            &me["user_uuid"],
            &me["role"],
            &me["expires_at"]
        ),
        (
            &json!("dana"),
            &json!("dana@example.com"),
            &json!(null),
            &json!("agent"),
            &json!(null)
        ),
        "{me}"
    );
    assert_eq!(me["service"]["state"], "up", "{me}");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_agent_is_refused_at_once_and_its_open_stream_ends() {
    let t = support::team().await;
    // The first walk's events came before the removal: let them pass.
    support::wait_for_contacts(&t.dana, 30).await;
    let mut stream = t.dana.events(None).await;
    let store = Store::open(t.dir.path()).expect("store");
    agents::remove(&store, "dana").expect("removed");
    let (st, _) = t.dana.json("/hub/v1/whoami").await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);
    // The stream ends (no event is a resync or data for a removed agent).
    let ended = tokio::time::timeout(PATIENCE, async {
        while let Some(ev) = stream.next().await {
            assert_ne!(ev.kind, "contact_changed", "a removed agent got data: {ev:?}");
        }
    })
    .await;
    assert!(ended.is_ok(), "the removed agent's stream stayed open");
    let (st, _) = t.lee.json("/hub/v1/whoami").await;
    assert_eq!(st, StatusCode::OK, "the other agent is unaffected");
    t.hub.stop().await;
}

#[test]
fn agents_keep_only_a_hash_of_the_token_in_a_private_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(dir.path()).expect("store");
    let token = agents::add(&store, "dana", "dana@example.com", Some("u-1")).expect("added");
    assert!(token.starts_with("fdh_") && token.len() > 40);
    let again = agents::add(&store, "dana", "dana@example.com", None).expect_err("a second dana");
    assert!(again.to_string().contains("exists"), "{again}");
    let bad = agents::add(&store, "da\u{1b}[2Jna", "x@example.com", None).expect_err("bad name");
    assert!(!bad.to_string().contains('\u{1b}'), "the message is inert: {bad}");
    assert!(agents::add(&store, "kim", "not an email", None).is_err());
    assert_eq!(
        agents::by_token(&store, &token).expect("lookup").map(|a| a.name),
        Some("dana".into())
    );
    drop(store);
    let bytes = std::fs::read(dir.path().join("hub.sqlite")).expect("file");
    let wal = std::fs::read(dir.path().join("hub.sqlite-wal")).unwrap_or_default();
    let hay = [bytes, wal].concat();
    assert!(
        !hay.windows(token.len()).any(|w| w == token.as_bytes()),
        "the token itself is stored"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("hub.sqlite"))
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "hub.sqlite is private: {mode:o}");
    }
    let store = Store::open(dir.path()).expect("store");
    let list = agents::list(&store).expect("list");
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].user_uuid.as_deref(), Some("u-1"));
    agents::remove(&store, "dana").expect("removed");
    assert!(agents::by_token(&store, &token).expect("lookup").is_none());
    assert!(agents::remove(&store, "dana").is_err(), "removing twice says so");
}
