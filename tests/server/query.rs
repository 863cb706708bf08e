//! Query strings: page numbers however large or malformed, and typed
//! parameters whose bad values answer a JSON 400 naming the parameter.

use super::*;

/// Every paged list but the contact list (which keeps the reference's
/// 500-page limit), with the key of its items.
async fn paged_lists(srv: &Srv) -> Vec<(String, &'static str)> {
    let contact = srv.first_contact().await["uuid"].as_str().unwrap().to_string();
    let team = srv.ok("/teams").await["teams"][0]["uuid"].as_str().unwrap().to_string();
    vec![
        (format!("/contacts/{contact}/messages"), "messages"),
        ("/webhooks/events".into(), "webhook_events"),
        ("/templates".into(), "templates"),
        ("/channels".into(), "channels"),
        ("/custom_statuses".into(), "customStatuses"),
        ("/teams".into(), "teams"),
        (format!("/teams/{team}/members"), "users"),
    ]
}

#[tokio::test]
async fn reported_overflows_answer_an_empty_page() {
    let srv = default_server().await;
    let v = srv.ok("/webhooks/events?page=1000000000000000000").await;
    assert_eq!(v["webhook_events"], json!([]), "{v}");
    assert_eq!(v["meta"]["page"], json!(1_000_000_000_000_000_000_u64));
    let contact = srv.first_contact().await["uuid"].as_str().unwrap().to_string();
    let first = srv.ok(&format!("/contacts/{contact}/messages")).await;
    assert!(!first["messages"].as_array().unwrap().is_empty());
    let v = srv
        .ok(&format!("/contacts/{contact}/messages?page=922337203685477581"))
        .await;
    assert_eq!(v["messages"], json!([]), "not page 1 again: {v}");
    assert_eq!(v["meta"]["next"], Value::Null);
    srv.s.stop().await;
}

#[tokio::test]
async fn every_page_past_the_end_is_empty_with_the_usual_meta() {
    let srv = default_server().await;
    for (path, key) in paged_lists(&srv).await {
        let pages = srv.ok(&path).await["meta"]["pages"].as_u64().unwrap();
        for page in [
            (pages + 1).to_string(),
            "1000".to_string(),
            "461168601842738791".to_string(),
            u64::MAX.to_string(),
            "99999999999999999999999999999".to_string(),
        ] {
            let (st, v) = srv.get(&format!("{path}?page={page}")).await;
            assert_eq!(st, StatusCode::OK, "{path}?page={page}: {v}");
            assert_eq!(v[key], json!([]), "{path}?page={page}: {v}");
            assert_eq!(v["meta"]["pages"].as_u64(), Some(pages), "{path}?page={page}");
        }
    }
    srv.s.stop().await;
}

#[tokio::test]
async fn bad_page_numbers_are_a_400_naming_page() {
    let srv = default_server().await;
    let mut paths: Vec<String> = paged_lists(&srv).await.into_iter().map(|p| p.0).collect();
    paths.push("/contacts".into());
    for path in paths {
        for bad in ["abc", "-1", "0", "1.5", "1e3", "%20-3"] {
            let (st, v) = srv.get(&format!("{path}?page={bad}")).await;
            assert_eq!(st, StatusCode::BAD_REQUEST, "{path}?page={bad}: {v}");
            let msg = v["error"].as_str().unwrap_or_else(|| panic!("{path}?page={bad}: {v}"));
            assert!(msg.contains("page") && msg.contains("positive integer"), "{msg}");
        }
    }
    // The contact list keeps the reference's limit.
    let (st, v) = srv.get("/contacts?page=99999999999999999999").await;
    assert_eq!(
        (st, v["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("Pagination limit exceeded"))
    );
    srv.s.stop().await;
}

#[tokio::test]
async fn typed_parameters_name_the_bad_one() {
    let srv = default_server().await;
    let uuid = srv.first_contact().await["uuid"].as_str().unwrap().to_string();
    for path in [
        "/contacts?include_field_types=maybe".to_string(),
        format!("/contacts/{uuid}?include_field_types=2"),
    ] {
        let (st, v) = srv.get(&path).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{path}: {v}");
        let msg = v["error"].as_str().unwrap();
        assert!(msg.contains("include_field_types"), "{msg}");
    }
    // Accepted spellings, and unknown parameters are ignored.
    for ok in ["true", "TRUE", "1", "false", "0", ""] {
        srv.ok(&format!("/contacts?include_field_types={ok}&whatever=1")).await;
    }
    let with = srv.ok("/contacts?include_field_types=true").await;
    let without = srv.ok("/contacts?include_field_types=false").await;
    assert_ne!(with, without, "the flag is read");
    // items stays a 422 naming `items` (extensions.md).
    let (st, v) = srv.get("/webhooks/events?items=500").await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"]["items"].is_array(), "{v}");
    srv.s.stop().await;
}
