//! The tool contract over the wire: titles and the four hints on every
//! tool, and each result's `structuredContent` as its `outputSchema` says
//! (checked by a small validator of the schema features the tools use).

use serde_json::{Value, json};

use super::common;
use super::support::{data, start};

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "null" => v.is_null(),
        _ => false,
    }
}

/// Where `v` breaks `schema`, if anywhere.
fn check(schema: &Value, v: &Value, at: &str) -> Result<(), String> {
    match &schema["type"] {
        Value::String(t) if !type_ok(t, v) => return Err(format!("{at}: not {t}: {v}")),
        Value::Array(ts) if !ts.iter().any(|t| type_ok(t.as_str().unwrap_or(""), v)) => {
            return Err(format!("{at}: none of {ts:?}: {v}"));
        }
        _ => {}
    }
    if let Some(req) = schema["required"].as_array() {
        for k in req {
            let k = k.as_str().unwrap();
            if v.get(k).is_none() {
                return Err(format!("{at}: `{k}` missing"));
            }
        }
    }
    if let (Some(props), Some(obj)) = (schema["properties"].as_object(), v.as_object()) {
        for (k, s) in props {
            if let Some(x) = obj.get(k) {
                check(s, x, &format!("{at}.{k}"))?;
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            check(items, x, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

#[test]
fn every_tool_is_described_and_every_result_matches_its_output_schema() {
    let server = common::spawn_blocking(common::config(30, 41));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), true);
    let listed = s.request("tools/list", json!({}));
    let tools = listed["result"]["tools"].as_array().unwrap().clone();
    for t in &tools {
        let a = &t["annotations"];
        for hint in ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] {
            assert!(a[hint].is_boolean(), "{}: {hint} in {t}", t["name"]);
        }
        assert!(t["title"].is_string(), "{t}");
        assert_eq!(t["inputSchema"]["additionalProperties"], json!(false), "{t}");
        assert!(t["outputSchema"].is_object(), "{t}");
    }
    let schema = |name: &str| tools.iter().find(|t| t["name"] == json!(name)).unwrap()["outputSchema"].clone();
    let send = tools.iter().find(|t| t["name"] == json!("send_reply")).unwrap();
    assert_eq!(send["annotations"]["destructiveHint"], json!(true));
    assert_eq!(send["annotations"]["openWorldHint"], json!(true));

    s.wait_complete();
    let (_, list) = s.call("list_contacts", json!({ "view": "Open", "limit": 2 }));
    let uuid = data(&list)["contacts"][0]["uuid"].as_str().unwrap().to_string();
    let (_, teams) = s.call("list_teams", json!({}));
    let team = data(&teams)["teams"][0]["name"].clone();
    let calls = vec![
        ("list_views", json!({})),
        ("list_contacts", json!({ "limit": 3 })),
        ("list_contacts", json!({ "view": "Waiting" })),
        ("search", json!({ "query": "a" })),
        ("read_thread", json!({ "contact": uuid, "limit": 3 })),
        ("contact_details", json!({ "contact": uuid })),
        ("draft_reply", json!({ "contact": uuid, "text": "On it" })),
        ("tag", json!({ "contact": uuid, "tags": ["vip"] })),
        ("snooze", json!({ "contact": uuid, "until": "2h" })),
        ("unsnooze", json!({ "contact": uuid })),
        ("close", json!({ "contact": uuid })),
        ("send_reply", json!({ "contact": uuid, "text": "Done" })),
        ("list_tags", json!({})),
        ("list_teams", json!({})),
        ("list_collaborators", json!({})),
        ("list_templates", json!({})),
        ("assign", json!({ "contact": uuid, "team": team })),
        ("unassign", json!({ "contact": uuid })),
        (
            "send_template",
            json!({ "contact": uuid, "template": "welcome", "values": ["Ana"] }),
        ),
        (
            "send_template",
            json!({ "contact": uuid, "template": "welcome", "values": ["Ana"], "confirm": true }),
        ),
        ("history", json!({})),
        ("list_snippets", json!({})),
    ];

    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    for t in [
        "list_tags",
        "list_teams",
        "list_collaborators",
        "list_templates",
        "message_status",
        "unassign",
    ] {
        assert!(names.contains(&t), "{t} in {names:?}");
    }
    let mut sent = None;
    for (name, args) in calls {
        let v = s.request("tools/call", json!({ "name": name, "arguments": args }));
        let r = &v["result"];
        assert_ne!(r["isError"], json!(true), "{name}: {v}");
        let summary = r["content"][0]["text"].as_str().unwrap();
        assert!(summary.len() < 400, "{name}: the text is a short summary: {summary}");
        check(&schema(name), &r["structuredContent"], name).unwrap_or_else(|e| panic!("{e}\n{v}"));
        if name == "send_template" {
            let sc = &r["structuredContent"];
            assert_eq!(sc["text"], json!("Welcome to Frontdesk Shop, Ana! 🎉"), "{sc}");
        }
        if name == "history" {
            let runs = r["structuredContent"]["runs"].as_array().unwrap();
            // Newest first: the unassign, naming the contact.
            assert_eq!(runs[0]["contacts"][0]["uuid"], json!(uuid), "{runs:?}");
            assert!(runs.len() >= 4, "{runs:?}");
        }
        if name == "send_reply" {
            sent = r["structuredContent"]["message"].as_str().map(String::from);
        }
    }
    // The sent message's delivery, by its id.
    let id = sent.expect("send_reply names the message");
    let v = s.request(
        "tools/call",
        json!({ "name": "message_status", "arguments": { "message": id } }),
    );
    assert_ne!(v["result"]["isError"], json!(true), "{v}");
    check(
        &schema("message_status"),
        &v["result"]["structuredContent"],
        "message_status",
    )
    .unwrap();
}
