//! Issue 21: writes stay right when several agents work the same account.
//! The real binary against the embedded server; a second client (plain
//! HTTP) acts as the colleague, and the server's fault knobs make the races.

use std::collections::{BTreeMap, HashSet};
use std::process::{Command as Std, Stdio};

use assert_cmd::cargo::CommandCargoExt;
use frontdesk::server::{FaultKnobs, RunningServer, ServerConfig};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

mod common;

struct Env {
    server: RunningServer,
    home: tempfile::TempDir,
}

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn env(cfg: ServerConfig) -> Env {
    let e = Env {
        server: common::spawn_blocking(cfg),
        home: tempfile::tempdir().unwrap(),
    };
    std::fs::write(e.home.path().join("config.toml"), "").unwrap();
    e
}

impl Env {
    fn command(&self, args: &[&str]) -> Std {
        let mut c = Std::cargo_bin("frontdesk").unwrap();
        for var in [
            "FRONTDESK_PROFILE",
            "FRONTDESK_USER_UUID",
            "FRONTDESK_USER_EMAIL",
            "FRONTDESK_CONFIG",
        ] {
            c.env_remove(var);
        }
        c.env("FRONTDESK_BASE_URL", &self.server.base_url)
            .env("FRONTDESK_API_KEY", &self.server.api_key)
            .env("XDG_CACHE_HOME", self.home.path().join("cache"))
            .env("XDG_STATE_HOME", self.home.path().join("state"))
            .env("HOME", self.home.path())
            .arg("--config")
            .arg(self.home.path().join("config.toml"))
            .args(["--sync-rate", "0"])
            .args(args)
            .stdin(Stdio::null());
        c
    }

