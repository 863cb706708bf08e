//! `frontdesk views` through a hub (issue 36): Mine is the agent's email
//! as the hub knows it, with no `user_email` in the config.

use super::support;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn views_through_a_hub_take_mine_from_the_hubs_agent_email() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    let (url, token, home) = (t.hub.url.clone(), t.dana.token.clone(), home.path().to_path_buf());
    let o = tokio::task::spawn_blocking(move || {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("frontdesk"));
        for var in [
            "FRONTDESK_PROFILE",
            "FRONTDESK_CONFIG",
            "FRONTDESK_API_KEY",
            "FRONTDESK_BASE_URL",
            "FRONTDESK_USER_EMAIL",
        ] {
            c.env_remove(var);
        }
        c.env("FRONTDESK_HUB_URL", url)
            .env("FRONTDESK_HUB_TOKEN", token)
            .env("HOME", &home)
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("XDG_STATE_HOME", home.join("state"))
            .env("NO_COLOR", "1")
            .arg("--config")
            .arg(&config)
            .args(["--json", "views"]);
        c.output().expect("frontdesk runs")
    })
    .await
    .unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).expect("json");
    let mine = rows
        .as_array()
        .and_then(|r| r.iter().find(|v| v["name"] == "Mine"))
        .expect("Mine listed");
    assert!(mine.get("note").is_none(), "the hub told the email: {mine}");
    assert!(!err.contains("email is not set"), "{err}");
    t.hub.stop().await;
}
