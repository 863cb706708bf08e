//! Persistence, fault knobs, determinism, demo data, live activity, the binary.

use super::*;

#[tokio::test]
async fn a_database_file_keeps_every_change_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.sqlite");
    let cfg = ServerConfig {
        db: Some(db.clone()),
        contacts: 50,
        ..Default::default()
    };
    let srv = spawn(cfg.clone()).await;
    let key = srv.s.api_key.clone();
    let first = srv.first_contact().await;
    let uuid = first["uuid"].as_str().unwrap().to_string();
    srv.patch(
        &format!("/contacts/{uuid}"),
        json!({ "name": "Renamed ✨", "note": "persist me" }),
    )
    .await;
    srv.post(&format!("/contacts/{uuid}/conversation/close"), json!(null))
        .await;
    let (_, v) = srv.create(new_contact("+3900000001")).await;
    let created = v["contact"][0].clone();
    let manifest = srv.s.manifest.clone();
    let before = srv.walk("").await;
    srv.s.stop().await;

    // A different seed must not matter: the file is not seeded again.
    // Only the key's hash is stored: a restart without a key issues a new
    // one, and the old one stops working.
    let srv = spawn(ServerConfig {
        seed: 999,
        ..cfg.clone()
    })
    .await;
    assert_ne!(srv.s.api_key, key, "a new key is issued");
    let old = common::Raw::at(&srv.s.base_url, &key);
    assert_eq!(old.get("/plan").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(srv.s.manifest.users, manifest.users);
    assert_eq!(srv.s.manifest.contacts, 51);
    let c = srv.contact(&uuid).await;
    assert_eq!(
        (c["name"].as_str(), c["note"].as_str()),
        (Some("Renamed ✨"), Some("persist me"))
    );
    assert!(c["closedAt"].is_string());
    assert_eq!(srv.contact(created["uuid"].as_str().unwrap()).await, created);
    assert_eq!(srv.walk("").await, before);
    srv.s.stop().await;

    // The operator's key is kept across restarts when given each time.
    let srv = spawn(ServerConfig {
        api_key: Some("operator-key".into()),
        ..cfg
    })
    .await;
    assert_eq!(srv.s.api_key, "operator-key");
    assert_eq!(srv.walk("").await, before);
    srv.s.stop().await;
}

#[tokio::test]
async fn fault_knobs() {
    let srv = spawn(ServerConfig {
        fail_rate: 1.0,
        contacts: 5,
        ..Default::default()
    })
    .await;
    let (st, v) = srv.get("/contacts").await;
    assert_eq!(
        (st, v),
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({ "error": "simulated failure" })
        )
    );
    srv.s.stop().await;

    let srv = spawn(ServerConfig {
        rate_limit: Some(3),
        contacts: 5,
        ..Default::default()
    })
    .await;
    let mut limited = None;
    for _ in 0..10 {
        let resp = srv
            .c
            .get(format!("{}/plan", srv.s.base_url))
            .bearer_auth(&srv.s.api_key)
            .send()
            .await
            .unwrap();
        if resp.status() == StatusCode::TOO_MANY_REQUESTS {
            limited = Some(resp);
            break;
        }
    }
    let resp = limited.expect("more than 3 requests in a second are limited");
    let retry: u64 = resp.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry));
    assert!(resp.json::<Value>().await.unwrap()["error"].is_string());
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(srv.get("/plan").await.0, StatusCode::OK, "the window passes");
    srv.s.stop().await;

    let srv = spawn(ServerConfig {
        latency_ms: 250,
        contacts: 5,
        ..Default::default()
    })
    .await;
    let t = Instant::now();
    assert_eq!(srv.get("/plan").await.0, StatusCode::OK);
    assert!(t.elapsed() >= Duration::from_millis(250));
    srv.s.stop().await;

    let srv = spawn(ServerConfig {
        fail_rate: 0.5,
        contacts: 5,
        ..Default::default()
    })
    .await;
    let mut codes = HashSet::new();
    for _ in 0..60 {
        codes.insert(srv.get("/plan").await.0.as_u16());
    }
    assert_eq!(codes, HashSet::from([200, 500]));
    srv.s.stop().await;
}

