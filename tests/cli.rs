//! The non-interactive commands against the embedded server on
//! 127.0.0.1:0: the real binary, the real server, state checked after
//! writes, and every failure path printing nothing on stdout.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::OnceLock;

use assert_cmd::Command;
use frontdesk::server::{Manifest, RunningServer};
use serde_json::Value;

/// A server kept alive for the test holding it.
struct Fixture {
    server: RunningServer,
}

impl Fixture {
    fn manifest(&self) -> &Manifest {
        &self.server.manifest
    }
}

mod common;

fn server(contacts: usize) -> Fixture {
    Fixture {
        server: common::spawn_blocking(common::config(contacts, 7)),
    }
}

/// The 10,000+ contact account, seeded once for the whole binary.
fn big() -> &'static Fixture {
    static BIG: OnceLock<Fixture> = OnceLock::new();
    BIG.get_or_init(|| server(10_050))
}

/// The binary with the fixture's address and key in the environment and
/// no config file.
fn fd(f: &Fixture) -> Command {
    let mut c = Command::cargo_bin("frontdesk").expect("binary");
    for var in [
        "FRONTDESK_PROFILE",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_CONFIG",
        "NO_COLOR",
    ] {
        c.env_remove(var);
    }
    c.env("FRONTDESK_BASE_URL", &f.server.base_url)
        .env("FRONTDESK_API_KEY", &f.server.api_key)
        .arg("--config")
        .arg(no_config());
    c
}

