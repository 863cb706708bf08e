//! Paged and bounded: every list reachable to its end by cursor, limits
//! above the maximum give the maximum, a huge query refused at once, and
//! unknown arguments refused by name.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::common;
use super::support::{data, start, start_at};

#[test]
fn every_contact_is_reachable_by_cursor_and_the_total_is_right() {
    let server = common::spawn_blocking(common::config(250, 31));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), false);
    s.wait_complete();
    let mut seen = HashSet::new();
    let mut cursor = Value::Null;
    let mut pages = 0;
    loop {
        let (err, out) = s.call("list_contacts", json!({ "limit": 1000, "cursor": cursor }));
        assert!(!err, "{out}");
        let v = data(&out);
        assert_eq!(v["total"], json!(250));
        let got = v["contacts"].as_array().unwrap();
        assert!(got.len() <= 100, "at most the maximum");
        assert!(v["limitNote"].as_str().unwrap().contains("100 given"), "{v}");
        seen.extend(got.iter().map(|c| c["uuid"].as_str().unwrap().to_string()));
        pages += 1;
        cursor = v["nextCursor"].clone();
        if cursor.is_null() {
            break;
        }
        assert!(pages < 10, "the cursor walk ends");
    }
    assert_eq!(seen.len(), 250);
    assert_eq!(pages, 3);
    // A cursor from another listing is refused, not misread.
    let (_, first) = s.call("list_contacts", json!({ "limit": 5 }));
    let other = data(&first)["nextCursor"].clone();
    let (err, out) = s.call("list_contacts", json!({ "view": "Open", "cursor": other }));
    assert!(err && out.contains("cursor"), "{out}");
}

#[test]
fn a_thread_is_read_back_to_its_first_message() {
    let server = common::spawn_blocking(common::config(5, 32));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), false);
    s.wait_complete();
    let (_, list) = s.call("list_contacts", json!({ "limit": 1 }));
    let uuid = data(&list)["contacts"][0]["uuid"].as_str().unwrap().to_string();
    let raw = common::Raw::new(&server);
    // The server's own count, all pages.
    let mut expected = 0;
    for page in 1.. {
        let p = common::runtime().block_on(raw.ok(&format!("/contacts/{uuid}/messages?page={page}")));
        let n = p["messages"].as_array().map_or(0, Vec::len);
        if n == 0 {
            break;
        }
        expected += n;
    }
    assert!(expected > 2, "the seeded thread has messages");
    let mut cursor = Value::Null;
    let mut got = Vec::new();
    loop {
        let (err, out) = s.call("read_thread", json!({ "contact": uuid, "limit": 2, "cursor": cursor }));
        assert!(!err, "{out}");
        let v = data(&out);
        let batch = v["messages"].as_array().unwrap();
        assert!(batch.len() <= 2);
        // Each batch oldest first, each older than the one before.
        got.splice(0..0, batch.iter().cloned());
        cursor = v["nextCursor"].clone();
        if v["oldestReached"] == json!(true) {
            assert!(cursor.is_null());
            break;
        }
        assert!(got.len() <= expected, "{v}");
    }
    assert_eq!(got.len(), expected);
    let (err, out) = s.call("read_thread", json!({ "contact": uuid, "limit": 500 }));
    assert!(!err && data(&out)["limitNote"].is_string(), "{out}");
}

#[test]
fn a_ten_megabyte_query_is_refused_at_once_and_the_process_ends_with_stdin() {
    let server = common::spawn_blocking(common::config(20, 33));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), false);
    let huge = "refund ".repeat(10 << 20 >> 3);
    let (err, out) = s.call("search", json!({ "query": huge }));
    assert!(
        err && out.contains("at most 1024 bytes"),
        "{}",
        &out[..out.len().min(300)]
    );
    let words = vec!["parcel"; 40].join(" ");
    let (err, out) = s.call("search", json!({ "query": words }));
    assert!(err && out.contains("32 words"), "{out}");
    // Still answering after both.
    let (err, _) = s.call("list_views", json!({}));
    assert!(!err);
    s.close_stdin();
    while s.lines.recv_timeout(std::time::Duration::from_secs(30)).is_ok() {}
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn unknown_arguments_and_wrong_types_are_refused_by_name() {
    let server = common::spawn_blocking(common::config(5, 34));
    let home = tempfile::tempdir().unwrap();
    let mut s = start_at(&server.base_url, &server.api_key, home.path(), false, "");
    let (err, out) = s.call("list_contacts", json!({ "colour": "red" }));
    assert!(err && out.contains("`colour`"), "{out}");
    let (err, out) = s.call("list_contacts", json!({ "view": 5 }));
    assert!(err && out.contains("`view`"), "{out}");
    let (err, out) = s.call("draft_reply", json!({ "contact": "no-such-contact", "text": "hi" }));
    assert!(err, "an unknown contact gets no draft: {out}");
    let (_, list) = s.call("list_contacts", json!({ "limit": 1 }));
    if let Some(uuid) = data(&list)["contacts"][0]["uuid"].as_str() {
        let (err, out) = s.call("draft_reply", json!({ "contact": uuid, "text": "x".repeat(5000) }));
        assert!(err && out.contains("4096"), "{out}");
    }
}

#[test]
fn lists_and_searches_filter_by_state_tag_assignee_and_date() {
    let server = common::spawn_blocking(common::config(80, 35));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), false);
    s.wait_complete();
    let all = |s: &mut super::support::Session, args: Value| -> Vec<Value> {
        let (err, out) = s.call("list_contacts", args);
        assert!(!err, "{out}");
        data(&out)["contacts"].as_array().unwrap().clone()
    };
    let closed = all(&mut s, json!({ "state": "closed", "limit": 100 }));
    assert!(!closed.is_empty() && closed.iter().all(|c| c["open"] == json!(false)));
    let unassigned = all(&mut s, json!({ "assignee": "none", "limit": 100 }));
    assert!(unassigned.iter().all(|c| c.get("assignee").is_none()), "{unassigned:?}");
    let everyone = all(&mut s, json!({ "limit": 100 }));
    let tag = everyone
        .iter()
        .find_map(|c| c["tags"][0].as_str())
        .expect("a tagged contact")
        .to_string();
    let tagged = all(&mut s, json!({ "tag": tag, "limit": 100 }));
    assert!(!tagged.is_empty());
    assert!(
        tagged
            .iter()
            .all(|c| c["tags"].as_array().unwrap().iter().any(|t| t == &json!(tag)))
    );
    let future = all(&mut s, json!({ "since": "2999-01-01" }));
    assert!(future.is_empty());
    let (err, out) = s.call("search", json!({ "query": "a", "state": "sideways" }));
    assert!(err && out.contains("`state`"), "{out}");
}
