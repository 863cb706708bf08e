//! `frontdesk mcp` driven by hand-written JSON-RPC lines over its stdio,
//! against the embedded server: initialize, list tools, call each read
//! tool, a write refused without `--allow-writes`, and with it the
//! server's state changes and the history names the assistant; a snooze
//! lands in the file the TUI reads.

mod common;

#[path = "mcp/support.rs"]
mod support;

#[path = "mcp/jsonrpc.rs"]
mod jsonrpc;

#[path = "mcp/fresh.rs"]
mod fresh;

#[path = "mcp/paging.rs"]
mod paging;

#[path = "mcp/contract.rs"]
mod contract;

#[path = "mcp/prompts.rs"]
mod prompts;

#[path = "hub/support.rs"]
mod hub_support;

#[path = "mcp/hub.rs"]
mod hub;

#[path = "mcp/undo.rs"]
mod undo;

#[path = "mcp/lookup.rs"]
mod lookup;

use serde_json::json;
use support::{data, start};

#[test]
fn read_tools_answer_and_writes_need_allow_writes() {
    let server = common::spawn_blocking(common::config(40, 7));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), false);

    let tools = s.tools();
    for t in [
        "list_views",
        "list_contacts",
        "read_thread",
        "search",
        "contact_details",
        "draft_reply",
    ] {
        assert!(tools.contains(&t.to_string()), "{t} in {tools:?}");
    }
    assert!(!tools.contains(&"close".to_string()), "{tools:?}");

    let (err, views) = s.call("list_views", json!({}));
    assert!(!err);
    let names: Vec<String> = data(&views)["views"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"Waiting".to_string()), "{names:?}");

    s.wait_complete();
    let (err, list) = s.call("list_contacts", json!({ "view": "Open", "limit": 3 }));
    assert!(!err, "{list}");
    let contacts = data(&list)["contacts"].as_array().unwrap().clone();
    assert_eq!(contacts.len(), 3);
    assert!(contacts.iter().all(|c| c["open"] == json!(true)));
    let first = contacts[0].clone();
    let uuid = first["uuid"].as_str().unwrap().to_string();

    let (err, found) = s.call("search", json!({ "query": first["name"] }));
    assert!(!err, "{found}");
    assert!(
        data(&found)["contacts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["uuid"] == json!(uuid))
    );

    let (err, thread) = s.call("read_thread", json!({ "contact": uuid, "limit": 5 }));
    assert!(!err, "{thread}");
    let messages = data(&thread)["messages"].as_array().unwrap().clone();
    assert!(!messages.is_empty() && messages.len() <= 5);

    let (err, details) = s.call("contact_details", json!({ "contact": uuid }));
    assert!(!err, "{details}");
    assert_eq!(data(&details)["name"], first["name"]);

    let (err, drafted) = s.call("draft_reply", json!({ "contact": uuid, "text": "We are on it!" }));
    assert!(!err, "{drafted}");
    assert!(drafted.contains("Nothing was sent"), "{drafted}");
    let kept = frontdesk::drafts::Drafts::in_dir(
        std::fs::read_dir(home.path().join("state/frontdesk/drafts"))
            .unwrap()
            .flatten()
            .next()
            .unwrap()
            .path(),
    );
    assert_eq!(kept.load(&uuid).unwrap().map(|d| d.text), Some("We are on it!".into()));

    let (err, refused) = s.call("close", json!({ "contact": uuid }));
    assert!(err);
    assert!(refused.contains("--allow-writes"), "{refused}");
    let (err, bad) = s.call("list_contacts", json!({ "limit": "lots" }));
    assert!(err && bad.contains("limit"), "{bad}");

    let raw = common::Raw::new(&server);
    let after = common::runtime().block_on(raw.ok(&format!("/contacts/{uuid}")));
    assert!(
        after["contact"][0]["uuid"] == json!(uuid) && after["contact"][0]["closedAt"].is_null(),
        "{after}"
    );
    assert!(s.seen.iter().all(|l| !l.contains(&server.api_key)));
}