/// An empty config file of our own (owner-only), so no real config is read
/// and nothing is warned about.
fn no_config() -> std::path::PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "").expect("config file");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        }
        dir
    });
    dir.path().join("config.toml")
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(mut c: Command, args: &[&str]) -> Out {
    let o = c.args(args).output().expect("runs");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Runs and expects success with a JSON document on stdout.
fn json(f: &Fixture, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let o = run(fd(f), &all);
    assert_eq!(o.code, 0, "{args:?} failed: {}", o.stderr);
    serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", o.stdout))
}

/// Runs and expects failure with `code`, one line on stderr, nothing on stdout.
fn fails(c: Command, args: &[&str], code: i32) -> String {
    let o = run(c, args);
    assert_eq!(o.code, code, "{args:?}: stdout {} stderr {}", o.stdout, o.stderr);
    assert_eq!(o.stdout, "", "{args:?} printed on stdout");
    if o.stderr.starts_with("error: ") {
        // clap's own usage error (exit 2), in clap's format.
        assert_eq!(code, 2);
        return o.stderr;
    }
    assert!(o.stderr.starts_with("frontdesk: "), "{args:?}: {}", o.stderr);
    assert_eq!(o.stderr.trim_end().lines().count(), 1, "{args:?}: {}", o.stderr);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    o.stderr
}

fn first_contact(f: &Fixture) -> Value {
    json(f, &["contacts", "list"])[0].clone()
}

fn field_of_type(m: &Manifest, t: &str) -> Option<(String, Vec<String>)> {
    m.custom_fields
        .iter()
        .find(|(_, v)| v.field_type == t)
        .map(|(k, v)| (k.clone(), v.options.clone()))
}

#[test]
fn contacts_list_all_jsonl_returns_every_contact_of_a_10k_account() {
    let f = big();
    let o = run(fd(f), &["contacts", "list", "--all", "--jsonl"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // Off a terminal a long walk says how far it got every few seconds (on
    // a loaded machine this walk can take that long); nothing else.
    for line in o.stderr.lines() {
        assert!(
            line.starts_with("frontdesk: contacts list: ") && line.contains("received so far"),
            "stderr holds only progress lines: {}",
            o.stderr
        );
    }
    let mut uuids = std::collections::HashSet::new();
    for line in o.stdout.lines() {
        let v: Value = serde_json::from_str(line).expect("each line is JSON");
        assert!(v.is_object());
        uuids.insert(v["uuid"].as_str().expect("uuid").to_string());
    }
    assert_eq!(o.stdout.lines().count(), f.manifest().contacts);
    assert_eq!(uuids.len(), f.manifest().contacts);
    assert!(f.manifest().contacts > 10_000);
}

#[test]
fn a_closed_pipe_ends_the_walk_quietly() {
    let f = big();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("frontdesk"))
        .env("FRONTDESK_BASE_URL", &f.server.base_url)
        .env("FRONTDESK_API_KEY", &f.server.api_key)
        .args(["contacts", "list", "--all", "--jsonl", "--config"])
        .arg(no_config())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the pipe closes while the walk goes on.
    assert!(first.starts_with('{'));
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        matches!(out.status.code(), Some(0) | Some(141)),
        "{:?} {stderr}",
        out.status
    );
}

#[test]
fn contacts_list_pages_filters_and_tables() {
    let f = server(45);
    let page1 = json(&f, &["contacts", "list"]);
    let page2 = json(&f, &["contacts", "list", "--page", "2"]);
    assert_eq!(page1.as_array().unwrap().len(), 20);
    assert_ne!(page1[0]["uuid"], page2[0]["uuid"]);
    // Every page, as one array.
    let all = json(&f, &["contacts", "list", "--all"]);
    assert_eq!(all.as_array().unwrap().len(), 45);
    // The table for a person, and the cursor to go on with on stderr.
    let o = run(fd(&f), &["contacts", "list"]);
    assert_eq!(o.code, 0);
    let header = o.stdout.lines().next().unwrap();
    for col in [
        "NAME",
        "PHONE",
        "SOURCE",
        "STATUS",
        "ASSIGNEE",
        "TAGS",
        "LAST ACTIVITY",
        "UUID",
    ] {
        assert!(header.contains(col), "{header}");
    }
    assert_eq!(o.stdout.lines().count(), 21);
    assert!(!o.stdout.contains('\x1b'), "no colour when stdout is not a terminal");
    let cursor = o
        .stderr
        .trim()
        .strip_prefix("more: --after ")
        .expect("cursor hint")
        .to_string();
    let after = json(&f, &["contacts", "list", "--after", &cursor]);
    assert_eq!(after[0]["uuid"], page2[0]["uuid"]);
    // Filters reach the server.
    let tag = f.manifest().tags[0].clone();
    let tagged = json(&f, &["contacts", "list", "--all", "--tags", &tag]);
    for c in tagged.as_array().unwrap() {
        let tags: Vec<String> = serde_json::from_value(c["tags"].clone()).unwrap();
        assert!(tags.iter().any(|t| t.eq_ignore_ascii_case(&tag)), "{c}");
    }
    let typed = json(&f, &["contacts", "list", "--field-types"]);
    assert!(typed[0]["customFieldsMetadata"].is_object());
    // Bad page numbers are usage errors, no request.
    fails(fd(&f), &["contacts", "list", "--page", "501"], 2);
    fails(fd(&f), &["contacts", "list", "--page", "2", "--all"], 2);
    let e = fails(fd(&f), &["contacts", "list", "--after", "garbage!"], 1);
    assert!(e.to_lowercase().contains("cursor"), "{e}");
}

#[test]
fn contacts_get_is_one_object_and_unknown_uuids_fail() {
    let f = server(30);
    let c = first_contact(&f);
    let uuid = c["uuid"].as_str().unwrap();
    let got = json(&f, &["contacts", "get", uuid]);
    assert!(got.is_object(), "a contact is an object, whatever the server sent");
    assert_eq!(got["uuid"], c["uuid"]);
    assert!(got["phoneNumber"].is_string());
    let typed = json(&f, &["contacts", "get", uuid, "--field-types"]);
    assert!(typed["customFieldsMetadata"].is_object());
    let o = run(fd(&f), &["contacts", "get", uuid]);
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.lines().any(|l| l.starts_with("uuid") && l.contains(uuid)),
        "{}",
        o.stdout
    );
    let e = fails(fd(&f), &["contacts", "get", "0123456789abcdef0123456789abcdef"], 1);
    assert!(e.contains("not found"), "{e}");
    assert!(e.contains("contacts get 0123456789abcdef0123456789abcdef"), "{e}");
}

