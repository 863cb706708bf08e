//! Page limits, cursor walks (filters resent, repeated cursors) and numbered walks.

use super::*;

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
    // The walk, then one top-up pass from the top: its first page holds
    // only contacts met before, in the same order, so nobody moved.
    assert_eq!(got.len(), 4);
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
    let out: Vec<_> = tokio::time::timeout(
        Duration::from_secs(10),
        client
            .walk_messages(&ContactId::new(CONTACT_UUID.to_string()))
            .collect(),
    )
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