    fn run(&self, args: &[&str]) -> Run {
        let o = self.command(args).output().unwrap();
        Run {
            code: o.status.code().unwrap_or(-1),
            out: String::from_utf8_lossy(&o.stdout).into_owned(),
            err: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }

    fn raw(&self) -> common::Raw {
        common::Raw::new(&self.server)
    }

    /// Every contact as the service holds it, in list order.
    fn walk(&self) -> Vec<Value> {
        let raw = self.raw();
        common::runtime().block_on(async {
            let mut out = Vec::new();
            let mut path = "/contacts".to_string();
            loop {
                let page = raw.ok(&path).await;
                out.extend(page["contacts"].as_array().unwrap().iter().cloned());
                match page["meta"]["next"].as_str() {
                    Some(next) => {
                        path = format!(
                            "/contacts?after={}",
                            url::form_urlencoded::byte_serialize(next.as_bytes()).collect::<String>()
                        )
                    }
                    None => break,
                }
            }
            out
        })
    }

    fn by_uuid(&self) -> BTreeMap<String, Value> {
        self.walk()
            .into_iter()
            .map(|c| (c["uuid"].as_str().unwrap().to_string(), c))
            .collect()
    }

    /// The colleague's write, through plain HTTP.
    fn colleague(&self, method: Method, path: &str, body: Value) {
        let (st, v) = common::runtime().block_on(self.raw().call(method, path, Some(body)));
        assert_eq!(st, StatusCode::OK, "{path}: {v}");
    }
}

fn jsonl(s: &str) -> Vec<Value> {
    s.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn uuid_set<'a>(rows: impl IntoIterator<Item = &'a Value>) -> HashSet<String> {
    rows.into_iter()
        .map(|r| r["uuid"].as_str().unwrap().to_string())
        .collect()
}

fn tags_of(c: &Value) -> HashSet<String> {
    c["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_lowercase())
        .collect()
}

fn knobs(k: FaultKnobs, contacts: usize, seed: u64) -> ServerConfig {
    ServerConfig {
        knobs: k,
        ..common::config(contacts, seed)
    }
}

#[test]
fn a_bulk_close_whose_answers_are_500s_after_applying_reports_them_applied() {
    let e = env(knobs(
        FaultKnobs {
            apply_then_fail: 1.0,
            ..FaultKnobs::default()
        },
        40,
        7,
    ));
    let open: HashSet<String> = uuid_set(e.walk().iter().filter(|c| c["closedAt"].is_null()));
    assert!(open.len() > 10, "{}", open.len());
    let r = e.run(&["contacts", "close", "--view", "open", "--yes", "--jsonl"]);
    assert_eq!(r.code, 0, "every write was applied: {}\n{}", r.out, r.err);
    let rows = jsonl(&r.out);
    assert_eq!(uuid_set(&rows), open);
    assert!(
        rows.iter().all(|r| r["ok"] == true && r["outcome"] == "applied"),
        "{}",
        r.out
    );
    assert!(
        r.err.contains(&format!("closed {} of {}", open.len(), open.len())),
        "{}",
        r.err
    );
    let now = e.by_uuid();
    assert!(open.iter().all(|u| !now[u]["closedAt"].is_null()));
}

#[test]
fn a_contact_a_colleague_changed_since_it_was_listed_is_skipped_not_overwritten() {
    let e = env(common::config(150, 11));
    let me = e.server.manifest.collaborators[0].clone();
    let bob = e.server.manifest.collaborators[1].clone();
    // The index is built, and lists the unassigned ones.
    let r = e.run(&[
        "--email",
        &me,
        "contacts",
        "assign",
        "me",
        "--view",
        "unassigned",
        "--dry-run",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let listed = uuid_set(serde_json::from_str::<Value>(&r.out).unwrap().as_array().unwrap());
    // Far down the list, where an incremental pass does not look, a
    // colleague takes three of them.
    let order: Vec<String> = e
        .walk()
        .iter()
        .map(|c| c["uuid"].as_str().unwrap().to_string())
        .collect();
    let taken: Vec<String> = order[60..]
        .iter()
        .filter(|u| listed.contains(*u))
        .take(3)
        .cloned()
        .collect();
    assert_eq!(taken.len(), 3);
    for u in &taken {
        e.colleague(
            Method::PATCH,
            &format!("/contacts/{u}"),
            json!({ "assigned_user": bob }),
        );
    }

    let r = e.run(&[
        "--email",
        &me,
        "contacts",
        "assign",
        "me",
        "--view",
        "unassigned",
        "--yes",
        "--jsonl",
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.out, r.err);
    let rows = jsonl(&r.out);
    let skipped = uuid_set(rows.iter().filter(|r| r["outcome"] == "skipped"));
    assert_eq!(skipped, taken.iter().cloned().collect());
    assert!(r.err.contains("skipped: changed since listed: 3"), "{}", r.err);
    let now = e.by_uuid();
    for u in &taken {
        assert_eq!(
            now[u]["assignedUser"],
            bob.as_str(),
            "the colleague's assignment stands"
        );
    }
    for u in listed.iter().filter(|u| !taken.contains(u)) {
        assert_eq!(now[u]["assignedUser"], me.as_str());
    }
}

/// The trial: two tag runs at once over the same 40 contacts, each read
/// held back so their read-then-write cycles overlap.
#[test]
fn two_tag_runs_at_once_on_the_same_contacts_lose_nothing() {
    let e = env(knobs(
        FaultKnobs {
            hold_ms: 40,
            hold_path: Some("/contacts/*".into()),
            ..FaultKnobs::default()
        },
        40,
        5,
    ));
    let tags = e.server.manifest.tags.clone();
    let (a, b) = (tags[0].to_lowercase(), tags[1].to_lowercase());
    let before = e.by_uuid();
    let r = e.run(&["contacts", "tag", &a, "--view", "all", "--dry-run"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let spawn = |tag: &str| {
        e.command(&["contacts", "tag", tag, "--view", "all", "--yes", "--jsonl"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (first, second) = (spawn(&a), spawn(&b));
    let outputs = [first.wait_with_output().unwrap(), second.wait_with_output().unwrap()];
    let after = e.by_uuid();
    let mut lost = Vec::new();
    for (tag, o) in [&a, &b].into_iter().zip(&outputs) {
        let out = String::from_utf8_lossy(&o.stdout);
        for row in jsonl(&out) {
            let u = row["uuid"].as_str().unwrap();
            let shows = tags_of(&after[u]).contains(tag.as_str());
            // Never reported added when the service does not show it.
            assert_eq!(row["ok"] == true, shows, "{row}");
            if !shows {
                lost.push(format!("{tag} on {u}"));
            }
        }
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert!(lost.is_empty(), "lost: {lost:?}");
    for (u, c) in &after {
        let mut want = tags_of(&before[u]);
        want.extend([a.clone(), b.clone()]);
        assert_eq!(tags_of(c), want, "{u}: every tag it had, plus both");
    }
}

#[test]
fn undo_reverts_what_is_still_as_the_run_left_it_and_names_a_colleagues_edit_as_a_conflict() {
    let e = env(common::config(30, 9));
    let me = e.server.manifest.collaborators[0].clone();
    let bob = e.server.manifest.collaborators[1].clone();
    let before = e.by_uuid();
    let r = e.run(&[
        "--email",
        &me,
        "contacts",
        "assign",
        "me",
        "--view",
        "unassigned",
        "--yes",
        "--jsonl",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let assigned: Vec<String> = jsonl(&r.out)
        .iter()
        .filter(|r| r["ok"] == true)
        .map(|r| r["uuid"].as_str().unwrap().to_string())
        .collect();
    assert!(assigned.len() >= 3, "{}", assigned.len());
    let theirs = assigned[0].clone();
    e.colleague(
        Method::PATCH,
        &format!("/contacts/{theirs}"),
        json!({ "assigned_user": bob }),
    );

    let r = e.run(&["history", "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let runs: Vec<Value> = serde_json::from_str(&r.out).unwrap();
    let id = runs[0]["id"].as_str().unwrap().to_string();
    assert_eq!(runs[0]["applied"], assigned.len());

    let r = e.run(&["undo", &id, "--jsonl"]);
    assert_eq!(r.code, 0, "{}\n{}", r.out, r.err);
    let rows = jsonl(&r.out);
    let conflict = rows.iter().find(|r| r["uuid"] == theirs.as_str()).unwrap();
    assert_eq!(conflict["outcome"], "conflict", "{conflict}");
    let says = conflict["conflicts"][0].as_str().unwrap();
    assert!(says.contains("assignee") && says.contains(&bob), "{says}");
    let now = e.by_uuid();
    assert_eq!(
        now[&theirs]["assignedUser"],
        bob.as_str(),
        "the colleague's edit stands"
    );
    for u in &assigned[1..] {
        assert_eq!(now[u]["assignedUser"], before[u]["assignedUser"], "{u} reverted");
    }
    // Undone once; a second undo of it is refused.
    let r = e.run(&["undo", &id]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.err.contains("already undone"), "{}", r.err);
}

#[test]
fn the_history_file_is_readable_by_its_owner_alone() {
    let e = env(common::config(10, 2));
    let r = e.run(&["contacts", "close", "--view", "open", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let path = e.home.path().join("state/frontdesk/history.jsonl");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains(&e.server.api_key), "the key never goes in the history");
}

#[cfg(unix)]
#[test]
fn a_bulk_run_ended_by_a_signal_settles_what_is_in_flight_and_says_how_to_undo() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let e = env(ServerConfig {
            latency_ms: 60,
            ..common::config(80, 4)
        });
        let r = e.run(&["contacts", "close", "--view", "open", "--dry-run"]);
        assert_eq!(r.code, 0, "{}", r.err);
        let open: HashSet<String> = uuid_set(e.walk().iter().filter(|c| c["closedAt"].is_null()));
        let child = e
            .command(&["contacts", "close", "--view", "open", "--yes", "--jsonl"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait (bounded) until the run has closed a few.
        let mut closed = 0;
        for _ in 0..2000 {
            closed = open.len() - e.walk().iter().filter(|c| c["closedAt"].is_null()).count();
            if closed >= 3 {
                break;
            }
        }
        assert!(closed >= 3, "the run never got going");
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let o = child.wait_with_output().unwrap();
        let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert_eq!(o.status.code(), Some(1), "{err}");
        let rows = jsonl(&out);
        let done = uuid_set(rows.iter().filter(|r| r["ok"] == true));
        let now_closed: HashSet<String> = uuid_set(
            e.walk()
                .iter()
                .filter(|c| open.contains(c["uuid"].as_str().unwrap()) && !c["closedAt"].is_null()),
        );
        assert_eq!(
            done, now_closed,
            "every contact it closed is in the output, and only those"
        );
        assert!(done.len() < open.len(), "it stopped early");
        let id = err
            .split("frontdesk undo ")
            .nth(1)
            .and_then(|rest| rest.split('`').next())
            .unwrap_or_else(|| panic!("no undo hint: {err}"))
            .to_string();
        let r = e.run(&["history", "--json"]);
        let runs: Vec<Value> = serde_json::from_str(&r.out).unwrap();
        assert_eq!(runs[0]["id"], id.as_str());
        assert_eq!(runs[0]["applied"], done.len());
        assert!(runs[0]["note"].as_str().unwrap().contains("interrupted"), "{}", runs[0]);
        let r = e.run(&["undo", &id, "--jsonl"]);
        assert_eq!(r.code, 0, "{}", r.err);
        let reopened: HashSet<String> = uuid_set(e.walk().iter().filter(|c| c["closedAt"].is_null()));
        assert_eq!(reopened, open, "the undo reopened exactly what the run closed");
    }
}