#[test]
fn contacts_create_and_update_change_the_server() {
    let f = server(30);
    let m = f.manifest().clone();
    let (date_field, _) = field_of_type(&m, "date").expect("a date field");
    let (dropdown, options) = field_of_type(&m, "dropdown").expect("a dropdown field");
    let (checkbox, cb_options) = field_of_type(&m, "checkbox").expect("a checkbox field");
    let tag = m.tags[0].clone();
    let date_arg = format!("{date_field}=1990-04-05");
    let dd_arg = format!("{dropdown}={}", options[0]);
    let cb_arg = format!("{checkbox}={},{}", cb_options[0], cb_options[1]);
    let created = json(
        &f,
        &[
            "contacts",
            "create",
            "--identifier",
            "+15550000123",
            "--source",
            &m.sources[0],
            "--name",
            "Ada Test",
            "--tag",
            &tag,
            "--field",
            &date_arg,
            "--field",
            &dd_arg,
            "--field",
            &cb_arg,
            "--assign",
            &m.collaborators[0],
            "--note",
            "first note",
        ],
    );
    let uuid = created["uuid"].as_str().unwrap().to_string();
    let got = json(&f, &["contacts", "get", &uuid]);
    assert_eq!(got["name"], "Ada Test");
    assert_eq!(got["phoneNumber"], "+15550000123");
    assert_eq!(got["assignedUser"], m.collaborators[0].as_str());
    assert_eq!(got["customFields"][&date_field], "1990-04-05");
    assert_eq!(got["customFields"][&dropdown], options[0].as_str());
    assert_eq!(
        got["customFields"][&checkbox],
        serde_json::json!([cb_options[0], cb_options[1]])
    );
    assert!(got["tags"].as_array().unwrap().iter().any(|t| t == tag.as_str()));

    let updated = json(
        &f,
        &[
            "contacts",
            "update",
            &uuid,
            "--name",
            "Ada Renamed",
            "--field",
            &format!("{date_field}=2001-02-03"),
            "--unassign",
            "--team",
            &m.teams[0].uuid,
            "--note",
            "second note",
        ],
    );
    assert_eq!(updated["name"], "Ada Renamed");
    let got = json(&f, &["contacts", "get", &uuid]);
    assert_eq!(got["name"], "Ada Renamed");
    assert_eq!(got["customFields"][&date_field], "2001-02-03");
    assert!(got["assignedUser"].is_null());
    if got.get("note").is_some() {
        assert_eq!(got["note"], "second note");
        json(&f, &["contacts", "update", &uuid, "--clear-note"]);
        let got = json(&f, &["contacts", "get", &uuid]);
        assert!(got.get("note").is_none_or(|n| n.is_null() || n == ""), "{got}");
    }
    fails(fd(&f), &["contacts", "update", &uuid], 2);
}

#[test]
fn bad_contact_input_is_refused_with_nothing_on_stdout() {
    let f = server(30);
    let m = f.manifest().clone();
    let uuid = first_contact(&f)["uuid"].as_str().unwrap().to_string();
    let (date_field, _) = field_of_type(&m, "date").unwrap();
    // Unknown field: named, known ones listed.
    let e = fails(fd(&f), &["contacts", "update", &uuid, "--field", "Shoe size=42"], 2);
    assert!(e.contains("\"Shoe size\"") && e.contains(&date_field), "{e}");
    let create = |field: &str| {
        vec![
            "contacts".to_string(),
            "create".into(),
            "--identifier".into(),
            "+15550000999".into(),
            "--source".into(),
            m.sources[0].clone(),
            "--name".into(),
            "X".into(),
            "--field".into(),
            field.to_string(),
        ]
    };
    let args = create("Shoe size=42");
    let e = fails(fd(&f), &args.iter().map(String::as_str).collect::<Vec<_>>(), 2);
    assert!(e.contains("Shoe size"), "{e}");
    // Bad date: the field and the problem.
    let bad = format!("{date_field}=1990-02-30");
    let e = fails(fd(&f), &["contacts", "update", &uuid, "--field", &bad], 2);
    assert!(e.contains(&date_field) && e.contains("YYYY-MM-DD"), "{e}");
    // Note too long: refused before any request (the server is not even reachable).
    let long = "n".repeat(1001);
    let mut dead = fd(&f);
    dead.env("FRONTDESK_BASE_URL", "http://127.0.0.1:9/v1");
    let e = fails(dead, &["contacts", "update", &uuid, "--note", &long], 2);
    assert!(e.contains("1000"), "{e}");
    let e = fails(
        fd(&f),
        &[
            "contacts",
            "create",
            "--identifier",
            "+1555",
            "--source",
            "s",
            "--name",
            "n",
            "--note",
            &long,
        ],
        2,
    );
    assert!(e.contains("1000"), "{e}");
    // The unchanged contact proves no request was made.
    let got = json(&f, &["contacts", "get", &uuid]);
    assert_ne!(got.get("note"), Some(&Value::String(long)));
    // Unknown collaborator: the server's validation message, exit 1.
    let e = fails(
        fd(&f),
        &["contacts", "update", &uuid, "--assign", "nobody@nowhere.example"],
        1,
    );
    assert!(e.contains("contacts update"), "{e}");
}

