//! The conversation's timeline through a hub (issue 36): an assignment
//! and a close by one agent show in the other agent's timeline of that
//! contact, with who did them, in order.

use frontdesk::api::ContactId;
use frontdesk::triage::bulk::Action;

use super::common;
use super::support;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assignment_by_one_agent_shows_in_the_others_timeline() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let raw = common::Raw::new(&t.server);
    let list = raw.ok("/contacts").await["contacts"].clone();
    let uuid = list[2]["uuid"].as_str().expect("uuid").to_string();
    let id = ContactId::from(uuid.as_str());
    let client = t.dana.client();
    client
        .update_contact(
            &id,
            &Action::Assign("alex@frontdesk.example".into())
                .patch()
                .expect("a patch"),
        )
        .await
        .expect("assigned via the hub");
    client.close_conversation(&id).await.expect("closed via the hub");
    // A write that changes no conversation is no event.
    let (_, other) = t
        .lee
        .json(&format!("/hub/v1/timeline/{}", list[3]["uuid"].as_str().expect("uuid")))
        .await;
    assert_eq!(other["events"], serde_json::json!([]), "{other}");

    let (status, timeline) = t.lee.json(&format!("/hub/v1/timeline/{uuid}")).await;
    assert!(status.is_success(), "{timeline}");
    let events = timeline["events"].as_array().expect("events");
    let said: Vec<(String, String)> = events
        .iter()
        .map(|e| {
            (
                e["agent"].as_str().unwrap_or("someone").to_string(),
                e["what"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(
        said,
        vec![
            ("dana".to_string(), "assigned to alex@frontdesk.example".to_string()),
            ("dana".to_string(), "closed".to_string()),
        ],
        "{timeline}"
    );
    assert!(events[0]["at"].as_str() <= events[1]["at"].as_str());
    let (status, _) = t.lee.json("/hub/v1/timeline/not_a_uuid").await;
    assert_eq!(status.as_u16(), 400);
    t.hub.stop().await;
}
