//! The fault knobs the write tests lean on: a write applied whose answer
//! is a 500 (`--apply-then-fail`), and an answer computed at once but held
//! back (`--hold-ms`, `--hold-path`).

use frontdesk::server::{FaultKnobs, HoldGate};

use super::*;

#[tokio::test]
async fn apply_then_fail_applies_the_write_and_answers_500() {
    let srv = spawn(ServerConfig {
        knobs: FaultKnobs {
            apply_then_fail: 1.0,
            ..FaultKnobs::default()
        },
        ..common::config(20, 3)
    })
    .await;
    let uuid = srv.first_contact().await["uuid"].as_str().unwrap().to_string();
    let (st, v) = srv
        .patch(&format!("/contacts/{uuid}"), json!({ "note": "written anyway" }))
        .await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    assert_eq!(
        srv.contact(&uuid).await["note"],
        "written anyway",
        "the write was applied"
    );
    let (st, _) = srv
        .post(&format!("/contacts/{uuid}/conversation/close"), json!({}))
        .await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(!srv.contact(&uuid).await["closedAt"].is_null(), "closed all the same");
    // Reads are answered as usual.
    assert_eq!(srv.get("/contacts").await.0, StatusCode::OK);
}

/// A held list answer carries the state from when it was computed: a
/// write that lands while it is held is not in it. The order is made, not
/// hoped for: the list's answer waits at a gate until the write has landed.
#[tokio::test]
async fn a_held_list_answer_arrives_after_a_later_write_with_the_state_from_before_it() {
    let gate = HoldGate::new();
    let srv = spawn(ServerConfig {
        knobs: FaultKnobs {
            gate: Some(gate.clone()),
            hold_path: Some("/contacts".into()),
            ..FaultKnobs::default()
        },
        ..common::config(20, 3)
    })
    .await;
    // Reads while setting up must not wait at the gate: let them all pass.
    let uuid = {
        let raw = srv.raw.clone();
        let first = tokio::spawn(async move { raw.get("/contacts").await });
        gate.held().await;
        gate.release();
        let (_, page) = first.await.unwrap();
        page["contacts"][0]["uuid"].as_str().unwrap().to_string()
    };
    let note = "written while the list was held";
    let raw = srv.raw.clone();
    let list = tokio::spawn(async move { raw.get("/contacts").await });
    // The list's answer is computed and waiting before the write is sent.
    gate.held().await;
    let (st, _) = srv.patch(&format!("/contacts/{uuid}"), json!({ "note": note })).await;
    assert_eq!(st, StatusCode::OK);
    assert!(!list.is_finished(), "the list answered before it was let go");
    gate.release();
    let (st, page) = list.await.unwrap();
    assert_eq!(st, StatusCode::OK);
    let held = page["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["uuid"] == uuid.as_str())
        .cloned()
        .expect("the contact is on the held page");
    assert_ne!(
        held["note"], note,
        "the held list shows the state from before the write"
    );
    // The write itself stands.
    assert_eq!(srv.contact(&uuid).await["note"], note);
}