#[test]
fn keys_and_configuration_errors() {
    let f = server(5);
    let mut wrong = fd(&f);
    wrong.env("FRONTDESK_API_KEY", "wrong-key");
    let e = fails(wrong, &["contacts", "list"], 1);
    assert!(e.contains("API key"), "{e}");
    let mut none = fd(&f);
    none.env_remove("FRONTDESK_API_KEY");
    let e = fails(none, &["plan"], 2);
    assert!(e.contains("FRONTDESK_API_KEY") && e.contains("--api-key"), "{e}");
    // The flag beats the environment.
    let mut flag = fd(&f);
    flag.env("FRONTDESK_API_KEY", "wrong-key");
    let o = run(flag, &["plan", "--json", "--api-key", &f.server.api_key]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // Unreachable server: exit 1, one line.
    let mut dead = fd(&f);
    dead.env("FRONTDESK_BASE_URL", "http://127.0.0.1:9/v1");
    fails(dead, &["plan"], 1);
    // --json and --jsonl together: clap's usage error.
    let o = run(fd(&f), &["plan", "--json", "--jsonl"]);
    assert_eq!(o.code, 2);
    assert_eq!(o.stdout, "");
}

#[test]
fn close_open_and_bot() {
    let f = server(10);
    let uuid = first_contact(&f)["uuid"].as_str().unwrap().to_string();
    let closed = json(&f, &["contacts", "close", &uuid]);
    assert!(closed["closedAt"].is_string(), "{closed}");
    assert!(json(&f, &["contacts", "get", &uuid])["closedAt"].is_string());
    let opened = json(&f, &["contacts", "open", &uuid]);
    assert!(opened["closedAt"].is_null());
    assert!(json(&f, &["contacts", "get", &uuid])["closedAt"].is_null());
    let o = run(fd(&f), &["contacts", "close", &uuid]);
    assert!(
        o.stdout
            .lines()
            .any(|l| l.starts_with("status") && l.contains("closed")),
        "{}",
        o.stdout
    );

    let bot = json(&f, &["bot", "get", &uuid]);
    assert!(bot["status"].is_string());
    let stopped = json(&f, &["bot", "stop", &uuid]);
    assert_eq!(stopped["status"], "ended");
    assert_eq!(json(&f, &["bot", "get", &uuid])["status"], "ended");
    let started = json(&f, &["bot", "start", &uuid]);
    assert_eq!(started["status"], "started");
    fails(fd(&f), &["bot", "get", "0123456789abcdef0123456789abcdef"], 1);
}

#[test]
fn messages_list_send_status_delete() {
    let f = server(10);
    let uuid = first_contact(&f)["uuid"].as_str().unwrap().to_string();
    let page = json(&f, &["messages", "list", &uuid]);
    assert!(!page.as_array().unwrap().is_empty());
    let o = run(fd(&f), &["messages", "list", &uuid, "--all", "--jsonl"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.lines().count() >= page.as_array().unwrap().len());
    for line in o.stdout.lines() {
        serde_json::from_str::<Value>(line).unwrap();
    }
    // A template send (always allowed), then its status, then delete it.
    let templates = json(&f, &["templates", "list", "--all"]);
    let approved = templates
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["status"] == "approved")
        .expect("an approved template");
    let sent = json(
        &f,
        &[
            "messages",
            "send",
            &uuid,
            "--template",
            approved["uuid"].as_str().unwrap(),
            "--value",
            "Ann",
        ],
    );
    let msg = sent["uuid"].as_str().unwrap().to_string();
    let in_thread = |f: &Fixture| {
        json(f, &["messages", "list", &uuid, "--all"])
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["uuid"] == msg.as_str())
    };
    assert!(in_thread(&f), "the sent message is in the thread");
    let status = json(&f, &["messages", "status", &msg]);
    assert_eq!(status["uuid"], msg.as_str());
    assert!(status["status"].is_string());
    let deleted = json(&f, &["messages", "delete", &msg]);
    assert_eq!(deleted["deleted"], true);
    assert!(!in_thread(&f), "the deleted message is gone");
    let e = fails(fd(&f), &["messages", "delete", &msg], 1);
    assert!(e.contains("not found"), "{e}");
    // A contact who never wrote: the 24-hour window is closed; the server says so.
    let m = f.manifest().clone();
    let fresh = json(
        &f,
        &[
            "contacts",
            "create",
            "--identifier",
            "+15550004444",
            "--source",
            &m.sources[0],
            "--name",
            "New",
        ],
    );
    let e = fails(
        fd(&f),
        &["messages", "send", fresh["uuid"].as_str().unwrap(), "--text", "hello"],
        1,
    );
    assert!(e.contains("24"), "{e}");
    fails(fd(&f), &["messages", "send", &uuid], 2);
    fails(
        fd(&f),
        &["messages", "status", "00000000-0000-0000-0000-000000000000"],
        1,
    );
}

