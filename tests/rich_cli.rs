//! What the documented service offers beyond the reference, from the
//! command line against the embedded server: internal notes, funnels,
//! lookups by phone and bsuid, deleting a contact, media sends by URL,
//! whose key this is (doctor, Mine), channels, teams and custom status.

use std::sync::OnceLock;

use assert_cmd::Command;
use frontdesk::server::RunningServer;
use serde_json::Value;

mod common;

struct Env {
    server: RunningServer,
    home: tempfile::TempDir,
}

fn env() -> Env {
    Env {
        server: common::spawn_blocking(common::config(60, 35)),
        home: tempfile::tempdir().expect("temp dir"),
    }
}

/// One account for the tests that only read or write their own contact.
fn shared() -> &'static Env {
    static ENV: OnceLock<Env> = OnceLock::new();
    ENV.get_or_init(env)
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Env {
    /// The binary on this server, with `config` as the config file.
    fn fd(&self, config: &str) -> Command {
        let mut c = Command::cargo_bin("frontdesk").expect("binary");
        for var in [
            "FRONTDESK_PROFILE",
            "FRONTDESK_USER_UUID",
            "FRONTDESK_CONFIG",
            "NO_COLOR",
        ] {
            c.env_remove(var);
        }
        let path = self.home.path().join(format!("config-{}.toml", config.len()));
        std::fs::write(&path, config).expect("config");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        }
        c.env("FRONTDESK_BASE_URL", &self.server.base_url)
            .env("FRONTDESK_API_KEY", &self.server.api_key)
            .env("XDG_CACHE_HOME", self.home.path().join("cache"))
            .env("HOME", self.home.path())
            .arg("--config")
            .arg(path);
        c
    }

    fn run_with(&self, config: &str, args: &[&str]) -> Out {
        let o = self.fd(config).args(args).output().expect("runs");
        Out {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }

    fn run(&self, args: &[&str]) -> Out {
        self.run_with("", args)
    }

    fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        let o = self.run(&all);
        assert_eq!(o.code, 0, "{args:?} failed: {}", o.stderr);
        serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", o.stdout))
    }

    /// The server's own contact list (first page), not through the client.
    fn contacts(&self) -> Vec<Value> {
        let raw = common::Raw::new(&self.server);
        let v = common::runtime().block_on(raw.ok("/contacts"));
        v["contacts"].as_array().cloned().unwrap_or_default()
    }

    /// A contact with a phone number, the `n`th of the first page.
    fn phone_contact(&self, n: usize) -> Value {
        self.contacts()
            .into_iter()
            .filter(|c| c["phoneNumber"].as_str().is_some_and(|p| !p.is_empty()))
            .nth(n)
            .expect("a contact with a phone number")
    }
}

fn uuid_of(c: &Value) -> String {
    c["uuid"].as_str().expect("uuid").to_string()
}

#[test]
fn a_note_is_written_and_shows_in_the_thread_as_a_note() {
    let e = shared();
    let c = uuid_of(&e.phone_contact(0));
    let noted = e.json(&["contacts", "note", &c, "Called back, @bea follows up"]);
    assert_eq!(noted["contact"], c.as_str());
    let messages = e.json(&["messages", "list", &c]);
    let note = messages
        .as_array()
        .expect("a list")
        .iter()
        .find(|m| m["text"] == "Called back, @bea follows up")
        .expect("the note is in the thread");
    assert_eq!(note["status"], "note");
    let table = e.run(&["contacts", "note", &c, "   "]);
    assert_eq!(table.code, 2, "an empty note is refused: {}", table.stderr);
    assert!(table.stderr.contains("the note must not be empty"), "{}", table.stderr);
}

#[test]
fn a_conversation_moves_to_another_funnel() {
    let e = shared();
    let c = uuid_of(&e.phone_contact(1));
    let funnels = e.json(&["funnels", "list"]);
    let funnel = funnels[funnels.as_array().expect("funnels").len() - 1]["uuid"]
        .as_str()
        .expect("a funnel uuid")
        .to_string();
    let moved = e.json(&["contacts", "funnel", &c, &funnel]);
    assert_eq!(moved["uuid"], c.as_str());
    assert_eq!(moved["funnelId"], funnel.as_str());
    let unknown = e.run(&["contacts", "funnel", &c, "no-such-funnel"]);
    assert_eq!(unknown.code, 1, "{}", unknown.stdout);
    assert!(
        unknown.stderr.contains("funnel_uuid"),
        "the service's reason: {}",
        unknown.stderr
    );
}

#[test]
fn a_customer_is_found_by_phone_number_or_bsuid() {
    let e = shared();
    let c = e.phone_contact(2);
    let phone = c["phoneNumber"].as_str().expect("phone").to_string();
    let found = e.json(&["contacts", "get", "--phone", &phone]);
    assert_eq!(found["uuid"], c["uuid"]);
    let table = e.run(&["contacts", "get", "--phone", &phone]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains(c["name"].as_str().expect("name")),
        "{}",
        table.stdout
    );

    let with_bsuid = e
        .contacts()
        .into_iter()
        .find(|c| c["bsuid"].as_str().is_some_and(|b| !b.is_empty()))
        .expect("a contact with a bsuid");
    let bsuid = with_bsuid["bsuid"].as_str().expect("bsuid");
    assert_eq!(
        e.json(&["contacts", "get", "--bsuid", bsuid])["uuid"],
        with_bsuid["uuid"]
    );

    let nobody = e.run(&["contacts", "get", "--phone", "+99 000 000 000"]);
    assert_eq!((nobody.code, nobody.stdout.as_str()), (1, ""));
    assert!(nobody.stderr.contains("no contact has it"), "{}", nobody.stderr);
    let both = e.run(&["contacts", "get", "some-uuid", "--phone", &phone]);
    assert_eq!(both.code, 2, "a uuid and a lookup at once is a usage error");
}