#[test]
fn with_allow_writes_a_close_changes_the_server_and_is_in_the_history() {
    let server = common::spawn_blocking(common::config(20, 8));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), true);
    assert!(s.tools().contains(&"close".to_string()));
    s.wait_complete();
    let (_, list) = s.call("list_contacts", json!({ "view": "Open", "limit": 1 }));
    let uuid = data(&list)["contacts"][0]["uuid"].as_str().unwrap().to_string();

    let (err, closed) = s.call("close", json!({ "contact": uuid }));
    assert!(!err, "{closed}");
    let raw = common::Raw::new(&server);
    let after = common::runtime().block_on(raw.ok(&format!("/contacts/{uuid}")));
    assert!(!after["contact"][0]["closedAt"].is_null(), "{after}");

    let (err, tagged) = s.call("tag", json!({ "contact": uuid, "tags": ["vip"] }));
    assert!(!err, "{tagged}");
    let (err, sent) = s.call("send_reply", json!({ "contact": uuid, "text": "Thanks, sorted!" }));
    assert!(!err, "{sent}");
    let thread = common::runtime().block_on(raw.ok(&format!("/contacts/{uuid}/messages")));
    assert_eq!(thread["messages"][0]["text"], "Thanks, sorted!", "{thread}");

    let history = std::fs::read_to_string(home.path().join("state/frontdesk/history.jsonl")).unwrap();
    assert_eq!(history.lines().count(), 2, "{history}");
    assert!(history.lines().all(|l| l.contains("by assistant") && l.contains(&uuid)));
    assert!(!history.contains(&server.api_key));
    assert!(s.seen.iter().all(|l| !l.contains(&server.api_key)));
}

#[test]
fn snooze_needs_allow_writes_and_lands_in_the_file_the_inbox_reads() {
    let server = common::spawn_blocking(common::config(20, 9));
    let home = tempfile::tempdir().unwrap();
    // The file the TUI reads for the default profile.
    let file = frontdesk::snooze::store::file_in(&home.path().join("state"), "default");

    let mut s = start(&server, home.path(), false);
    assert!(!s.tools().contains(&"snooze".to_string()));
    s.wait_complete();
    let (_, list) = s.call("list_contacts", json!({ "view": "Open", "limit": 2 }));
    let contacts = data(&list)["contacts"].as_array().unwrap().clone();
    let uuid = contacts[0]["uuid"].as_str().unwrap().to_string();
    let (err, refused) = s.call("snooze", json!({ "contact": uuid, "until": "2h" }));
    assert!(err && refused.contains("--allow-writes"), "{refused}");
    assert!(!file.exists(), "refused: nothing kept");
    drop(s);

    let mut s = start(&server, home.path(), true);
    let tools = s.tools();
    assert!(tools.contains(&"snooze".to_string()) && tools.contains(&"unsnooze".to_string()));
    let (err, bad) = s.call("snooze", json!({ "contact": uuid, "until": "fri 25:00" }));
    assert!(err && bad.contains("\"fri 25:00\" is not a time"), "{bad}");
    assert!(!file.exists());
    let (err, unknown) = s.call("snooze", json!({ "contact": "no-such-contact", "until": "2h" }));
    assert!(err, "{unknown}");

    let before = chrono::Utc::now();
    let (err, snoozed) = s.call("snooze", json!({ "contact": uuid, "until": "2h" }));
    assert!(!err, "{snoozed}");
    let v = data(&snoozed);
    assert_eq!(v["snoozed"], json!(uuid));
    assert_eq!(v["name"], contacts[0]["name"]);
    let at = chrono::DateTime::parse_from_rfc3339(v["until"].as_str().unwrap()).unwrap();
    let two_hours = (at.to_utc() - before).num_minutes();
    assert!((119..=121).contains(&two_hours), "{v}");
    // "in 2h (14:05)", or "Sat 00:05" after 22:00: a phrase either way.
    let back = v["comes_back"].as_str().unwrap();
    assert!(
        back.ends_with(", or sooner if the customer writes") && back.len() > 40,
        "{v}"
    );

    // Another process's view of it, through the store the TUI uses.
    let kept = frontdesk::snooze::store::load(&file).unwrap();
    let entry = &kept.asleep[&uuid];
    assert_eq!(entry.by.as_deref(), Some("assistant"));
    assert_eq!(entry.until, frontdesk::snooze::Until::At(at.to_utc()));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    }

    // Someone else snoozed another meanwhile: "until they reply" keeps it.
    let other = contacts[1]["uuid"].as_str().unwrap().to_string();
    let (err, reply) = s.call("snooze", json!({ "contact": other, "until": "reply" }));
    assert!(!err, "{reply}");
    assert!(data(&reply)["until"].is_null() && reply.contains("when the customer writes"));

    let (err, woken) = s.call("unsnooze", json!({ "contact": uuid }));
    assert!(!err, "{woken}");
    let (err, again) = s.call("unsnooze", json!({ "contact": uuid }));
    assert!(err && again.contains("not snoozed"), "{again}");
    let kept = frontdesk::snooze::store::load(&file).unwrap();
    assert!(
        !kept.asleep.contains_key(&uuid) && kept.back.contains(&uuid),
        "{kept:?}"
    );
    assert!(kept.asleep.contains_key(&other), "the other snooze stays");
    // Snoozes change this machine only: the run history has no record.
    assert!(!home.path().join("state/frontdesk/history.jsonl").exists());
}
