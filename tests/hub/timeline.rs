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

/// Lee assigns a conversation dana took since lee last saw it: nothing is
/// written, and the question names dana and says how long ago, from the
/// hub's timeline (issue 36).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_question_says_who_took_it_and_when() {
    use frontdesk::hubclient::HubClient;
    use frontdesk::triage::owner::Seen;
    use frontdesk::tui::act::{Guard, Hub, perform};
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let raw = common::Raw::new(&t.server);
    let list = raw.ok("/contacts").await["contacts"].clone();
    let uuid = list[4]["uuid"].as_str().expect("uuid").to_string();
    let id = ContactId::from(uuid.as_str());
    let lee = t.lee.client();
    // Lee's screen shows it as it is now.
    let seen = lee.get_contact(&id, false).await.expect("read");
    t.dana
        .client()
        .update_contact(
            &id,
            &Action::Assign("dana@frontdesk.example".into())
                .patch()
                .expect("a patch"),
        )
        .await
        .expect("dana took it");
    let hub = HubClient::new(&t.hub.url, &t.lee.token, std::time::Duration::from_secs(10)).expect("hub client");
    let guard = Guard::Owner {
        seen: Seen::of(&seen),
        me: Some("bea@frontdesk.example".into()),
        hub: Some(Hub(hub)),
    };
    let answer = perform(
        &lee,
        &uuid,
        &Action::Assign("bea@frontdesk.example".into()),
        Some(&guard),
    )
    .await;
    let said = answer.changed.expect("asked, not written");
    assert!(said.contains("dana@frontdesk.example took it"), "{said}");
    assert!(
        said.contains("dana assigned to dana@frontdesk.example") && said.ends_with(" s ago"),
        "{said}"
    );
    let now = lee.get_contact(&id, false).await.expect("read");
    assert_eq!(
        now.assigned_user.as_deref(),
        Some("dana@frontdesk.example"),
        "lee's write was not made"
    );
    t.hub.stop().await;
}
