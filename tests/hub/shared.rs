//! What agents share through the hub: who sent which message, the team's
//! snippets and the team's snoozes.

use std::collections::BTreeSet;
use std::time::Duration;

use frontdesk::api::{ContactId, PageRequest, SendMessage};
use frontdesk::hubclient::HubClient;
use frontdesk::tui::snooze::{OnHub, SnoozeEffect, SnoozeMsg, perform_on_hub};
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::common;
use super::support::{self, Agent};

fn hub_client(a: &Agent) -> HubClient {
    HubClient::new(&a.url, &a.token, Duration::from_secs(10)).expect("hub client")
}

/// The first contact: uuid, phone, source.
async fn first_contact(t: &support::Team) -> (String, String, String) {
    let raw = common::Raw::new(&t.server);
    let c = raw.ok("/contacts").await["contacts"][0].clone();
    let s = |k: &str| c[k].as_str().unwrap_or_default().to_string();
    (s("uuid"), s("phoneNumber"), s("source"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_agents_sends_come_back_with_their_names_in_the_message_list() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let (uuid, phone, source) = first_contact(&t).await;
    let template = common::approved_template(&t.dana.client()).await;
    let mut events = t.lee.events(None).await;
    let mut sent = Vec::new();
    for agent in [&t.dana, &t.lee] {
        let send = SendMessage::template(phone.clone(), source.clone(), template.uuid.to_string(), Vec::new());
        let answer = agent
            .client()
            .send_to_contact(&ContactId::new(uuid.clone()), send)
            .await
            .expect("sent via the hub");
        let ev = events.next_of("message_created").await;
        assert_eq!(ev.data["message"]["sentBy"], json!(agent.name), "{}", ev.data);
        assert_eq!(
            ev.data["message"]["status"],
            json!("sent"),
            "our side's message: {}",
            ev.data
        );
        sent.push((serde_json::to_value(&answer.uuid).expect("uuid"), agent.name));
    }
    let page = t
        .dana
        .client()
        .list_messages(&ContactId::from(uuid.as_str()), &PageRequest::First)
        .await
        .expect("messages through the hub");
    for (uuid, name) in &sent {
        let m = page
            .items
            .iter()
            .find(|m| m.uuid.as_ref().map(|u| json!(u)) == Some(uuid.clone()))
            .unwrap_or_else(|| panic!("{uuid} is not in the list"));
        assert_eq!(m.sent_by.as_deref(), Some(*name));
    }
    assert!(
        page.items
            .iter()
            .filter(|m| m.sent_by.is_some())
            .all(|m| m.status == frontdesk::api::MessageStatus::Sent),
        "only sent messages are named"
    );
    // The service itself never names an agent.
    let direct = common::Raw::new(&t.server)
        .ok(&format!("/contacts/{uuid}/messages"))
        .await;
    assert!(!direct.to_string().contains("sentBy"), "{direct}");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hubs_snippets_file_is_served_and_a_broken_one_is_not_an_error() {
    let t = support::team().await;
    let lee = hub_client(&t.lee);
    let none = lee.snippets().await.expect("no file: no snippets");
    assert!(none.items.is_empty() && none.warnings.is_empty(), "{none:?}");

    let file = t.dir.path().join("snippets.toml");
    std::fs::write(
        &file,
        "thanks = \"Thanks {{contact.first_name}}!\"\n\"bad name\" = \"x\"\n[refund]\nlabel = \"Refunds\"\ntext = \"We refund within 14 days.\"\n",
    )
    .unwrap();
    let (st, body) = t.lee.json("/hub/v1/snippets").await;
    assert_eq!(st, StatusCode::OK);
    let names: Vec<&str> = body["snippets"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(names, ["refund", "thanks"], "{body}");
    assert!(
        body["warnings"][0].as_str().unwrap_or_default().contains("bad name"),
        "{body}"
    );
    let got = lee.snippets().await.expect("snippets");
    assert_eq!(got.get("refund").map(|s| s.label.as_str()), Some("Refunds"));
    assert!(
        got.warnings.iter().any(|w| w.starts_with("the hub: ")),
        "{:?}",
        got.warnings
    );

    // Not TOML at all: still 200, nothing served, the problem named.
    std::fs::write(&file, "this is [not toml at all\n").unwrap();
    let (st, body) = t.lee.json("/hub/v1/snippets").await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(body["snippets"], json!([]));
    assert!(
        body["warnings"][0]
            .as_str()
            .unwrap_or_default()
            .contains("snippets.toml"),
        "{body}"
    );

    let (st, _) = reqwest::Client::new()
        .get(format!("{}/hub/v1/snippets", t.hub.url))
        .send()
        .await
        .map(|r| (r.status(), ()))
        .expect("answer");
    assert_eq!(st, StatusCode::UNAUTHORIZED, "a token is needed");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snippets_list_through_a_hub_joins_the_teams_and_marks_them() {
    let t = support::team().await;
    std::fs::write(
        t.dir.path().join("snippets.toml"),
        "thanks = \"Team thanks\"\nrefund = \"We refund within 14 days.\"\n",
    )
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    std::fs::write(home.path().join("snippets.toml"), "thanks = \"My own thanks\"\n").unwrap();
    let (url, token) = (t.hub.url.clone(), t.dana.token.clone());
    let run = move |args: &'static [&'static str]| {
        let (url, token, home, config) = (url.clone(), token.clone(), home.path().to_path_buf(), config.clone());
        tokio::task::spawn_blocking(move || {
            let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("frontdesk"));
            for var in [
                "FRONTDESK_PROFILE",
                "FRONTDESK_CONFIG",
                "FRONTDESK_API_KEY",
                "FRONTDESK_BASE_URL",
            ] {
                c.env_remove(var);
            }
            c.env("FRONTDESK_HUB_URL", url)
                .env("FRONTDESK_HUB_TOKEN", token)
                .env("HOME", &home)
                .env("XDG_CACHE_HOME", home.join("cache"))
                .env("NO_COLOR", "1")
                .arg("--config")
                .arg(&config)
                .args(args);
            c.output().expect("frontdesk runs")
        })
    };
    let o = run(&["snippets", "list"]).await.unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    assert!(out.contains("refund (team)"), "{out}");
    assert!(out.contains("thanks") && !out.contains("thanks (team)"), "{out}");
    let o = run(&["snippets", "show", "thanks"]).await.unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "My own thanks\n",
        "the local one wins"
    );
    let o = run(&["snippets", "show", "refund"]).await.unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), "We refund within 14 days.\n");
    let o = run(&["snippets", "list", "--json"]).await.unwrap();
    let rows: Value = serde_json::from_slice(&o.stdout).expect("json");
    let team: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["team"] == json!(true))
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(team, ["refund"], "{rows}");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_agents_snooze_is_seen_by_the_other_and_bad_input_gets_a_sentence() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let (uuid, _, _) = first_contact(&t).await;
    let (dana, lee) = (hub_client(&t.dana), hub_client(&t.lee));
    let mut events = t.lee.events(None).await;
    let until = chrono::Utc::now() + chrono::Duration::hours(2);
    dana.snooze(&uuid, Some(until)).await.expect("snoozed");
    let ev = events.next_of("snooze_changed").await;
    assert_eq!(ev.data["contact"], json!(uuid));
    assert_eq!(ev.data["agent"], json!("dana"));
    assert_eq!(ev.data["until_reply"], json!(false));
    let seen = lee.snoozes().await.expect("snoozes");
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].contact, uuid);
    assert_eq!(seen[0].agent, "dana");
    assert_eq!(
        seen[0].until.map(|t| t.timestamp_millis()),
        Some(until.timestamp_millis())
    );
    assert!(seen[0].name.is_some(), "the hub names the contact");

    let put = |body: Value, path: String| {
        let req = t
            .lee
            .http
            .put(format!("{}/hub/v1/snoozes/{path}", t.lee.url))
            .bearer_auth(&t.lee.token)
            .json(&body);
        async move {
            let r = req.send().await.expect("answer");
            (r.status(), r.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    for (body, says) in [
        (json!({ "until": "tomorrow" }), "RFC 3339"),
        (json!({ "until": "2001-01-01T00:00:00Z" }), "already past"),
        (json!({}), "needs until"),
    ] {
        let (st, answer) = put(body, uuid.clone()).await;
        assert_eq!(st, StatusCode::BAD_REQUEST);
        assert!(answer["error"].as_str().unwrap_or_default().contains(says), "{answer}");
    }
    let (st, _) = put(
        json!({ "until_reply": true }),
        "0123456789abcdef0123456789abcdef".into(),
    )
    .await;
    assert_eq!(st, StatusCode::NOT_FOUND, "a contact the walked index does not hold");
    let (st, _) = put(json!({ "until_reply": true }), "bad%20uuid".into()).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(lee.snoozes().await.expect("snoozes").len(), 1, "nothing changed");

    // lee takes it over until the customer writes, then wakes it.
    lee.snooze(&uuid, None).await.expect("snoozed by lee");
    let ev = events.next_of("snooze_changed").await;
    assert_eq!(
        (ev.data["agent"].clone(), ev.data["until_reply"].clone()),
        (json!("lee"), json!(true))
    );
    assert!(ev.data["until"].is_null());
    lee.wake(&uuid).await.expect("woken");
    let ev = events.next_of("snooze_changed").await;
    assert!(
        ev.data["until"].is_null() && ev.data["until_reply"] == json!(false),
        "{}",
        ev.data
    );
    assert!(dana.snoozes().await.expect("snoozes").is_empty());
    dana.wake(&uuid).await.expect("waking what sleeps not is fine");
    t.hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tuis_snooze_keeper_on_a_hub_shares_what_sleeps_and_keeps_back_marks_local() {
    let t = support::team().await;
    support::wait_for_contacts(&t.dana, 30).await;
    let (uuid, _, _) = first_contact(&t).await;
    let state = tempfile::tempdir().unwrap();
    let on = |a: &Agent| OnHub {
        hub: hub_client(a),
        me: Some(a.name.to_string()),
    };
    let (dana, lee) = (on(&t.dana), on(&t.lee));
    let account = "work".to_string();
    let load = |on: OnHub| {
        let (account, base) = (account.clone(), state.path().to_path_buf());
        async move {
            match perform_on_hub(&on, Some(&base), SnoozeEffect::Load { account }).await {
                SnoozeMsg::Loaded(Ok(kept)) => kept,
                other => panic!("{other:?}"),
            }
        }
    };
    let mut kept = load(dana.clone()).await;
    assert!(kept.asleep.is_empty());
    let seen = match perform_on_hub(
        &lee,
        Some(state.path()),
        SnoozeEffect::Check {
            account: account.clone(),
            seen: None,
        },
    )
    .await
    {
        SnoozeMsg::Changed { stamp, kept: Ok(_) } => stamp,
        other => panic!("{other:?}"),
    };
    kept.asleep.insert(
        uuid.clone(),
        frontdesk::snooze::store::Entry {
            until: frontdesk::snooze::Until::Reply,
            since: chrono::Utc::now(),
            name: "Ana".into(),
            by: None,
        },
    );
    let save = SnoozeEffect::Save {
        account: account.clone(),
        kept: kept.clone(),
        contacts: BTreeSet::from([uuid.clone()]),
    };
    assert_eq!(
        perform_on_hub(&dana, Some(state.path()), save).await,
        SnoozeMsg::Saved(Ok(()))
    );
    // lee's clock finds the change and reads dana's snooze, named hers.
    let check = SnoozeEffect::Check {
        account: account.clone(),
        seen,
    };
    match perform_on_hub(&lee, Some(state.path()), check).await {
        SnoozeMsg::Changed { kept: Ok(k), .. } => {
            let e = &k.asleep[&uuid];
            assert_eq!(e.until, frontdesk::snooze::Until::Reply);
            assert_eq!(e.by.as_deref(), Some("dana"));
        }
        other => panic!("{other:?}"),
    }
    // For dana it is her own: by nobody.
    assert_eq!(load(dana.clone()).await.asleep[&uuid].by, None);
    // lee wakes it (an undo is the same write): gone for the team, and
    // the back mark is lee's own, in the local file.
    let mut woken = load(lee.clone()).await;
    woken.asleep.remove(&uuid);
    woken.back.insert(uuid.clone());
    let save = SnoozeEffect::Save {
        account: account.clone(),
        kept: woken,
        contacts: BTreeSet::from([uuid.clone()]),
    };
    assert_eq!(
        perform_on_hub(&lee, Some(state.path()), save).await,
        SnoozeMsg::Saved(Ok(()))
    );
    assert!(hub_client(&t.dana).snoozes().await.expect("snoozes").is_empty());
    let file = frontdesk::snooze::store::load(&frontdesk::snooze::store::file_in(state.path(), &account)).unwrap();
    assert!(file.back.contains(&uuid) && file.asleep.is_empty(), "{file:?}");
    t.hub.stop().await;
}
