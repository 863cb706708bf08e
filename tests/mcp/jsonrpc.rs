//! JSON-RPC 2.0 to the letter, over the real stdio: each malformed
//! message gets exactly the reply JSON-RPC and MCP name, and the session
//! goes on answering good requests after it.

use serde_json::{Value, json};

use super::common;
use super::support::start;

/// The fixture: what a client writes, and the error code and id expected.
const FIXTURE: &[(&[u8], i64, Option<i64>)] = &[
    (b"not json\n", -32700, None),
    (b"{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"ping\"\n", -32700, None),
    (b"\xff\xfe\xfd\n", -32700, None),
    (b"[]\n", -32600, None),
    (b"[{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"ping\"}]\n", -32600, None),
    (b"{\"jsonrpc\":\"2.0\",\"id\":42}\n", -32600, Some(42)),
    (b"{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}\n", -32600, None),
    (b"{\"jsonrpc\":\"2.0\",\"id\":43,\"method\":\"tools/call\",\"params\":{\"name\":5}}\n", -32602, Some(43)),
    (b"{\"jsonrpc\":\"2.0\",\"id\":44,\"method\":\"tools/call\",\"params\":{\"name\":\"search\",\"arguments\":\"q\"}}\n", -32602, Some(44)),
    (b"{\"jsonrpc\":\"2.0\",\"id\":45,\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool\",\"arguments\":{}}}\n", -32602, Some(45)),
    (b"{\"jsonrpc\":\"2.0\",\"id\":46,\"method\":\"no/such/method\"}\n", -32601, Some(46)),
];

#[test]
fn every_malformed_message_gets_its_error_code_and_an_id_member() {
    let server = common::spawn_blocking(common::config(5, 3));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), false);
    for (line, code, id) in FIXTURE {
        s.raw(line);
        let v = s.next();
        let shown = String::from_utf8_lossy(line);
        assert_eq!(v["jsonrpc"], "2.0", "{shown} -> {v}");
        assert_eq!(v["error"]["code"], json!(code), "{shown} -> {v}");
        assert!(v.as_object().unwrap().contains_key("id"), "{shown} -> {v}");
        assert_eq!(v["id"], id.map_or(Value::Null, |i| json!(i)), "{shown} -> {v}");
        assert!(v["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    }
    // A notification with bad params and a blank line get no reply: the
    // next line is the ping's answer.
    s.raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":1}\n\n");
    let pong = s.request("ping", json!({}));
    assert!(pong["result"].is_object(), "{pong}");
}

#[test]
fn the_process_ends_when_stdin_closes() {
    let server = common::spawn_blocking(common::config(5, 4));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), false);
    s.close_stdin();
    // The reader thread ends when stdout closes, that is when the process
    // is gone.
    while s.lines.recv_timeout(std::time::Duration::from_secs(30)).is_ok() {}
    let status = s.child.wait().unwrap();
    assert!(status.success(), "{status}");
}

#[test]
fn a_cancelled_call_gets_no_answer_and_the_session_goes_on() {
    // Every request to the service takes a while: a thread read is in
    // flight long enough to cancel.
    let mut cfg = common::config(5, 5);
    cfg.latency_ms = 800;
    let server = common::spawn_blocking(cfg);
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), false);
    let raw = common::Raw::new(&server);
    let list = common::runtime().block_on(raw.ok("/contacts"));
    let uuid = list["contacts"][0]["uuid"].as_str().unwrap().to_string();
    let call = |id: u64| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "read_thread", "arguments": { "contact": uuid } } })
    };
    s.send(call(900));
    s.send(json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": 900, "reason": "the user moved on" } }));
    // A second read, started after: its answer comes after the first's
    // would have.
    s.send(call(901));
    loop {
        let v = s.next();
        assert_ne!(v["id"], json!(900), "a cancelled call is not answered: {v}");
        if v["id"] == json!(901) {
            assert_ne!(v["result"]["isError"], json!(true), "{v}");
            break;
        }
    }
}
