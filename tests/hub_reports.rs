//! The team's figures through a hub (issue 36): one report for every
//! agent, equal to what the service's data gives, and `views` answered
//! from the hub's counts without filling a local index.

mod common;

#[path = "hub/support.rs"]
mod support;

use std::path::Path;
use std::time::Duration;

use frontdesk::index::sync::{Budget, fetch_previews, full_sync};
use frontdesk::index::{Index, IndexAccess, Order};
use frontdesk::report::Report;
use reqwest::Method;
use serde_json::Value;

/// `frontdesk ARGS` through the hub as the agent of `token`, in `home`.
async fn through_hub(url: &str, token: &str, home: &Path, args: &[&str]) -> (bool, String, String) {
    let config = home.join("config.toml");
    std::fs::write(&config, "").unwrap();
    let (url, token, home) = (url.to_string(), token.to_string(), home.to_path_buf());
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
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
            .args(&args);
        c.output().expect("frontdesk runs")
    })
    .await
    .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Every contact as the server holds it.
async fn server_contacts(raw: &common::Raw) -> Vec<Value> {
    let mut out = Vec::new();
    let mut page = 1;
    loop {
        let v = raw.ok(&format!("/contacts?page={page}")).await;
        out.extend(v["contacts"].as_array().unwrap().iter().cloned());
        if page >= v["meta"]["pages"].as_u64().unwrap_or(1) {
            return out;
        }
        page += 1;
    }
}