#[test]
fn templates_channels_funnels_teams_plan() {
    let f = server(5);
    let m = f.manifest().clone();
    let templates = json(&f, &["templates", "list", "--all"]);
    let t = templates[0].clone();
    let tu = t["uuid"].as_str().unwrap();
    assert_eq!(json(&f, &["templates", "get", tu])["uuid"], t["uuid"]);
    json(&f, &["templates", "rename", tu, "Renamed template"]);
    assert_eq!(json(&f, &["templates", "get", tu])["title"], "Renamed template");
    fails(fd(&f), &["templates", "get", "nope"], 1);

    let channels = json(&f, &["channels", "list"]);
    assert_eq!(channels.as_array().unwrap().len(), m.channels.len());
    let cu = m.channels[0].uuid.clone();
    json(&f, &["channels", "rename", &cu, "Front line"]);
    let channels = json(&f, &["channels", "list", "--all"]);
    assert!(
        channels
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["uuid"] == cu.as_str() && c["title"] == "Front line")
    );

    let funnels = json(&f, &["funnels", "list"]);
    assert!(funnels.is_array());
    let o = run(fd(&f), &["funnels", "list"]);
    assert!(o.stdout.starts_with("POSITION"), "{}", o.stdout);

    let teams = json(&f, &["teams", "list", "--all"]);
    assert_eq!(teams.as_array().unwrap().len(), m.teams.len());
    let team = &m.teams[0];
    assert_eq!(json(&f, &["teams", "get", &team.uuid])["name"], team.name.as_str());
    let members = json(&f, &["teams", "members", &team.uuid]);
    assert!(members.is_array());
    for mb in members.as_array().unwrap() {
        assert!(mb["email"].is_string());
    }
    fails(fd(&f), &["teams", "get", "nope"], 1);

    let plan = json(&f, &["plan"]);
    assert!(plan["plan"].is_string() && plan["teams"].is_array());
    let o = run(fd(&f), &["plan"]);
    assert!(o.stdout.starts_with("plan"), "{}", o.stdout);
    // --jsonl on a single object: one line.
    let o = run(fd(&f), &["plan", "--jsonl"]);
    assert_eq!(o.stdout.lines().count(), 1);
}

