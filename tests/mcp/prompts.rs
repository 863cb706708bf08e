//! Prompts for an assistant's jobs and a conversation as a resource.

use serde_json::json;

use super::common;
use super::support::{data, start};

#[test]
fn prompts_carry_the_conversation_and_the_resource_reads_it() {
    let server = common::spawn_blocking(common::config(20, 51));
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("snippets.toml"),
        "thanks = \"Thanks {{contact.first_name}}! Warm regards, the Shop team\"\n",
    )
    .unwrap();
    let mut s = start(&server, home.path(), false);
    let (err, listed) = s.call("list_snippets", json!({}));
    assert!(!err, "{listed}");
    assert_eq!(data(&listed)["snippets"][0]["name"], json!("thanks"), "{listed}");
    s.wait_complete();
    let (_, list) = s.call("list_contacts", json!({ "limit": 1 }));
    let contact = data(&list)["contacts"][0].clone();
    let uuid = contact["uuid"].as_str().unwrap().to_string();

    let listed = s.request("prompts/list", json!({}));
    let names: Vec<&str> = listed["result"]["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(
        names,
        ["summarize_conversation", "draft_reply_in_tone", "triage_unassigned"]
    );

    let got = s.request(
        "prompts/get",
        json!({ "name": "summarize_conversation", "arguments": { "contact": uuid } }),
    );
    let text = got["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{got}"));
    assert!(
        text.contains(frontdesk::mcp::UNTRUSTED) && text.contains(&uuid),
        "{text}"
    );
    let got = s.request(
        "prompts/get",
        json!({ "name": "draft_reply_in_tone", "arguments": { "contact": uuid } }),
    );
    let text = got["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{got}"));
    assert!(
        text.contains("Warm regards, the Shop team") && text.contains("draft_reply"),
        "{text}"
    );
    let got = s.request("prompts/get", json!({ "name": "triage_unassigned" }));
    assert!(
        got["result"]["messages"][0]["content"]["text"]
            .as_str()
            .unwrap()
            .contains("assigned to nobody"),
        "{got}"
    );
    let missing = s.request("prompts/get", json!({ "name": "draft_reply_in_tone", "arguments": {} }));
    assert_eq!(missing["error"]["code"], json!(-32602), "{missing}");

    let templates = s.request("resources/templates/list", json!({}));
    assert_eq!(
        templates["result"]["resourceTemplates"][0]["uriTemplate"],
        "frontdesk://contact/{uuid}"
    );
    let uri = format!("frontdesk://contact/{uuid}");
    let read = s.request("resources/read", json!({ "uri": uri }));
    let body: serde_json::Value = serde_json::from_str(
        read["result"]["contents"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{read}")),
    )
    .unwrap();
    assert_eq!(body["contact"]["name"], contact["name"]);
    assert!(
        body["thread"]["messages"].as_array().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    let bad = s.request("resources/read", json!({ "uri": "file:///etc/passwd" }));
    assert_eq!(bad["error"]["code"], json!(-32002), "{bad}");
}