/// The hub's report over 90 days, as an agent asks for it.
async fn hub_report(agent: &support::Agent) -> Report {
    let r = agent
        .post("/hub/v1/report")
        .header("content-type", "application/json")
        .body(r#"{"secs": 7776000}"#)
        .send()
        .await
        .expect("report");
    assert!(r.status().is_success(), "{}", r.status());
    r.json().await.expect("a report")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_agents_through_one_hub_read_one_report_equal_to_the_services_data() {
    let server = common::spawn(common::config(30, 42)).await;
    let raw = common::Raw::new(&server);
    // Every conversation open, so the hub reads every page (it reads the
    // open ones' pages after each pass); two are closed later through it.
    for c in server_contacts(&raw).await {
        if !c["closedAt"].is_null() {
            let uuid = c["uuid"].as_str().unwrap();
            let (st, v) = raw
                .call(Method::POST, &format!("/contacts/{uuid}/conversation/open"), None)
                .await;
            assert!(st.is_success(), "{v}");
        }
    }
    let t = support::team_on(server, |c| c.budget = 100.0).await;
    let deadline = tokio::time::Instant::now() + support::PATIENCE;
    let previews = || t.hub.state.counters.previews.load(std::sync::atomic::Ordering::Relaxed);
    while previews() < 30 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hub read {} pages of 30",
            previews()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Dana closes two conversations through the hub.
    let uuids: Vec<String> = server_contacts(&raw)
        .await
        .iter()
        .take(2)
        .map(|c| c["uuid"].as_str().unwrap().to_string())
        .collect();
    for uuid in &uuids {
        let r = t
            .dana
            .post(&format!("/v1/contacts/{uuid}/conversation/close"))
            .send()
            .await
            .expect("close");
        assert!(r.status().is_success(), "{}", r.status());
    }
    let deadline = tokio::time::Instant::now() + support::PATIENCE;
    while hub_report(&t.dana).await.groups[0].closed < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the closes never reached the report"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Both agents, as people use it: `frontdesk report` through the hub.
    let (dana_home, lee_home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let args = ["--json", "report", "--since", "90d", "--by", "agent"];
    let (ok, dana_out, err) = through_hub(&t.hub.url, &t.dana.token, dana_home.path(), &args).await;
    assert!(ok, "{err}");
    let (ok, lee_out, err) = through_hub(&t.hub.url, &t.lee.token, lee_home.path(), &args).await;
    assert!(ok, "{err}");
    let dana: Report = serde_json::from_str(&dana_out).expect("dana's report");
    let lee: Report = serde_json::from_str(&lee_out).expect("lee's report");
    assert_eq!(dana, lee, "two agents, one report");
    assert_eq!(dana.groups[0].closed, 2);
    // The same figures from the service's own data, read directly.
    let client = frontdesk::api::Client::new(&t.server.base_url, &t.server.api_key, Duration::from_secs(10)).unwrap();
    let mut index = Index::in_memory().unwrap();
    let budget = Budget::new(0.0);
    full_sync(&client, &mut index, &budget, &mut |_| {})
        .await
        .expect("sync");
    let wanted: Vec<_> = index
        .with(|ix| ix.list(Order::Activity, usize::MAX >> 1, 0))
        .unwrap()
        .iter()
        .map(|c| (c.uuid.clone(), c.last_activity()))
        .collect();
    let (_, failed) = fetch_previews(&client, &mut index, &budget, &wanted).await;
    assert!(failed.is_none(), "{failed:?}");
    let rows = index.report_rows(dana.period.from).unwrap();
    let service = frontdesk::report::compute(&rows, dana.period, dana.now, dana.by);
    assert_eq!(dana, service, "the hub's report is the service's data");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn views_through_a_hub_answer_from_the_hubs_counts_on_a_fresh_index() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let home = tempfile::tempdir().unwrap();
    let (ok, out, err) = through_hub(&t.hub.url, &t.dana.token, home.path(), &["--json", "views"]).await;
    assert!(ok, "{err}");
    let rows: Value = serde_json::from_str(&out).expect("json");
    let rows = rows.as_array().expect("a list");
    let count = |name: &str| {
        let row = rows
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name}: {out}"));
        assert_eq!(row["complete"], true, "{row}");
        row["count"].as_u64().unwrap()
    };
    let service = server_contacts(&common::Raw::new(&t.server)).await;
    let open: Vec<&Value> = service.iter().filter(|c| c["closedAt"].is_null()).collect();
    assert_eq!(count("All"), 30);
    assert_eq!(count("Open"), open.len() as u64);
    assert_eq!(
        count("Unassigned"),
        open.iter().filter(|c| c["assignedUser"].is_null()).count() as u64
    );
    let mine = rows.iter().find(|r| r["name"] == "Mine").unwrap();
    assert!(mine.get("note").is_none(), "Mine is the hub's agent email: {mine}");
    // Nothing waited on a local index: none was filled.
    let filled = walk(home.path()).into_iter().any(|p| {
        p.extension().is_some_and(|e| e == "sqlite")
            && Index::open(&p).ok().and_then(|o| o.index.count().ok()).unwrap_or(0) > 0
    });
    assert!(!filled, "views filled a local index");
    t.hub.stop().await;
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// The hub's Waiting count and how many it may still miss.
async fn hub_waiting(agent: &support::Agent) -> (u64, u64) {
    let (st, v) = agent.json("/hub/v1/counts").await;
    assert!(st.is_success(), "{v}");
    let w = v["views"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "Waiting")
        .unwrap();
    (w["count"].as_u64().unwrap(), w["lastUnknown"].as_u64().unwrap())
}

/// The `hubPreview` of `uuid`'s snapshot line.
async fn hub_preview(agent: &support::Agent, uuid: &str) -> Value {
    let text = agent.snapshot_text().await;
    text.lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|c| c["uuid"] == uuid)
        .map(|c| c["hubPreview"].clone())
        .unwrap_or(Value::Null)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_answer_by_webhook_leaves_the_customer_waiting_on_the_hub() {
    let t = support::team_with(30, |c| c.budget = 100.0).await;
    support::subscribe(&t).await;
    support::wait_for_contacts(&t.dana, 30).await;
    let deadline = tokio::time::Instant::now() + support::PATIENCE;
    while hub_waiting(&t.dana).await.1 > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hub never read every last message"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // An open conversation a person answered last: nobody waits.
    let text = t.dana.snapshot_text().await;
    let answered = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|c| {
            let p = &c["hubPreview"];
            let at = |k: &str| p[k].as_str().and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok());
            c["closedAt"].is_null()
                && p["status"] == "sent"
                && at("lastCustomerAt")
                    .zip(at("createdAt"))
                    .is_some_and(|(asked, said)| said - asked > chrono::Duration::minutes(1))
        })
        .expect("an open conversation a person answered");
    let uuid = answered["uuid"].as_str().unwrap().to_string();
    let (before, _) = hub_waiting(&t.dana).await;
    // The customer writes; the bot answers at once (a send no hub names).
    assert!(t.server.customer_writes(&uuid, "where is my order?").await.unwrap());
    let client = frontdesk::api::Client::new(&t.server.base_url, &t.server.api_key, Duration::from_secs(10)).unwrap();
    let bot = "Thanks! An agent will be with you shortly";
    client
        .send_to_contact(
            &frontdesk::api::ContactId::from(uuid.as_str()),
            frontdesk::api::SendMessage::text("", "", bot),
        )
        .await
        .expect("the bot answers");
    // Once the hub holds the bot's answer as the last message…
    let deadline = tokio::time::Instant::now() + support::PATIENCE;
    while hub_preview(&t.dana, &uuid).await["text"] != bot {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the bot's answer never reached the hub"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // …the customer still waits for a person.
    assert_eq!(
        hub_waiting(&t.dana).await.0,
        before + 1,
        "a bot's answer ended the wait"
    );
    t.hub.stop().await;
}
