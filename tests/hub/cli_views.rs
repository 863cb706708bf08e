//! `frontdesk views` through a hub (issue 36): Mine is the agent's email
//! as the hub knows it, with no `user_email` in the config.

use super::support;

/// `frontdesk --json views` as dana through the team's hub, on a fresh
/// home with `config` as its config file.
async fn views(t: &support::Team, config: &str) -> (std::process::Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("config.toml");
    std::fs::write(&config_path, config).unwrap();
    let config = config_path;
    let (url, token, home) = (t.hub.url.clone(), t.dana.token.clone(), dir.path().to_path_buf());
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
    (o, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn views_through_a_hub_take_mine_from_the_hubs_agent_email() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let (o, _home) = views(&t, "").await;
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

/// The agent's own views (of its config file) are counted by the hub too:
/// no local index is filled, and the counts are the service's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agents_own_views_are_counted_by_the_hub_without_a_local_index() {
    use frontdesk::api::ContactFilter;
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let config = "[[views]]\nname = \"Closed\"\nshort = \"Shut\"\nstate = \"closed\"\n\n\
                  [[views]]\nname = \"Nobody's\"\nassignee = \"nobody\"\nstate = \"any\"\n";
    let (o, home) = views(&t, config).await;
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).expect("json");
    let count = |name: &str| {
        rows.as_array()
            .and_then(|r| r.iter().find(|v| v["name"] == name))
            .unwrap_or_else(|| panic!("{name} listed: {rows}"))
            .clone()
    };
    let all = frontdesk::api::Client::new(
        &t.server.base_url,
        &t.server.api_key,
        std::time::Duration::from_secs(10),
    )
    .expect("client")
    .all_contacts(ContactFilter::default())
    .await
    .expect("walk");
    let closed = all.iter().filter(|c| !c.is_open()).count();
    let nobodys = all.iter().filter(|c| c.assigned_user.is_none()).count();
    assert!(closed > 0 && nobodys > 0);
    assert_eq!(count("Closed")["count"], serde_json::json!(closed), "{rows}");
    assert_eq!(
        count("Closed")["complete"],
        serde_json::json!(true),
        "answered by the hub: {rows}"
    );
    assert_eq!(count("Nobody's")["count"], serde_json::json!(nobodys), "{rows}");
    // Nothing was filled on this machine.
    let filled = walkdir(home.path())
        .into_iter()
        .any(|p| p.to_string_lossy().contains("index-"));
    assert!(!filled, "no local index: {:?}", walkdir(home.path()));
    t.hub.stop().await;
}

fn walkdir(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walkdir(&p));
        } else {
            out.push(p);
        }
    }
    out
}
