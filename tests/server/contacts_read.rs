//! GET /contacts and GET /contacts/:uuid: auth, pages, cursors, filters, shapes.

use super::*;

#[tokio::test]
async fn every_route_requires_the_key() {
    let srv = default_server().await;
    let c = reqwest::Client::new();
    let routes = [
        (Method::GET, "/contacts"),
        (Method::POST, "/contacts"),
        (Method::GET, "/plan"),
        (Method::GET, "/webhooks/events"),
        (Method::DELETE, "/messages"),
        (Method::PUT, "/users/x/status"),
        (Method::GET, "/no/such/route"),
    ];
    for (m, path) in routes {
        let url = format!("{}{path}", srv.s.base_url);
        let none = c.request(m.clone(), &url).send().await.unwrap();
        assert_eq!(none.status(), StatusCode::UNAUTHORIZED, "{m} {path} without key");
        let body: Value = none.json().await.unwrap();
        assert!(body["error"].is_string());
        let wrong = c.request(m.clone(), &url).bearer_auth("nope").send().await.unwrap();
        assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED, "{m} {path} wrong key");
    }
    let (st, v) = srv.get("/no/such/route").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(v["error"].is_string());
    srv.s.stop().await;
}

#[tokio::test]
async fn cursor_and_page_walks_over_10_500_contacts() {
    let srv = spawn(ServerConfig {
        contacts: 10_500,
        ..Default::default()
    })
    .await;
    let first = srv.ok("/contacts?page=1").await;
    assert_eq!(first["meta"]["page"], 1);
    assert_eq!(first["meta"]["pages"], 525);
    assert!(first["meta"]["next"].is_string());

    // Cursor walk, creating contacts while it runs: they must stay out, and
    // nothing may repeat or go missing.
    let mut seen = Vec::new();
    let mut v = first.clone();
    let mut created = Vec::new();
    let mut batches = 0;
    loop {
        let batch = v["contacts"].as_array().unwrap();
        assert!(batch.len() <= 20);
        seen.extend(batch.iter().cloned());
        batches += 1;
        if batches % 100 == 0 {
            let (st, c) = srv.create(new_contact(&format!("+1999000{batches}"))).await;
            assert_eq!(st, StatusCode::CREATED, "{c}");
            created.push(c["contact"][0]["uuid"].as_str().unwrap().to_string());
        }
        match v["meta"]["next"].as_str() {
            None => break,
            Some(n) => v = srv.ok(&format!("/contacts?after={n}&page=3")).await,
        }
        assert!(v["meta"].get("next").is_some(), "meta.next always present");
    }
    let ids = uuids(&seen);
    assert_eq!(ids.len(), 10_500);
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 10_500, "no duplicates");
    assert!(
        created.iter().all(|c| !ids.contains(c)),
        "contacts created mid-walk are excluded"
    );
    // Most recent conversation first: the newest message of each of the
    // first contacts is no newer than the one before (no lastMessageAt to
    // read: the service has none).
    let mut times = Vec::new();
    for c in seen.iter().take(60) {
        assert!(c.get("lastMessageAt").is_none(), "{c}");
        let m = srv
            .ok(&format!("/contacts/{}/messages", c["uuid"].as_str().unwrap()))
            .await;
        times.push(m["messages"][0]["createdAt"].as_str().unwrap().to_string());
    }
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "most recent first: {times:?}");

    // Page mode gives the same order (the new contacts sit on top now).
    let mut by_page = Vec::new();
    for p in 1..=500 {
        let v = srv.ok(&format!("/contacts?page={p}")).await;
        by_page.extend(uuids(v["contacts"].as_array().unwrap()));
    }
    let skip = created.len();
    assert_eq!(
        &by_page[..skip],
        created.iter().rev().cloned().collect::<Vec<_>>().as_slice()
    );
    assert_eq!(by_page[skip..], ids[..10_000 - skip]);

    let (st, v) = srv.get("/contacts?page=501").await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"], "Pagination limit exceeded");
    srv.s.stop().await;
}