#[test]
fn deleting_a_contact_asks_first_and_says_it_cannot_be_undone() {
    let e = shared();
    let c = uuid_of(&e.phone_contact(3));
    // Off a terminal nothing is asked and nothing is deleted.
    let refused = e.run(&["contacts", "delete", &c]);
    assert_eq!((refused.code, refused.stdout.as_str()), (2, ""));
    assert!(refused.stderr.contains("cannot be undone"), "{}", refused.stderr);
    assert!(refused.stderr.contains("--yes"), "{}", refused.stderr);
    assert_eq!(e.json(&["contacts", "get", &c])["uuid"], c.as_str(), "still there");

    let deleted = e.json(&["contacts", "delete", &c, "--yes"]);
    assert_eq!(deleted["deleted"], true);
    let gone = e.run(&["contacts", "get", &c]);
    assert_eq!(gone.code, 1, "{}", gone.stdout);
    let again = e.run(&["contacts", "delete", &c, "--yes"]);
    assert_eq!(again.code, 1);
    assert!(again.stderr.contains("no such contact"), "{}", again.stderr);
}

#[test]
fn an_image_and_a_document_are_sent_by_url_with_a_caption() {
    let e = shared();
    let c = uuid_of(&e.phone_contact(4));
    // The customer wrote just now: the 24-hour window is open.
    assert!(
        common::runtime()
            .block_on(e.server.customer_writes(&c, "can you send the manual?"))
            .expect("writes")
    );
    let sent = e.json(&[
        "messages",
        "send",
        &c,
        "--image",
        "https://files.example.com/shoe.jpg",
        "--text",
        "the red one",
    ]);
    assert!(sent["uuid"].as_str().is_some_and(|u| !u.is_empty()), "{sent}");
    let doc = e.json(&[
        "messages",
        "send",
        &c,
        "--document",
        "https://files.example.com/manual.pdf",
    ]);
    assert!(doc["uuid"].as_str().is_some_and(|u| !u.is_empty()), "{doc}");
    let listed = e.json(&["messages", "list", &c]);
    assert!(
        listed
            .as_array()
            .expect("list")
            .iter()
            .any(|m| m["text"] == "the red one"),
        "the caption is the message's text: {listed}"
    );

    let local = e.run(&["messages", "send", &c, "--image", "/home/me/shoe.jpg"]);
    assert_eq!((local.code, local.stdout.as_str()), (2, ""));
    assert!(local.stderr.contains("http(s) URL"), "{}", local.stderr);
    let two = e.run(&[
        "messages",
        "send",
        &c,
        "--image",
        "https://a.example/x.jpg",
        "--video",
        "https://a.example/y.mp4",
    ]);
    assert_eq!(two.code, 2, "one file a message");
}

#[test]
fn doctor_names_the_keys_user_and_mine_is_theirs_without_an_email() {
    let e = env();
    let doctor = e.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("Alex Agent"),
        "doctor: {}{}",
        doctor.stdout,
        doctor.stderr
    );
    assert!(doctor.stdout.contains("alex@frontdesk.example"), "{}", doctor.stdout);

    let mine = |config: &str| -> Value {
        let o = e.run_with(config, &["views", "--json"]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let views: Value = serde_json::from_str(&o.stdout).expect("json");
        views
            .as_array()
            .expect("views")
            .iter()
            .find(|v| v["name"] == "Mine")
            .expect("Mine")
            .clone()
    };
    let unconfigured = mine("");
    let configured = mine("user_email = \"alex@frontdesk.example\"\n");
    assert!(
        unconfigured.get("note").is_none(),
        "Mine is not empty for want of an email: {unconfigured}"
    );
    assert_eq!(unconfigured["count"], configured["count"]);
    assert!(configured["count"].as_u64().is_some_and(|n| n > 0), "{configured}");
}

#[test]
fn channels_teams_and_my_custom_status() {
    let e = shared();
    let all = e.json(&["channels", "list"]);
    let active = e.json(&["channels", "list", "--active"]);
    let titles = |v: &Value| -> Vec<String> {
        v.as_array()
            .expect("list")
            .iter()
            .map(|c| c["title"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert!(titles(&all).contains(&"Old number".to_string()), "{all}");
    assert!(
        !titles(&active).contains(&"Old number".to_string()),
        "a discarded channel is not offered"
    );
    assert_eq!(titles(&active).len() + 1, titles(&all).len());
    let one = active[0]["uuid"].as_str().expect("uuid");
    assert_eq!(e.json(&["channels", "get", one])["title"], active[0]["title"]);

    let team = &e.server.manifest.teams[1];
    let renamed = e.json(&["teams", "rename", &team.uuid, "Sales EMEA"]);
    assert_eq!(renamed["name"], "Sales EMEA");
    assert_eq!(e.json(&["teams", "get", &team.uuid])["name"], "Sales EMEA");

    let user = &e.server.manifest.users[0].uuid;
    let status = &e.server.manifest.custom_statuses[0].id;
    let mut set = e.fd("");
    let o = set
        .env("FRONTDESK_USER_UUID", user)
        .args(["status", "set", "--custom-status", status])
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut clear = e.fd("");
    let o = clear
        .env("FRONTDESK_USER_UUID", user)
        .args(["status", "clear"])
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("custom status"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let without = e.run(&["status", "clear"]);
    assert_eq!(without.code, 2);
    assert!(
        without.stderr.contains("user uuid is not configured"),
        "{}",
        without.stderr
    );
}