#[test]
fn custom_statuses_and_own_status() {
    let f = server(5);
    let m = f.manifest().clone();
    let list = json(&f, &["custom-statuses", "list", "--all"]);
    assert_eq!(list.as_array().unwrap().len(), m.custom_statuses.len());
    let id = m.custom_statuses[0].id.clone();
    assert_eq!(
        json(&f, &["custom-statuses", "get", &id])["name"],
        m.custom_statuses[0].name.as_str()
    );
    let created = json(&f, &["custom-statuses", "create", "Deep work", "--emoji", "🎧"]);
    let new_id = created["id"].as_str().unwrap().to_string();
    json(&f, &["custom-statuses", "update", &new_id, "--name", "Focus"]);
    let got = json(&f, &["custom-statuses", "get", &new_id]);
    assert_eq!(got["name"], "Focus");
    assert_eq!(got["emoji"], "🎧");
    // Only the emoji: the name stays.
    json(&f, &["custom-statuses", "update", &new_id, "--emoji", "🧠"]);
    let got = json(&f, &["custom-statuses", "get", &new_id]);
    assert_eq!(
        (got["name"].as_str(), got["emoji"].as_str()),
        (Some("Focus"), Some("🧠"))
    );
    fails(fd(&f), &["custom-statuses", "update", &new_id], 2);
    // Own status, with the user uuid from --user and from the environment.
    let user = m.users[0].uuid.clone();
    let s = json(
        &f,
        &["status", "set", "--away", "--custom-status", &new_id, "--user", &user],
    );
    assert_eq!(s["appearance"]["available"], false);
    assert_eq!(s["custom_status"]["id"], new_id.as_str());
    // The server keeps it: the user shows as away among the team members.
    let email = m.users[0].email.clone();
    let availability = |f: &Fixture| -> Vec<Value> {
        m.teams
            .iter()
            .flat_map(|t| {
                json(f, &["teams", "members", &t.uuid, "--all"])
                    .as_array()
                    .unwrap()
                    .clone()
            })
            .filter(|mb| mb["email"] == email.as_str())
            .map(|mb| mb["available"].clone())
            .collect()
    };
    let seen = availability(&f);
    assert!(!seen.is_empty(), "the user is in a team");
    assert!(seen.iter().all(|a| *a == false), "{seen:?}");
    let mut env_user = fd(&f);
    env_user.env("FRONTDESK_USER_UUID", &user);
    let o = run(
        env_user,
        &["status", "set", "--available", "--clear-custom-status", "--json"],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let s: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(s["appearance"]["available"], true);
    assert!(availability(&f).iter().all(|a| *a == true));
    let e = fails(fd(&f), &["status", "set", "--available"], 2);
    assert!(e.contains("--user") && e.contains("FRONTDESK_USER_UUID"), "{e}");
    fails(fd(&f), &["status", "set", "--user", &user], 2);
    // Delete, then it is gone.
    let d = json(&f, &["custom-statuses", "delete", &new_id]);
    assert_eq!(d["deleted"], true);
    fails(fd(&f), &["custom-statuses", "get", &new_id], 1);
}

#[test]
fn webhook_events() {
    let f = server(5);
    let all = json(&f, &["webhooks", "events", "--all"]);
    let first = json(&f, &["webhooks", "events", "--items", "2"]);
    assert!(first.as_array().unwrap().len() <= 2);
    let second = json(&f, &["webhooks", "events", "--items", "2", "--page", "2"]);
    assert_ne!(first, second);
    let o = run(fd(&f), &["webhooks", "events", "--items", "2"]);
    assert_eq!(o.code, 0);
    assert!(o.stderr.starts_with("more: --page 2 (of "), "{}", o.stderr);
    assert!(all.as_array().unwrap().len() >= first.as_array().unwrap().len());
    let failed = json(&f, &["webhooks", "events", "--status", "failed", "--all"]);
    for e in failed.as_array().unwrap() {
        assert_eq!(e["success"], false, "{e}");
    }
    let kinds = json(
        &f,
        &["webhooks", "events", "--subscriptions", "message_created", "--all"],
    );
    for e in kinds.as_array().unwrap() {
        assert_eq!(e["event"], "message_created", "{e}");
    }
    fails(fd(&f), &["webhooks", "events", "--status", "maybe"], 2);
}

#[test]
fn server_text_is_made_inert_in_tables() {
    let f = server(5);
    let m = f.manifest().clone();
    let created = json(
        &f,
        &[
            "contacts",
            "create",
            "--identifier",
            "+15550007777",
            "--source",
            &m.sources[0],
            "--name",
            "Eve\u{1b}]0;pwned\u{7}\u{1b}[31mRed\u{202e}",
        ],
    );
    let uuid = created["uuid"].as_str().unwrap();
    let o = run(fd(&f), &["contacts", "get", uuid]);
    assert_eq!(o.code, 0);
    assert!(!o.stdout.contains('\u{1b}') && !o.stdout.contains('\u{7}') && !o.stdout.contains('\u{202e}'));
    assert!(o.stdout.contains("Eve"));
    // JSON keeps the text, escaped.
    let o = run(fd(&f), &["contacts", "get", uuid, "--json"]);
    assert!(!o.stdout.contains('\u{1b}'));
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert!(v["name"].as_str().unwrap().contains('\u{1b}'));
}

#[test]
fn completions_produce_scripts() {
    for (shell, marker) in [
        ("bash", "complete"),
        ("zsh", "#compdef"),
        ("fish", "complete -c frontdesk"),
    ] {
        let o = Command::cargo_bin("frontdesk")
            .unwrap()
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(o.status.success());
        let s = String::from_utf8(o.stdout).unwrap();
        assert!(s.contains(marker) && s.contains("contacts"), "{shell}");
    }
}

// ---------- against a local responder: failures and faithful JSON ----------

/// The binary pointed at a wiremock responder on 127.0.0.1.
fn fd_at(base_url: &str) -> Command {
    let mut c = Command::cargo_bin("frontdesk").expect("binary");
    for var in [
        "FRONTDESK_PROFILE",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_CONFIG",
        "NO_COLOR",
    ] {
        c.env_remove(var);
    }
    c.env("FRONTDESK_BASE_URL", format!("{base_url}/v1"))
        .env("FRONTDESK_API_KEY", "sk_test_cli_key_1234")
        .arg("--config")
        .arg(no_config());
    c
}

fn mock_server() -> wiremock::MockServer {
    common::runtime().block_on(wiremock::MockServer::start())
}

fn mount(server: &wiremock::MockServer, mock: wiremock::Mock) {
    common::runtime().block_on(mock.mount(server));
}

fn contact_json(uuid: &str) -> Value {
    serde_json::json!({
        "uuid": uuid, "name": "Ann\u{9b}31m \u{202e}x", "phoneNumber": "+1555",
        "createdAt": "2026-01-02T03:04:05.678Z", "source": "messaging_app",
        "lastMessageAt": "2026-01-03T03:04:05.120Z", "closedAt": null,
        "customFields": {"Interests": "[\"a\",\"b\"]"},
        "customFieldsMetadata": {
            "Birthday": {"value": null, "type": "date"},
            "Interests": {"value": ["a", "b"], "type": "checkbox", "options": ["a", "b", "c"]}
        }
    })
}

#[test]
fn a_failed_walk_prints_nothing_with_json_and_a_partial_stream_with_jsonl() {
    use wiremock::matchers::{method, path, query_param};
    use wiremock::{Mock, ResponseTemplate};
    let server = mock_server();
    mount(
        &server,
        Mock::given(method("GET"))
            .and(path("/v1/contacts"))
            .and(query_param("after", "c2"))
            .respond_with(ResponseTemplate::new(400).set_body_json(serde_json::json!({"error": "bad cursor"}))),
    );
    mount(
        &server,
        Mock::given(method("GET"))
            .and(path("/v1/contacts"))
            .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
                "contacts": [contact_json("u1"), contact_json("u2")], "meta": {"next": "c2"}
            }))),
    );
    let err = fails(fd_at(&server.uri()), &["contacts", "list", "--all", "--json"], 1);
    assert!(err.contains("bad cursor"), "{err}");
    let o = run(fd_at(&server.uri()), &["contacts", "list", "--all", "--jsonl"]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(o.stdout.lines().count(), 2, "the page before the failure: {}", o.stdout);
    assert!(o.stderr.contains("after 2 items"), "{}", o.stderr);
}

