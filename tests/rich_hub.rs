//! Through a team hub, what the webhooks carried (attachments, contact
//! cards, ...) comes back with the thread: the REST message list has none
//! of it, the hub keeps it from `message_created` and serves it with the
//! list, so `messages list --json` (and the TUI's thread) shows it.

use std::time::Duration;

use assert_cmd::Command;
use frontdesk::server::ServerConfig;
use serde_json::Value;

mod common;

#[path = "hub/support.rs"]
mod support;

/// The contact's messages as an agent lists them through the hub.
async fn listed(agent: &support::Agent, uuid: &str) -> Vec<Value> {
    let (_, v) = agent.json(&format!("/v1/contacts/{uuid}/messages")).await;
    v["messages"].as_array().cloned().unwrap_or_default()
}

#[test]
fn attachments_and_a_contact_card_come_back_with_the_thread_through_a_hub() {
    let server = common::spawn_blocking(ServerConfig {
        contacts: 8,
        activity: false,
        ..Default::default()
    });
    let (team, uuid) = common::runtime().block_on(async {
        let team = support::team_on(server, |_| {}).await;
        support::wait_for_contacts(&team.dana, 8).await;
        support::subscribe(&team).await;
        let raw = common::Raw::new(&team.server);
        let uuid = raw.ok("/contacts").await["contacts"][2]["uuid"]
            .as_str()
            .expect("uuid")
            .to_string();
        // Straight from the server, the list has no attachments.
        assert!(
            team.server
                .customer_sends_rich(&uuid, "the manual", "attachments")
                .await
                .expect("sends")
        );
        assert!(
            team.server
                .customer_sends_rich(&uuid, "my colleague", "messageContactCard")
                .await
                .expect("sends")
        );
        let direct = raw.ok(&format!("/contacts/{uuid}/messages")).await;
        assert!(
            !direct.to_string().contains("files.example.com"),
            "the REST list carries no attachment"
        );
        // The webhooks reach the hub in their own time: wait for them.
        let deadline = tokio::time::Instant::now() + support::PATIENCE;
        loop {
            let messages = listed(&team.dana, &uuid).await;
            let has = |text: &str, key: &str| messages.iter().any(|m| m["text"] == text && m.get(key).is_some());
            if has("the manual", "attachments") && has("my colleague", "messageContactCard") {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the hub never served them: {messages:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        (team, uuid)
    });

    let home = tempfile::tempdir().expect("home");
    let config = home.path().join("config.toml");
    std::fs::write(&config, "").expect("config");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
    let out = Command::cargo_bin("frontdesk")
        .expect("binary")
        .env_remove("FRONTDESK_API_KEY")
        .env_remove("FRONTDESK_BASE_URL")
        .env("FRONTDESK_HUB_URL", &team.hub.url)
        .env("FRONTDESK_HUB_TOKEN", &team.dana.token)
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join("cache"))
        .args([
            "--config",
            config.to_str().expect("path"),
            "messages",
            "list",
            &uuid,
            "--json",
        ])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let list: Value = serde_json::from_slice(&out.stdout).expect("json");
    let manual = list
        .as_array()
        .expect("list")
        .iter()
        .find(|m| m["text"] == "the manual")
        .expect("the message");
    let url = manual["attachments"][0].as_str().expect("an attachment URL");
    assert!(url.starts_with("https://files.example.com/"), "{url}");
    let card = list
        .as_array()
        .expect("list")
        .iter()
        .find(|m| m["text"] == "my colleague")
        .expect("card");
    assert_eq!(card["messageContactCard"]["contactsInfo"][0]["name"], "Peter Parker");
}