#[tokio::test]
async fn the_same_seed_gives_the_same_account() {
    let names = |v: &Value| -> Vec<(String, String, String)> {
        v["contacts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["uuid"].as_str().unwrap().into(),
                    c["name"].as_str().unwrap().into(),
                    c["phoneNumber"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    let strip = |mut m: frontdesk::server::Manifest| {
        m.base_url.clear();
        m.api_key.clear();
        m
    };
    let a = spawn(ServerConfig {
        seed: 7,
        ..Default::default()
    })
    .await;
    let b = spawn(ServerConfig {
        seed: 7,
        ..Default::default()
    })
    .await;
    let c = spawn(ServerConfig {
        seed: 8,
        ..Default::default()
    })
    .await;
    assert_ne!(a.s.api_key, b.s.api_key, "generated keys differ");
    assert_eq!(strip(a.s.manifest.clone()), strip(b.s.manifest.clone()));
    assert_ne!(strip(a.s.manifest.clone()).users, strip(c.s.manifest.clone()).users);
    let (pa, pb, pc) = (
        a.ok("/contacts").await,
        b.ok("/contacts").await,
        c.ok("/contacts").await,
    );
    assert_eq!(names(&pa), names(&pb));
    assert_ne!(names(&pa), names(&pc));
    let uuid = pa["contacts"][0]["uuid"].as_str().unwrap();
    let ma = a.ok(&format!("/contacts/{uuid}/messages")).await;
    let mb = b.ok(&format!("/contacts/{uuid}/messages")).await;
    assert_eq!(ma, mb);
    let m = a.s.manifest.clone();
    assert_eq!(m.contacts, 300);
    assert_eq!(m.channels.iter().filter(|c| c.main).count(), 1);
    let kinds: HashSet<&str> = m.custom_fields.values().map(|f| f.field_type.as_str()).collect();
    assert_eq!(
        kinds,
        HashSet::from(["text", "email", "number", "date", "dropdown", "checkbox"])
    );
    assert!(m.bot_enabled && m.users.len() >= 3 && m.teams.len() >= 2 && m.sources.len() >= 4 && !m.tags.is_empty());
    for s in [a, b, c] {
        s.s.stop().await;
    }
}

#[tokio::test]
async fn demo_text_is_hostile_to_terminals() {
    let srv = default_server().await;
    let mut texts = String::new();
    let mut longest = 0;
    for c in srv.walk("").await.iter().take(60) {
        texts.push_str(c["name"].as_str().unwrap());
        let m = srv
            .ok(&format!("/contacts/{}/messages", c["uuid"].as_str().unwrap()))
            .await;
        for msg in m["messages"].as_array().unwrap() {
            let t = msg["text"].as_str().unwrap();
            longest = longest.max(t.chars().count());
            texts.push_str(t);
            texts.push('\n');
        }
    }
    assert!(texts.contains('\u{1b}'), "escape sequences");
    assert!(
        texts.chars().any(|c| ('\u{0590}'..='\u{06FF}').contains(&c)),
        "right-to-left"
    );
    assert!(texts.chars().any(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c)), "CJK");
    assert!(
        texts.chars().any(|c| ('\u{0300}'..='\u{036F}').contains(&c)),
        "combining marks"
    );
    assert!(texts.chars().any(|c| c as u32 >= 0x1F300), "emoji");
    assert!(longest > 2000, "a very long message ({longest})");
    srv.s.stop().await;
}

#[tokio::test]
async fn live_activity_moves_conversations() {
    let srv = spawn(ServerConfig {
        activity: true,
        activity_interval_ms: 100,
        contacts: 40,
        ..Default::default()
    })
    .await;
    let before = srv.ok("/webhooks/events?subscriptions=message_created").await["webhook_events"]
        .as_array()
        .unwrap()
        .len();
    tokio::time::sleep(Duration::from_millis(700)).await;
    let events = srv.ok("/webhooks/events?subscriptions=message_created&items=100").await;
    assert!(
        events["webhook_events"].as_array().unwrap().len() > before,
        "customers wrote"
    );
    let top = srv.first_contact().await;
    let msgs = srv
        .ok(&format!("/contacts/{}/messages", top["uuid"].as_str().unwrap()))
        .await;
    // The top of the list is the conversation that moved last.
    let newest = &msgs["messages"][0];
    assert!(top.get("lastMessageAt").is_none(), "{top}");
    let at = chrono::DateTime::parse_from_rfc3339(newest["createdAt"].as_str().unwrap()).unwrap();
    assert!(chrono::Utc::now() - at.to_utc() < chrono::TimeDelta::seconds(5));
    srv.s.stop().await;
}

#[test]
fn frontdesk_serve_prints_the_ready_lines_and_writes_the_manifest() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("manifest.json");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_frontdesk"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--contacts",
            "25",
            "--no-activity",
            "--api-key",
            "k-123",
            "--manifest",
        ])
        .arg(&manifest)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (mut l1, mut l2) = (String::new(), String::new());
    out.read_line(&mut l1).unwrap();
    out.read_line(&mut l2).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let url = l1.trim().strip_prefix("frontdesk serve: listening on ").expect(&l1);
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with("/v1"), "{url}");
    assert_eq!(l2.trim(), "frontdesk serve: api key k-123");
    let m: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    let mut keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "api_key",
            "base_url",
            "bot_enabled",
            "channels",
            "collaborators",
            "contacts",
            "custom_fields",
            "custom_statuses",
            "sources",
            "tags",
            "teams",
            "users"
        ]
    );
    assert_eq!(
        (m["base_url"].as_str(), m["api_key"].as_str(), m["contacts"].as_u64()),
        (Some(url), Some("k-123"), Some(25))
    );
    assert!(m["channels"][0]["type"].is_string() && m["custom_fields"]["Plan"]["type"] == "dropdown");
}
