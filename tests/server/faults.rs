//! The fault knobs the write tests lean on: a write applied whose answer
//! is a 500 (`--apply-then-fail`), and an answer computed at once but held
//! back (`--hold-ms`, `--hold-path`).

use frontdesk::server::FaultKnobs;

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
/// write that lands while it is held is not in it. The list request is
/// sent first; in the rare run where the write still reaches the database
/// first, the scenario is tried again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_list_answer_arrives_after_a_later_write_with_the_state_from_before_it() {
    let srv = spawn(ServerConfig {
        knobs: FaultKnobs {
            hold_ms: 1500,
            hold_path: Some("/contacts".into()),
            ..FaultKnobs::default()
        },
        ..common::config(20, 3)
    })
    .await;
    let first = srv.first_contact().await;
    let uuid = first["uuid"].as_str().unwrap().to_string();
    let mut seen_old = false;
    for attempt in 0..5 {
        let note = format!("written while the list was held {attempt}");
        let raw = srv.raw.clone();
        let list = tokio::spawn(async move { raw.get("/contacts").await });
        // Single-contact reads are not held: the pattern is the list's.
        let (st, _) = srv.patch(&format!("/contacts/{uuid}"), json!({ "note": note })).await;
        assert_eq!(st, StatusCode::OK);
        let arrived_after_the_write = !list.is_finished();
        let (st, page) = list.await.unwrap();
        assert_eq!(st, StatusCode::OK);
        let held = page["contacts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["uuid"] == uuid.as_str())
            .cloned();
        if arrived_after_the_write && held.is_some_and(|c| c["note"] != note.as_str()) {
            seen_old = true;
            break;
        }
    }
    assert!(seen_old, "the held list never showed the state from before the write");
    // The write itself stands.
    assert!(
        srv.contact(&uuid).await["note"]
            .as_str()
            .unwrap()
            .starts_with("written while")
    );
}