#[tokio::test]
async fn malformed_cursor_and_pages() {
    let srv = default_server().await;
    for bad in ["garbage", "ZmQxOjE6Mg", "%00%01", "ZmQxOmE6YjpjOmQ"] {
        let (st, v) = srv.get(&format!("/contacts?after={bad}")).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}");
        assert_eq!(v["error"], "Invalid pagination cursor");
    }
    let (st, _) = srv.get("/contacts?page=abc").await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    // `after` wins over `page`, even an out-of-range one.
    let next = srv.ok("/contacts").await["meta"]["next"].as_str().unwrap().to_string();
    let a = srv.ok(&format!("/contacts?after={next}&page=900")).await;
    let b = srv.ok("/contacts?page=2").await;
    assert_eq!(
        uuids(a["contacts"].as_array().unwrap()),
        uuids(b["contacts"].as_array().unwrap())
    );
    assert!(a["meta"].get("page").is_none());
    // The last page says so.
    let last = srv.ok("/contacts?page=15").await;
    assert_eq!(last["meta"]["pages"], 15);
    assert!(last["meta"]["next"].is_null());
    let beyond = srv.ok("/contacts?page=16").await;
    assert_eq!(beyond["contacts"].as_array().unwrap().len(), 0);
    srv.s.stop().await;
}

#[tokio::test]
async fn filters_apply_to_pages_and_cursors_alike() {
    let srv = default_server().await;
    let team = srv.s.manifest.teams[1].uuid.clone();
    for filter in [
        "source=whatsapp",
        "tags=VIP",
        "tags=vip,Lead",
        &format!("team_uuid={team}"),
        "source=telegram&tags=urgent",
    ] {
        let walked = srv.walk(filter).await;
        assert!(!walked.is_empty(), "{filter} matches something");
        let mut paged = Vec::new();
        let first = srv.ok(&format!("/contacts?{filter}")).await;
        let pages = first["meta"]["pages"].as_u64().unwrap();
        for p in 1..=pages {
            let v = srv.ok(&format!("/contacts?{filter}&page={p}")).await;
            paged.extend(v["contacts"].as_array().unwrap().iter().cloned());
        }
        assert_eq!(uuids(&walked), uuids(&paged), "{filter}");
        for c in &walked {
            let tags: Vec<String> = c["tags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_lowercase())
                .collect();
            if filter.contains("source=whatsapp") {
                assert_eq!(c["source"], "whatsapp");
            }
            if filter == "tags=VIP" {
                assert!(tags.contains(&"vip".into()));
            }
            if filter == "tags=vip,Lead" {
                assert!(
                    tags.contains(&"vip".into()) && tags.contains(&"lead".into()),
                    "all tags: {tags:?}"
                );
            }
            if filter.starts_with("team_uuid") {
                assert_eq!(c["team"]["uuid"], team.as_str());
            }
        }
    }
    let all = srv.walk("").await.len();
    assert_eq!(all, 300);
    assert!(srv.walk("source=whatsapp").await.len() < all);
    srv.s.stop().await;
}

#[tokio::test]
async fn contact_shape_and_field_types() {
    let srv = default_server().await;
    let c = srv.first_contact().await;
    for key in [
        "uuid",
        "name",
        "phoneNumber",
        "avatarUrl",
        "createdAt",
        "source",
        "href",
        "conversationHref",
        "assignedUser",
        "tags",
        "customFields",
        "closedAt",
        "funnelId",
        "team",
        "channel",
        "blockedAt",
        "note",
    ] {
        assert!(c.get(key).is_some(), "missing {key}: {c}");
    }
    assert!(
        c.get("lastMessageAt").is_none(),
        "the service has no lastMessageAt: {c}"
    );
    let uuid = c["uuid"].as_str().unwrap();
    assert_eq!(uuid.len(), 32);
    assert!(uuid.chars().all(|ch| ch.is_ascii_hexdigit()));
    assert_eq!(c["href"], format!("https://app.example.com/contacts/{uuid}"));
    assert!(c["createdAt"].as_str().unwrap().ends_with('Z'));
    assert!(c["team"].is_object());

    let v = srv.ok("/contacts?include_field_types=true").await;
    let mut saw_checkbox = false;
    for c in v["contacts"].as_array().unwrap() {
        let meta = &c["customFieldsMetadata"];
        assert_eq!(meta["Interests"]["type"], "checkbox");
        assert!(meta["Interests"]["value"].is_array());
        assert_eq!(meta["Plan"]["options"], json!(["Free", "Pro", "Enterprise"]));
        if let Some(raw) = c["customFields"]["Interests"].as_str() {
            let decoded: Value = serde_json::from_str(raw).unwrap();
            assert_eq!(decoded, meta["Interests"]["value"]);
            saw_checkbox = true;
        }
    }
    assert!(saw_checkbox, "some contact on page one has a checkbox value");
    let one = srv.ok(&format!("/contacts/{uuid}?include_field_types=true")).await;
    assert!(one["contact"][0]["customFieldsMetadata"].is_object());
    let (st, v) = srv.get("/contacts/ffffffffffffffffffffffffffffffff").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(v["error"].is_string());
    srv.s.stop().await;
}
