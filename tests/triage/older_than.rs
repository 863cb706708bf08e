//! Bulk actions over views on how old a conversation is (`--older-than`)
//! and on who owns it: the service dates no conversation (no
//! `lastMessageAt`), so the truth is each thread's newest message.

use std::collections::HashSet;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::Value;

use super::common;
use super::{activity, by_uuid, env, is_open, json_list, uuids, walk};

#[test]
fn a_dry_run_lists_the_contacts_and_changes_nothing() {
    let e = env(common::config(120, 3));
    let before = walk(&e.raw());
    let week = Duration::from_secs(7 * 86_400);
    let old: HashSet<String> = before
        .iter()
        .filter(|c| {
            let at = activity(&e.raw(), c);
            chrono::Utc::now().signed_duration_since(at) > chrono::Duration::from_std(week).unwrap()
        })
        .map(|c| c["uuid"].as_str().unwrap().to_string())
        .collect();
    let open: HashSet<String> = uuids(&before.iter().filter(|c| is_open(c)).cloned().collect::<Vec<_>>());

    let r = e.run(&["contacts", "close", "--view", "OPEN", "--dry-run", "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(uuids(&json_list(&r.out)), open);
    assert!(
        r.err.contains(&format!("would close {} contacts", open.len())),
        "{}",
        r.err
    );
    let r = e.run(&["contacts", "tag", "vip", "--older-than", "7d", "--dry-run", "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(uuids(&json_list(&r.out)), old);
    assert!(!old.is_empty() && old.len() < before.len(), "{}", old.len());
    let r = e.run(&["contacts", "unassign", "--view", "all", "--dry-run"]);
    assert_eq!(r.code, 0, "{}", r.err);

    assert_eq!(by_uuid(&walk(&e.raw())), by_uuid(&before), "a dry run changes nothing");
}

#[test]
fn assign_to_me_over_a_view_and_the_single_forms_still_work() {
    let e = env(common::config(300, 4));
    let me = e.server.manifest.collaborators[0].clone();
    let before = walk(&e.raw());
    let ten_days = chrono::Duration::days(10);
    let stale_unassigned: HashSet<String> = before
        .iter()
        .filter(|c| {
            let at = activity(&e.raw(), c);
            is_open(c) && c["assignedUser"].is_null() && chrono::Utc::now().signed_duration_since(at) > ten_days
        })
        .map(|c| c["uuid"].as_str().unwrap().to_string())
        .collect();
    // They are far down the list, where an incremental pass (which stops
    // after two matching pages at the top) does not look: only the index
    // writes of the command itself can tell the next one.
    assert!(!stale_unassigned.is_empty());
    assert!(
        before[..60]
            .iter()
            .all(|c| !stale_unassigned.contains(c["uuid"].as_str().unwrap()))
    );
    let r = e.run(&["views", "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let unassigned_before = json_list(&r.out)[1]["count"].as_u64().unwrap();

    let r = e.run(&[
        "--email",
        &me,
        "contacts",
        "assign",
        "me",
        "--view",
        "unassigned",
        "--older-than",
        "10d",
        "--yes",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(uuids(&json_list(&r.out)), stale_unassigned);
    let after = by_uuid(&walk(&e.raw()));
    for u in &stale_unassigned {
        assert_eq!(after[u]["assignedUser"], me.as_str());
    }
    let r = e.run(&["views", "--json"]);
    let counts = json_list(&r.out);
    assert_eq!(
        counts[1]["count"].as_u64().unwrap(),
        unassigned_before - stale_unassigned.len() as u64,
        "{counts:?}"
    );
    let unassigned = stale_unassigned;

    let one = unassigned.iter().next().unwrap().clone();
    let r = e.run(&["contacts", "unassign", &one, "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let c: Value = serde_json::from_str(&r.out).unwrap();
    assert!(c["assignedUser"].is_null(), "{c}");
    // A one-contact command writes to the index too (the contact is far
    // down the list: no incremental pass would see it).
    let r = e.run(&["views", "--json"]);
    let counts = json_list(&r.out);
    assert_eq!(
        counts[1]["count"].as_u64().unwrap(),
        unassigned_before - unassigned.len() as u64 + 1,
        "{counts:?}"
    );
    let r = e.run(&["contacts", "close", &one]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("closed"), "{}", r.out);
    let r = e.run(&["contacts", "reopen", &one, "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let c: Value = serde_json::from_str(&r.out).unwrap();
    assert!(c["closedAt"].is_null(), "{c}");
    let (st, v) = common::runtime().block_on(e.raw().call(Method::GET, &format!("/contacts/{one}"), None));
    assert_eq!(st, StatusCode::OK);
    let c = if v["contact"].is_array() {
        &v["contact"][0]
    } else {
        &v["contact"]
    };
    assert!(c["closedAt"].is_null() && c["assignedUser"].is_null(), "{v}");
}