#[test]
fn json_output_keeps_the_apis_data_and_escapes_terminal_controls() {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, ResponseTemplate};
    let server = mock_server();
    mount(
        &server,
        Mock::given(method("GET")).and(path("/v1/contacts/u1")).respond_with(
            ResponseTemplate::new(200).set_body_json(serde_json::json!({"contact": [contact_json("u1")]})),
        ),
    );
    let o = run(
        fd_at(&server.uri()),
        &["contacts", "get", "u1", "--field-types", "--json"],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        !o.stdout.contains('\u{9b}') && !o.stdout.contains('\u{202e}'),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains(r"Ann\u009b31m \u202ex"), "{}", o.stdout);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["name"], "Ann\u{9b}31m \u{202e}x", "the same data once parsed");
    assert_eq!(v["createdAt"], "2026-01-02T03:04:05.678Z");
    assert!(
        v.get("lastMessageAt").is_none(),
        "not the service's: never read from the wire"
    );
    assert_eq!(
        v["customFieldsMetadata"]["Birthday"],
        serde_json::json!({"value": null, "type": "date"})
    );
    assert_eq!(
        v["customFieldsMetadata"]["Interests"]["options"],
        serde_json::json!(["a", "b", "c"])
    );
    // The one documented normalisation: a checkbox value is an array.
    assert_eq!(v["customFields"]["Interests"], serde_json::json!(["a", "b"]));
}

