//! `frontdesk report` against the embedded server: seed, sync, report, and
//! check the figures a lead would check against what the server holds.

use std::collections::BTreeMap;

use assert_cmd::Command;
use chrono::{DateTime, Utc};
use frontdesk::server::RunningServer;
use serde_json::Value;

mod common;

struct Env {
    server: RunningServer,
    home: tempfile::TempDir,
}

fn env(contacts: usize) -> Env {
    Env {
        server: common::spawn_blocking(common::config(contacts, 24)),
        home: tempfile::tempdir().unwrap(),
    }
}

impl Env {
    fn run_with_key(&self, key: &str, args: &[&str]) -> (i32, String, String) {
        let mut c = Command::cargo_bin("frontdesk").unwrap();
        for var in [
            "FRONTDESK_PROFILE",
            "FRONTDESK_USER_UUID",
            "FRONTDESK_CONFIG",
            "NO_COLOR",
        ] {
            c.env_remove(var);
        }
        let config = self.home.path().join("config.toml");
        std::fs::write(&config, "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let o = c
            .env("FRONTDESK_BASE_URL", &self.server.base_url)
            .env("FRONTDESK_API_KEY", key)
            .env("XDG_CACHE_HOME", self.home.path().join("cache"))
            .env("HOME", self.home.path())
            .arg("--config")
            .arg(config)
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        self.run_with_key(&self.server.api_key, args)
    }

    /// Every contact, as the server holds it.
    fn contacts(&self) -> Vec<Value> {
        let raw = common::Raw::new(&self.server);
        let mut out = Vec::new();
        let mut page = 1;
        loop {
            let v = common::runtime().block_on(raw.ok(&format!("/contacts?page={page}")));
            out.extend(v["contacts"].as_array().unwrap().iter().cloned());
            if page >= v["meta"]["pages"].as_u64().unwrap_or(1) {
                return out;
            }
            page += 1;
        }
    }

    /// Whether the customer waits for a person's answer (README "Who is
    /// waiting").
    fn customer_waits(&self, uuid: &str) -> bool {
        let raw = common::Raw::new(&self.server);
        let v = common::runtime().block_on(raw.ok(&format!("/contacts/{uuid}/messages")));
        common::customer_waits(&v)
    }
}

fn time(v: &Value) -> Option<DateTime<Utc>> {
    v.as_str()
        .and_then(|s| DateTime::parse_from_rfc3339(s).ok())
        .map(|t| t.with_timezone(&Utc))
}

fn per_day(contacts: &[Value], field: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for c in contacts {
        if let Some(t) = time(&c[field]) {
            *out.entry(t.date_naive().to_string()).or_insert(0) += 1;
        }
    }
    out
}

fn report_days(group: &Value, field: &str) -> BTreeMap<String, u64> {
    group["days"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d[field].as_u64().unwrap() > 0)
        .map(|d| (d["day"].as_str().unwrap().to_string(), d[field].as_u64().unwrap()))
        .collect()
}

#[test]
fn an_empty_index_says_how_to_fill_it() {
    let e = env(5);
    let (code, out, err) = e.run(&["report"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        err.contains("frontdesk sync") && err.contains("no API request"),
        "{err}"
    );
    let (code, _, err) = e.run(&["report", "--since", "soon"]);
    assert_eq!(code, 2);
    assert!(err.contains("30m"), "{err}");
    let (code, _, err) = e.run(&["report", "--from", "2026-03-05", "--to", "2026-03-01"]);
    assert_eq!(code, 2);
    assert!(err.contains("--to must not be before --from"), "{err}");
}

#[test]
fn figures_match_what_the_server_holds_and_need_no_request() {
    let e = env(150);
    assert_eq!(e.run(&["sync"]).0, 0);
    // `views` reads who wrote last in each open conversation.
    let (code, _, err) = e.run(&["views"]);
    assert_eq!(code, 0, "{err}");
    let contacts = e.contacts();
    let first = contacts.iter().filter_map(|c| time(&c["createdAt"])).min().unwrap();
    let (from, to) = (first.date_naive().to_string(), Utc::now().date_naive().to_string());
    // A wrong key: any API request would fail, so the report makes none.
    let args = ["report", "--from", &from, "--to", &to, "--json"];
    let (code, out, err) = e.run_with_key("wrong-key", &args);
    assert_eq!(code, 0, "{err}");
    let r: Value = serde_json::from_str(&out).unwrap();
    let all = &r["groups"][0];
    assert_eq!(all["group"], "all");
    assert_eq!(r["contacts"], 150);
    assert_eq!(report_days(all, "opened"), per_day(&contacts, "createdAt"));
    assert_eq!(report_days(all, "closed"), per_day(&contacts, "closedAt"));
    assert_eq!(all["opened"], 150);

    let open: Vec<&Value> = contacts.iter().filter(|c| c["closedAt"].is_null()).collect();
    let waiting = open
        .iter()
        .filter(|c| e.customer_waits(c["uuid"].as_str().unwrap()))
        .count() as u64;
    let w = &all["waiting"];
    let buckets: u64 = w["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .sum();
    assert_eq!(r["unknown"]["waiting"], 0, "{}", r["unknown"]);
    assert!(waiting > 0);
    assert_eq!(w["total"].as_u64(), Some(waiting));
    assert_eq!(buckets, waiting);
    let measured = all["resolution"]["count"].as_u64().unwrap();
    assert_eq!(measured, all["closed"].as_u64().unwrap());
}

#[test]
fn groups_by_agent_add_up_and_table_and_csv_read_the_same() {
    let e = env(60);
    assert_eq!(e.run(&["sync"]).0, 0);
    let (code, out, err) = e.run(&["report", "--since", "400d", "--by", "agent", "--json"]);
    assert_eq!(code, 0, "{err}");
    let r: Value = serde_json::from_str(&out).unwrap();
    let groups = r["groups"].as_array().unwrap();
    assert!(groups.len() > 2, "{out}");
    let sum: u64 = groups[1..].iter().map(|g| g["opened"].as_u64().unwrap()).sum();
    assert_eq!(
        Some(sum),
        groups[0]["opened"].as_u64(),
        "each conversation has one agent"
    );

    let (code, table, err) = e.run(&["report", "--since", "400d", "--by", "agent"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        table.contains("WAITING NOW") && table.contains("no API request"),
        "{table}"
    );
    let (code, csv, err) = e.run(&["report", "--since", "400d", "--by", "agent", "--csv"]);
    assert_eq!(code, 0, "{err}");
    assert!(csv.starts_with("group,day,opened,closed,"), "{csv}");
    let total = csv.lines().find(|l| l.starts_with("all,total,")).unwrap();
    assert_eq!(total.split(',').nth(2), Some(sum.to_string().as_str()), "{total}");
    let (code, _, err) = e.run(&["report", "--csv", "--json"]);
    assert_eq!(code, 2, "{err}");
}
