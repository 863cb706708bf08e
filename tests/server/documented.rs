//! What the service's public documentation adds to the reference: the
//! Contact's channel, bsuid, blockedAt and note; lookups by phone and bsuid;
//! delete; conversation notes and funnel moves; /auth/me; one channel and
//! the `active` filter; team renames; clearing a user's custom status; and
//! `--paging docs`.

use super::*;
use frontdesk::server::Paging;

fn keys(v: &Value) -> HashSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[tokio::test]
async fn contacts_carry_channel_bsuid_blocked_at_note_funnel_and_team() {
    let srv = default_server().await;
    let all = srv.walk("").await;
    assert_eq!(all.len(), 300);
    for c in &all {
        let k = keys(c);
        assert!(!k.contains("lastMessageAt"), "the service has no lastMessageAt: {c}");
        for key in ["channel", "blockedAt", "note", "funnelId", "team", "closedAt"] {
            assert!(k.contains(key), "{key} missing: {c}");
        }
        assert_eq!(
            keys(&c["channel"]),
            HashSet::from(["uuid", "title", "type", "main"].map(String::from)),
            "{c}"
        );
        assert!(c["note"].is_null() || c["note"].is_string());
        if let Some(team) = c["team"].as_object().filter(|t| !t.is_empty()) {
            for key in ["uuid", "name", "createdAt", "default", "members"] {
                assert!(team.contains_key(key), "team without {key}: {c}");
            }
        }
    }
    let with_bsuid: Vec<&Value> = all.iter().filter(|c| c["bsuid"].is_string()).collect();
    assert!(with_bsuid.len() >= 5, "some WhatsApp Cloud contacts carry a bsuid");
    assert!(with_bsuid.iter().all(|c| c["source"] == "whatsapp"));
    let phoneless: Vec<&&Value> = with_bsuid.iter().filter(|c| c["phoneNumber"].is_null()).collect();
    assert!(
        !phoneless.is_empty() && phoneless.len() < with_bsuid.len(),
        "a few have no phone"
    );
    assert!(
        all.iter()
            .filter(|c| !c.as_object().unwrap().contains_key("bsuid"))
            .count()
            > 200
    );
    assert!(all.iter().any(|c| c["blockedAt"].is_string()));
    assert!(all.iter().any(|c| c["note"].is_string()) && all.iter().any(|c| c["note"].is_null()));
    // A phoneless contact's thread is addressed by its bsuid.
    let p = phoneless[0];
    let msgs = srv
        .ok(&format!("/contacts/{}/messages", p["uuid"].as_str().unwrap()))
        .await;
    let first = &msgs["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["status"] != "note")
        .unwrap();
    assert!(first["from"] == p["bsuid"] || first["to"] == p["bsuid"], "{first}");
    srv.s.stop().await;
}

#[tokio::test]
async fn lookups_by_phone_and_bsuid_answer_the_contact_as_an_object() {
    let srv = default_server().await;
    let all = srv.walk("").await;
    let main = all
        .iter()
        .find(|c| c["channel"]["main"] == true && c["phoneNumber"].is_string())
        .unwrap();
    let phone = main["phoneNumber"].as_str().unwrap();
    // Spaces and the plus sign do not matter.
    let spaced = format!("{} {}", &phone[..4], &phone[4..]).replace('+', "%2B");
    let v = srv.ok(&format!("/contacts/phone/{spaced}")).await;
    assert!(v["contact"].is_object(), "{v}");
    assert_eq!(v["contact"]["uuid"], main["uuid"]);
    // Off the main channel the lookup needs the channel.
    let other = all
        .iter()
        .find(|c| c["channel"]["main"] == false && c["phoneNumber"].is_string())
        .unwrap();
    let other_phone = other["phoneNumber"].as_str().unwrap().replace('+', "%2B");
    let (st, _) = srv.get(&format!("/contacts/phone/{other_phone}")).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let v = srv
        .ok(&format!(
            "/contacts/phone/{other_phone}?channel_uuid={}",
            other["channel"]["uuid"].as_str().unwrap()
        ))
        .await;
    assert_eq!(v["contact"]["uuid"], other["uuid"]);
    let (st, _) = srv.get("/contacts/phone/%2B999000111222").await;
    assert_eq!(st, StatusCode::NOT_FOUND);

    let b = all.iter().find(|c| c["phoneNumber"].is_null()).unwrap();
    let v = srv
        .ok(&format!("/contacts/bsuid/{}", b["bsuid"].as_str().unwrap()))
        .await;
    assert!(v["contact"].is_object(), "{v}");
    assert_eq!(v["contact"]["uuid"], b["uuid"]);
    assert_eq!(v["contact"]["phoneNumber"], Value::Null);
    assert_eq!(srv.get("/contacts/bsuid/US.0").await.0, StatusCode::NOT_FOUND);
    srv.s.stop().await;
}

#[tokio::test]
async fn deleting_a_contact_answers_destroyed_and_it_is_gone() {
    let srv = default_server().await;
    let uuid = srv.first_contact().await["uuid"].as_str().unwrap().to_string();
    let (st, v) = srv.call(Method::DELETE, &format!("/contacts/{uuid}"), None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v, json!({ "status": "contact was destroyed" }));
    assert_eq!(srv.get(&format!("/contacts/{uuid}")).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        srv.get(&format!("/contacts/{uuid}/messages")).await.0,
        StatusCode::NOT_FOUND
    );
    let (st, _) = srv.call(Method::DELETE, &format!("/contacts/{uuid}"), None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    srv.s.stop().await;
}

#[tokio::test]
async fn a_conversation_note_is_listed_as_a_note_without_uuid() {
    let srv = default_server().await;
    let uuid = srv.first_contact().await["uuid"].as_str().unwrap().to_string();
    let path = format!("/contacts/{uuid}/conversation/note");
    let (st, v) = srv.post(&path, json!({ "text": "@bea please call back 📞" })).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v, json!({ "success": true }));
    let msgs = srv.ok(&format!("/contacts/{uuid}/messages")).await;
    let note = msgs["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["text"] == "@bea please call back 📞")
        .expect("the note is listed");
    assert_eq!(note["status"], "note");
    assert!(note.get("uuid").is_none(), "{note}");
    for body in [json!({}), json!({ "text": "  " }), json!({ "text": 5 })] {
        let (st, v) = srv.post(&path, body).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert!(v["error"]["text"].is_array(), "{v}");
    }
    assert_eq!(
        srv.post("/contacts/nope/conversation/note", json!({ "text": "x" }))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    srv.s.stop().await;
}

#[tokio::test]
async fn update_funnel_moves_the_conversation() {
    let srv = default_server().await;
    let c = srv.first_contact().await;
    let uuid = c["uuid"].as_str().unwrap();
    let funnels = srv.ok("/funnels").await["funnels"].as_array().unwrap().clone();
    let target = funnels.iter().find(|f| f["uuid"] != c["funnelId"]).unwrap();
    let path = format!("/contacts/{uuid}/conversation/update_funnel");
    let (st, v) = srv.put(&path, json!({ "funnel_uuid": target["uuid"] })).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["contact"][0]["funnelId"], target["uuid"]);
    assert_eq!(srv.contact(uuid).await["funnelId"], target["uuid"]);
    for (body, msg) in [
        (json!({}), "is required"),
        (json!({ "funnel_uuid": "nope" }), "unknown funnel"),
    ] {
        let (st, v) = srv.put(&path, body).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert!(v["error"]["funnel_uuid"][0].as_str().unwrap().contains(msg), "{v}");
    }
    srv.s.stop().await;
}

#[tokio::test]
async fn auth_me_names_the_keys_collaborator_and_never_echoes_the_key() {
    let srv = default_server().await;
    let v = srv.ok("/auth/me").await;
    assert_eq!(
        keys(&v),
        HashSet::from(["status", "user_email", "user_name", "api_key"].map(String::from))
    );
    assert_eq!(v["status"], "ok");
    let user = &srv.s.manifest.users[0];
    assert_eq!(v["user_email"], user.email.as_str());
    assert_eq!(v["user_name"], user.name.as_str());
    let shown = v["api_key"].as_str().unwrap();
    let key = &srv.s.api_key;
    assert_ne!(shown, key.as_str());
    assert!(!shown.contains(&key[3..key.len() - 4]), "{shown}");
    assert!(shown.ends_with(&key[key.len() - 4..]), "{shown}");
    srv.s.stop().await;
}

#[tokio::test]
async fn one_channel_and_the_active_filter() {
    let srv = default_server().await;
    let all = srv.ok("/channels").await["channels"].as_array().unwrap().clone();
    let active = srv.ok("/channels?active=true").await["channels"]
        .as_array()
        .unwrap()
        .clone();
    let inactive = srv.ok("/channels?active=false").await["channels"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!inactive.is_empty());
    assert_eq!(active.len() + inactive.len(), all.len());
    assert!(active.iter().any(|c| c["main"] == true));
    let uuid = all[0]["uuid"].as_str().unwrap();
    let one = srv.ok(&format!("/channels/{uuid}")).await;
    assert_eq!(one["channel"], all[0]);
    assert_eq!(srv.get("/channels/nope").await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        srv.get("/channels?active=maybe").await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    srv.s.stop().await;
}

#[tokio::test]
async fn a_team_is_renamed() {
    let srv = default_server().await;
    let team = &srv.s.manifest.teams[1];
    let path = format!("/teams/{}", team.uuid);
    let (st, v) = srv.patch(&path, json!({ "name": "Ventas 🛒" })).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["team"]["name"], "Ventas 🛒");
    assert_eq!(srv.ok(&path).await["team"]["name"], "Ventas 🛒");
    for body in [
        json!({ "name": "" }),
        json!({ "name": "x".repeat(256) }),
        json!({ "name": 3 }),
    ] {
        let (st, v) = srv.patch(&path, body).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert!(v["error"]["name"].is_array(), "{v}");
    }
    assert_eq!(
        srv.patch("/teams/nope", json!({ "name": "x" })).await.0,
        StatusCode::NOT_FOUND
    );
    srv.s.stop().await;
}

#[tokio::test]
async fn deleting_a_users_status_clears_the_custom_status() {
    let srv = default_server().await;
    let user = srv.s.manifest.users[0].uuid.clone();
    let status = srv.s.manifest.custom_statuses[0].id.clone();
    let path = format!("/users/{user}/status");
    let (st, v) = srv.put(&path, json!({ "custom_status_uuid": status })).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, v) = srv.call(Method::DELETE, &path, None).await;
    assert_eq!(st, StatusCode::NO_CONTENT, "{v}");
    let (_, v) = srv.put(&path, json!({})).await;
    assert_eq!(v["user_status"]["custom_status"]["id"], Value::Null, "{v}");
    assert_eq!(
        srv.call(Method::DELETE, "/users/nope/status", None).await.0,
        StatusCode::NOT_FOUND
    );
    srv.s.stop().await;
}

#[tokio::test]
async fn docs_paging_takes_page_only_and_answers_without_meta() {
    let srv = spawn(ServerConfig {
        paging: Paging::Docs,
        ..ServerConfig::default()
    })
    .await;
    let p1 = srv.ok("/contacts").await;
    assert_eq!(keys(&p1), HashSet::from(["contacts".to_string()]), "no meta at all");
    let p2 = srv.ok("/contacts?page=2").await;
    assert!(p2.get("meta").is_none());
    let (a, b) = (
        uuids(p1["contacts"].as_array().unwrap()),
        uuids(p2["contacts"].as_array().unwrap()),
    );
    assert_eq!((a.len(), b.len()), (20, 20));
    assert!(a.iter().all(|u| !b.contains(u)), "page 2 follows page 1");
    // A walk by page number ends on an empty page and sees every contact once.
    let mut seen = HashSet::new();
    for page in 1.. {
        let v = srv.ok(&format!("/contacts?page={page}")).await;
        let batch = v["contacts"].as_array().unwrap();
        if batch.is_empty() {
            break;
        }
        for u in uuids(batch) {
            assert!(seen.insert(u), "a contact repeated");
        }
    }
    assert_eq!(seen.len(), 300);
    // `after` means nothing here: the first page again.
    assert_eq!(srv.ok("/contacts?after=garbage").await, p1);
    let uuid = a[0].clone();
    let m = srv.ok(&format!("/contacts/{uuid}/messages")).await;
    assert_eq!(keys(&m), HashSet::from(["messages".to_string()]));
    let m = srv.ok(&format!("/contacts/{uuid}/messages?page=99")).await;
    assert_eq!(m, json!({ "messages": [] }));
    srv.s.stop().await;
}