#[test]
fn lost_answers_say_what_may_have_happened() {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, ResponseTemplate};
    let server = mock_server();
    mount(
        &server,
        Mock::given(method("POST"))
            .and(path("/v1/contacts"))
            .respond_with(ResponseTemplate::new(502)),
    );
    mount(
        &server,
        Mock::given(method("GET")).and(path("/v1/contacts/u1")).respond_with(
            ResponseTemplate::new(200).set_body_json(serde_json::json!({"contact": [contact_json("u1")]})),
        ),
    );
    mount(
        &server,
        Mock::given(method("POST"))
            .and(path("/v1/messages/send"))
            .respond_with(ResponseTemplate::new(500)),
    );
    let args = [
        "contacts",
        "create",
        "--identifier",
        "+1555",
        "--source",
        "messaging_app",
        "--name",
        "A",
    ];
    let err = fails(fd_at(&server.uri()), &args, 1);
    assert!(err.contains("may still have been carried out"), "{err}");
    assert!(
        err.contains(r#"frontdesk contacts list --all --jsonl | grep -F '"phoneNumber":"+1555"'"#),
        "{err}"
    );
    let err = fails(fd_at(&server.uri()), &["messages", "send", "u1", "--text", "hi"], 1);
    assert!(err.contains("may still have been carried out"), "{err}");
    assert!(err.contains("frontdesk messages list u1 --page 1"), "{err}");

    // A delete whose first answer was lost: the retry's 404 means done.
    let server = mock_server();
    mount(
        &server,
        Mock::given(method("DELETE"))
            .and(path("/v1/messages"))
            .respond_with(ResponseTemplate::new(503))
            .up_to_n_times(1),
    );
    mount(
        &server,
        Mock::given(method("DELETE"))
            .and(path("/v1/messages"))
            .respond_with(ResponseTemplate::new(404).set_body_json(serde_json::json!({"error": "not found"}))),
    );
    let o = run(fd_at(&server.uri()), &["messages", "delete", "m1"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("already deleted"), "{}", o.stdout);
}
