//! Issue 36: no silent overwrite of an owner. Two agents (two clients) on
//! the embedded server assign the same unassigned conversation at the same
//! moment, many times over: exactly one of them is told "assigned", the
//! other is told who has it; and a write after a colleague's change is
//! asked, naming the colleague.

use std::time::Duration;

use frontdesk::api::{Client, ContactFilter, ContactId};
use frontdesk::server::ServerConfig;
use frontdesk::triage::bulk::Action;
use frontdesk::triage::owner::{Checked, Seen, write_checked};
use frontdesk::triage::write::Settled;

mod common;

const ALEX: &str = "alex@frontdesk.example";
const BEA: &str = "bea@frontdesk.example";
const RACES: usize = 50;

fn client(srv: &frontdesk::server::RunningServer) -> Client {
    Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10)).unwrap()
}

/// What one agent's assignment came to: `Ok(true)` assigned, `Ok(false)`
/// told it is a colleague's (and the words), before or after writing.
fn told(r: &Checked) -> (bool, String) {
    match r {
        Checked::Done(d) => match &d.settled {
            Settled::Applied(_) => (true, String::new()),
            Settled::Failed(e) | Settled::Unknown(e) => (false, e.clone()),
            Settled::Skipped(_) => (false, "skipped".into()),
        },
        Checked::Changed(c) => (false, c.what.clone()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_agents_assigning_at_once_one_is_assigned_and_the_other_is_told() {
    let srv = common::spawn(common::config(RACES, 36)).await;
    let (alex, bea) = (client(&srv), client(&srv));
    let contacts = alex.all_contacts(ContactFilter::default()).await.unwrap();
    let mut doubles = 0;
    let mut nobody = 0;
    let mut asked_first = 0;
    for c in contacts.iter().take(RACES) {
        let id = ContactId::from(c.uuid.as_str());
        alex.update_contact(&id, &Action::Unassign.patch().unwrap())
            .await
            .unwrap();
        let seen = Seen {
            assignee: None,
            open: Some(c.is_open()),
        };
        let (to_alex, to_bea) = (Action::Assign(ALEX.into()), Action::Assign(BEA.into()));
        let (a, b) = tokio::join!(
            write_checked(&alex, &c.uuid, "", &to_alex, Some(&seen), Some(ALEX)),
            write_checked(&bea, &c.uuid, "", &to_bea, Some(&seen), Some(BEA)),
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        asked_first += [&a, &b].iter().filter(|r| matches!(r, Checked::Changed(_))).count();
        let ((a_won, a_why), (b_won, b_why)) = (told(&a), told(&b));
        let kept = alex.get_contact(&id, false).await.unwrap().assigned_user;
        match (a_won, b_won) {
            (true, true) => doubles += 1,
            (false, false) => nobody += 1,
            (true, false) => {
                assert_eq!(kept.as_deref(), Some(ALEX), "the winner is who the service kept");
                assert!(b_why.contains(ALEX), "bea is told alex has it: {b_why}");
            }
            (false, true) => {
                assert_eq!(kept.as_deref(), Some(BEA), "the winner is who the service kept");
                assert!(a_why.contains(BEA), "alex is told bea has it: {a_why}");
            }
        }
    }
    eprintln!(
        "{RACES} races: {doubles} double \"assigned\", {nobody} with nobody assigned; \
         {asked_first} losers told before writing, the rest on read-back"
    );
    assert_eq!((doubles, nobody), (0, 0));
}

/// Bea asks for a conversation that is hers already while Alex takes it
/// over: "already assigned" must not stand once Alex's write landed (a
/// shift's races had both told "assigned").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assignment_found_done_already_is_read_back_too() {
    let srv = common::spawn(common::config(5, 38)).await;
    let (alex, bea) = (client(&srv), client(&srv));
    let c = alex.all_contacts(ContactFilter::default()).await.unwrap().remove(0);
    let id = ContactId::from(c.uuid.as_str());
    bea.update_contact(&id, &Action::Assign(BEA.into()).patch().unwrap())
        .await
        .unwrap();
    let takeover = async {
        tokio::time::sleep(Duration::from_millis(60)).await;
        alex.update_contact(&id, &Action::Assign(ALEX.into()).patch().unwrap())
            .await
            .unwrap();
    };
    let to_bea = Action::Assign(BEA.into());
    let (r, ()) = tokio::join!(write_checked(&bea, &c.uuid, "", &to_bea, None, Some(BEA)), takeover);
    let (won, why) = told(&r.unwrap());
    assert!(!won, "bea told it is hers while alex took it");
    assert!(why.contains(ALEX), "bea is told who has it: {why}");
}

#[tokio::test]
async fn a_close_after_a_colleague_took_it_is_asked_naming_them() {
    let srv = common::spawn(ServerConfig {
        bot_enabled: false,
        ..common::config(5, 37)
    })
    .await;
    let (alex, bea) = (client(&srv), client(&srv));
    let c = alex.all_contacts(ContactFilter::default()).await.unwrap().remove(0);
    let id = ContactId::from(c.uuid.as_str());
    alex.open_conversation(&id).await.unwrap();
    alex.update_contact(&id, &Action::Unassign.patch().unwrap())
        .await
        .unwrap();
    let seen = Seen::of(&alex.get_contact(&id, false).await.unwrap());
    // Bea takes it; Alex's screen still shows it unassigned.
    bea.update_contact(&id, &Action::Assign(BEA.into()).patch().unwrap())
        .await
        .unwrap();
    let r = write_checked(&alex, &c.uuid, "", &Action::Close, Some(&seen), Some(ALEX))
        .await
        .unwrap();
    let Checked::Changed(changed) = r else {
        panic!("closed without asking: {r:?}")
    };
    assert_eq!(
        changed.what,
        format!("{BEA} took it since you last saw it (it was unassigned)")
    );
    let now = alex.get_contact(&id, false).await.unwrap();
    assert!(now.is_open(), "nothing was written");
    // Asked and answered yes (no `seen`): it is closed.
    let r = write_checked(&alex, &c.uuid, "", &Action::Close, None, Some(ALEX))
        .await
        .unwrap();
    assert!(matches!(told(&r), (true, _)), "{r:?}");
    assert!(!alex.get_contact(&id, false).await.unwrap().is_open());
}

/// `frontdesk` against `srv`, with its own home, config and cache.
fn frontdesk(srv: &frontdesk::server::RunningServer, home: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    use assert_cmd::cargo::CommandCargoExt;
    let mut c = std::process::Command::cargo_bin("frontdesk").unwrap();
    for var in [
        "FRONTDESK_PROFILE",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_USER_EMAIL",
        "FRONTDESK_CONFIG",
    ] {
        c.env_remove(var);
    }
    let o = c
        .env("FRONTDESK_BASE_URL", &srv.base_url)
        .env("FRONTDESK_API_KEY", &srv.api_key)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("HOME", home)
        .arg("--config")
        .arg(home.join("config.toml"))
        .args(["--sync-rate", "0"])
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn the_cli_refuses_to_close_what_a_colleague_took_since_its_index_saw_it_unless_forced() {
    let srv = common::spawn_blocking(ServerConfig {
        bot_enabled: false,
        ..common::config(8, 38)
    });
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.toml"), "").unwrap();
    let raw = common::Raw::new(&srv);
    let rt = common::runtime();
    let list = rt.block_on(raw.ok("/contacts?page=1"));
    let uuid = list["contacts"][0]["uuid"].as_str().unwrap().to_string();
    rt.block_on(raw.call(
        reqwest::Method::POST,
        &format!("/contacts/{uuid}/conversation/open"),
        None,
    ));
    rt.block_on(raw.call(
        reqwest::Method::PATCH,
        &format!("/contacts/{uuid}"),
        Some(serde_json::json!({ "unassign_user": true })),
    ));
    let (code, _, err) = frontdesk(&srv, home.path(), &["sync"]);
    assert_eq!(code, 0, "{err}");
    // Bea takes it after the index saw it unassigned.
    rt.block_on(raw.call(
        reqwest::Method::PATCH,
        &format!("/contacts/{uuid}"),
        Some(serde_json::json!({ "assigned_user": BEA })),
    ));
    let (code, _, err) = frontdesk(&srv, home.path(), &["contacts", "close", &uuid]);
    assert_ne!(code, 0, "closed without asking: {err}");
    assert!(
        err.contains(&format!("{BEA} took it since you last saw it (it was unassigned)")) && err.contains("--force"),
        "{err}"
    );
    let now = rt.block_on(raw.ok(&format!("/contacts/{uuid}")));
    assert!(now["contact"][0]["closedAt"].is_null(), "nothing was written: {now}");
    let (code, _, err) = frontdesk(&srv, home.path(), &["contacts", "close", &uuid, "--force"]);
    assert_eq!(code, 0, "{err}");
    let now = rt.block_on(raw.ok(&format!("/contacts/{uuid}")));
    assert!(!now["contact"][0]["closedAt"].is_null(), "closed: {now}");
}

/// The TUI's write pipeline (`tui::act::perform`, what `Effect::Apply`
/// runs) for two agents on one server: an owner write carries what the
/// agent saw; the one who writes second finds the first one's assignment
/// and is asked (not written), naming them; the first is assigned.
#[tokio::test]
async fn two_tui_agents_taking_one_conversation_one_is_assigned_and_the_other_is_asked_naming_them() {
    use frontdesk::tui::act::{Guard, perform};
    let srv = common::spawn(ServerConfig {
        bot_enabled: false,
        ..common::config(5, 39)
    })
    .await;
    let (alex, bea) = (client(&srv), client(&srv));
    let c = alex.all_contacts(ContactFilter::default()).await.unwrap().remove(0);
    let id = ContactId::from(c.uuid.as_str());
    alex.update_contact(&id, &Action::Unassign.patch().unwrap())
        .await
        .unwrap();
    // Both screens show it unassigned.
    let seen = alex.get_contact(&id, false).await.unwrap();
    let guard = |me: &str| Guard::Owner {
        seen: Seen::of(&seen),
        me: Some(me.into()),
        hub: None,
    };
    let first = perform(&alex, &c.uuid, &Action::Assign(ALEX.into()), Some(&guard(ALEX))).await;
    assert_eq!(first.changed, None);
    assert_eq!(
        first.result.as_ref().map(|c| c.assigned_user.clone()),
        Ok(Some(ALEX.into())),
        "{first:?}"
    );
    let second = perform(&bea, &c.uuid, &Action::Assign(BEA.into()), Some(&guard(BEA))).await;
    assert_eq!(
        second.changed.as_deref(),
        Some(format!("{ALEX} took it since you last saw it (it was unassigned)").as_str())
    );
    assert_eq!(
        bea.get_contact(&id, false).await.unwrap().assigned_user.as_deref(),
        Some(ALEX),
        "nothing was overwritten"
    );
    // Bea answers yes: the write goes without the check.
    let forced = perform(&bea, &c.uuid, &Action::Assign(BEA.into()), None).await;
    assert_eq!(forced.result.map(|c| c.assigned_user), Ok(Some(BEA.into())));
}

/// `frontdesk messages send` with `assign_on_reply` (on by default): the
/// reply to an Unassigned conversation assigns it to the sender; one a
/// colleague holds stays theirs; `assign_on_reply = false` leaves it.
#[test]
fn messages_send_assigns_an_unassigned_conversation_to_the_sender_but_never_takes_a_colleagues() {
    let srv = common::spawn_blocking(ServerConfig {
        bot_enabled: false,
        ..common::config(6, 40)
    });
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config.toml");
    std::fs::write(&config, format!("user_email = \"{ALEX}\"\n")).unwrap();
    let raw = common::Raw::new(&srv);
    let rt = common::runtime();
    let list = rt.block_on(raw.ok("/contacts?page=1"));
    let uuids: Vec<String> = list["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .take(3)
        .map(|c| c["uuid"].as_str().unwrap().to_string())
        .collect();
    let (code, out, err) = frontdesk(&srv, home.path(), &["templates", "list", "--all", "--json"]);
    assert_eq!(code, 0, "{err}");
    let templates: serde_json::Value = serde_json::from_str(&out).unwrap();
    let template = templates
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["status"] == "approved")
        .expect("an approved template")["uuid"]
        .as_str()
        .unwrap()
        .to_string();
    let assign = |uuid: &str, body: serde_json::Value| {
        rt.block_on(raw.call(reqwest::Method::PATCH, &format!("/contacts/{uuid}"), Some(body)));
    };
    let owner = |uuid: &str| {
        let now = rt.block_on(raw.ok(&format!("/contacts/{uuid}")));
        now["contact"][0]["assignedUser"].as_str().map(str::to_string)
    };
    let send = |uuid: &str| {
        let (code, _, err) = frontdesk(
            &srv,
            home.path(),
            &["messages", "send", uuid, "--template", &template, "--value", "Ann"],
        );
        assert_eq!(code, 0, "{err}");
        err
    };
    // Unassigned: the reply takes it.
    assign(&uuids[0], serde_json::json!({ "unassign_user": true }));
    let err = send(&uuids[0]);
    assert_eq!(owner(&uuids[0]).as_deref(), Some(ALEX), "{err}");
    assert!(err.contains("assigned to you"), "{err}");
    // Bea's: it stays hers.
    assign(&uuids[1], serde_json::json!({ "assigned_user": BEA }));
    send(&uuids[1]);
    assert_eq!(owner(&uuids[1]).as_deref(), Some(BEA));
    // Off: an Unassigned one stays so.
    std::fs::write(&config, format!("user_email = \"{ALEX}\"\nassign_on_reply = false\n")).unwrap();
    assign(&uuids[2], serde_json::json!({ "unassign_user": true }));
    send(&uuids[2]);
    assert_eq!(owner(&uuids[2]), None);
}

/// A send noted in the local index is dated when the request went, never
/// after the service's own date of the message: a TUI sharing the index
/// file would read the conversation's last message as stale, and its
/// Waiting count would say `≥` for good (issue 36's shift: 8 such).
#[test]
fn a_send_noted_in_the_index_is_not_dated_after_the_message() {
    let srv = common::spawn_blocking(ServerConfig {
        bot_enabled: false,
        ..common::config(6, 41)
    });
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.toml"), format!("user_email = \"{ALEX}\"\n")).unwrap();
    let (code, _, err) = frontdesk(&srv, home.path(), &["sync"]);
    assert_eq!(code, 0, "{err}");
    let raw = common::Raw::new(&srv);
    let rt = common::runtime();
    let list = rt.block_on(raw.ok("/contacts?page=1"));
    let uuid = list["contacts"][0]["uuid"].as_str().unwrap().to_string();
    let (code, _, err) = frontdesk(&srv, home.path(), &["messages", "send", &uuid, "--text", "On it"]);
    assert_eq!(code, 0, "{err}");
    let page = rt.block_on(raw.ok(&format!("/contacts/{uuid}/messages")));
    let written = page["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["createdAt"].as_str())
        .filter_map(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.to_utc())
        .max()
        .expect("the message is dated");
    let file = std::fs::read_dir(home.path().join("cache").join("frontdesk"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "sqlite"))
        .expect("the index file");
    let index = frontdesk::index::Index::open(&file).unwrap().index;
    let held = index.get(&uuid).unwrap().unwrap().last_activity().expect("activity");
    assert!(held <= written, "noted at {held}, the service dated it {written}");
}
