//! The assistant's writes through `frontdesk mcp --allow-writes` and the
//! CLI's run history: each appears in `frontdesk history` naming its
//! contact, and `frontdesk undo` takes back what can be taken back and
//! says what cannot. A note is a run undo says it cannot take back (the
//! service cannot delete a note); a template leaves no run.

use std::process::Command;

use serde_json::{Value, json};

use super::common;
use super::support::{data, start};

/// `frontdesk ARGS` as the session's machine runs it: exit code, stdout, stderr.
fn cli(server: &frontdesk::server::RunningServer, home: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_frontdesk"));
    for var in [
        "FRONTDESK_PROFILE",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_CONFIG",
        "NO_COLOR",
    ] {
        c.env_remove(var);
    }
    let o = c
        .env("FRONTDESK_BASE_URL", &server.base_url)
        .env("FRONTDESK_API_KEY", &server.api_key)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("HOME", home)
        .arg("--config")
        .arg(home.join("config.toml"))
        .args(args)
        .output()
        .expect("frontdesk runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn on_server(server: &frontdesk::server::RunningServer, uuid: &str) -> Value {
    let raw = common::Raw::new(server);
    common::runtime().block_on(raw.ok(&format!("/contacts/{uuid}")))["contact"][0].clone()
}

#[test]
fn the_assistants_writes_are_in_the_history_by_contact_and_undo_takes_back_what_it_can() {
    let server = common::spawn_blocking(common::config(20, 11));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), true);
    s.wait_complete();
    let who = server.manifest.collaborators[0].clone();
    let team = server.manifest.teams[0].clone();

    let (_, list) = s.call("list_contacts", json!({ "limit": 100 }));
    let contacts = data(&list)["contacts"].as_array().unwrap().clone();
    let a = contacts
        .iter()
        .find(|c| c.get("assignee").is_none() && !c["name"].as_str().unwrap_or("").is_empty())
        .expect("an unassigned contact")
        .clone();
    let b = contacts
        .iter()
        .find(|c| c.get("team").is_none() && c["uuid"] != a["uuid"] && !c["name"].as_str().unwrap_or("").is_empty())
        .expect("a contact without a team")
        .clone();
    let (ua, ub) = (a["uuid"].as_str().unwrap(), b["uuid"].as_str().unwrap());

    let (err, out) = s.call("assign", json!({ "contact": ua, "email": who }));
    assert!(!err, "{out}");
    let (err, out) = s.call("unassign", json!({ "contact": ua }));
    assert!(!err, "{out}");
    let (err, out) = s.call("assign", json!({ "contact": ub, "team": team.name }));
    assert!(!err, "{out}");
    assert_eq!(on_server(&server, ub)["team"]["uuid"], json!(team.uuid));

    // A note: a run in the history; a template: none.
    let (err, out) = s.call("add_note", json!({ "contact": ua, "text": "Called back, all good" }));
    assert!(!err, "{out}");
    let raw = common::Raw::new(&server);
    let thread = common::runtime().block_on(raw.ok(&format!("/contacts/{ua}/messages")));
    assert!(thread.to_string().contains("Called back, all good"), "{thread}");
    let (err, out) = s.call("add_note", json!({ "contact": "no-such-contact", "text": "x" }));
    assert!(err, "{out}");
    let (_, templates) = s.call("list_templates", json!({}));
    let template = data(&templates)["templates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["status"] == "approved")
        .expect("an approved template")
        .clone();
    let text = template["text"].as_str().unwrap();
    let values: Vec<&str> = (1..=20)
        .take_while(|n| text.contains(&format!("{{{{{n}}}}}")))
        .map(|_| "x")
        .collect();
    let (err, out) = s.call(
        "send_template",
        json!({ "contact": ub, "template": template["uuid"], "values": values, "confirm": true }),
    );
    assert!(!err && data(&out)["sent"] == json!(true), "{out}");

    let (code, out, errs) = cli(&server, home.path(), &["history", "--json"]);
    assert_eq!(code, 0, "{errs}");
    let runs: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(runs.len(), 4, "{out}");
    // Newest first, each naming its contact.
    for (run, c) in runs.iter().zip([&a, &b, &a, &a]) {
        let named = run["contact"].as_str().unwrap();
        assert!(named.contains(c["name"].as_str().unwrap()), "{run}");
        assert!(run["what"].as_str().unwrap().contains("by assistant"), "{run}");
        assert_eq!(run["applied"], 1, "{run}");
    }
    let id = |i: usize| runs[i]["id"].as_str().unwrap().to_string();
    let (note_run, team_run, unassign_run, assign_run) = (id(0), id(1), id(2), id(3));
    assert!(runs[0]["what"].as_str().unwrap().contains("note"), "{}", runs[0]);

    // The service cannot delete a note: undo says so and writes nothing.
    let (_, out, errs) = cli(&server, home.path(), &["undo", &note_run]);
    let said = format!("{out}{errs}");
    assert!(said.contains("cannot delete a note"), "{said}");

    // The unassign, then the assign: the contact is back as it was.
    let (code, out, errs) = cli(&server, home.path(), &["undo", &unassign_run, "--jsonl"]);
    assert_eq!(code, 0, "{out}\n{errs}");
    assert!(out.contains("\"reverted\""), "{out}");
    assert_eq!(on_server(&server, ua)["assignedUser"], json!(who));
    let (code, out, errs) = cli(&server, home.path(), &["undo", &assign_run, "--jsonl"]);
    assert_eq!(code, 0, "{out}\n{errs}");
    assert!(on_server(&server, ua)["assignedUser"].is_null());

    // A team cannot be cleared through the API: undo says so and leaves it.
    let (_, out, errs) = cli(&server, home.path(), &["undo", &team_run]);
    let said = format!("{out}{errs}");
    assert!(said.contains("cannot clear a team"), "{said}");
    assert_eq!(on_server(&server, ub)["team"]["uuid"], json!(team.uuid));
}
