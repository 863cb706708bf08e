//! The client side of the hub against a small fake hub (an axum router on
//! 127.0.0.1:0 speaking the hub's wire protocol): the event stream with
//! reconnection and `Last-Event-ID`, the snapshot into the local index, and
//! the CLI going through the hub with the agent token.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use assert_cmd::Command;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use frontdesk::api::ApiError;
use frontdesk::api::hub::{Backoff, HubClient, HubEvent, HubItem, PresenceState};
use frontdesk::index::Index;
use serde_json::{Value, json};

mod common;

const TOKEN: &str = "agent-token-dana-0042";

#[derive(Default)]
struct Fake {
    /// Contacts of the snapshot, newest first.
    contacts: Vec<Value>,
    cursor: u64,
    account: String,
    /// What connection N of the event stream sends before it ends.
    streams: Vec<String>,
    /// Contacts the header promises beyond those sent (a cut-off snapshot).
    missing: usize,
    /// Bodies posted to /hub/v1/presence.
    presence: Vec<Value>,
    /// Every request: (path, Last-Event-ID).
    seen: Vec<(String, Option<String>)>,
}

type Shared = Arc<Mutex<Fake>>;

fn authorized(h: &HeaderMap) -> bool {
    h.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {TOKEN}"))
}

fn refused() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        axum::Json(json!({ "error": "unknown or removed agent token" })),
    )
        .into_response()
}

fn record(f: &Shared, path: &str, h: &HeaderMap) {
    let last = h.get("last-event-id").and_then(|v| v.to_str().ok()).map(str::to_string);
    f.lock().unwrap().seen.push((path.to_string(), last));
}

async fn snapshot(State(f): State<Shared>, h: HeaderMap) -> Response {
    record(&f, "/hub/v1/snapshot", &h);
    if !authorized(&h) {
        return refused();
    }
    let f = f.lock().unwrap();
    let mut body =
        json!({ "cursor": f.cursor, "contacts": f.contacts.len() + f.missing, "account": f.account }).to_string();
    for c in &f.contacts {
        body.push('\n');
        body.push_str(&c.to_string());
    }
    body.push('\n');
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

async fn events(State(f): State<Shared>, h: HeaderMap) -> Response {
    record(&f, "/hub/v1/events", &h);
    if !authorized(&h) {
        return refused();
    }
    let mut f = f.lock().unwrap();
    let body = if f.streams.is_empty() {
        String::new()
    } else {
        f.streams.remove(0)
    };
    // The body ends after the batch: the client sees the stream drop.
    (
        [(header::CONTENT_TYPE, "text/event-stream")],
        format!(": keep-alive\n\n{body}"),
    )
        .into_response()
}

async fn one_contact(State(f): State<Shared>, Path(uuid): Path<String>, h: HeaderMap) -> Response {
    record(&f, &format!("/v1/contacts/{uuid}"), &h);
    if !authorized(&h) {
        return refused();
    }
    let f = f.lock().unwrap();
    match f.contacts.iter().find(|c| c["uuid"] == uuid.as_str()) {
        Some(c) => axum::Json(json!({ "contact": [c] })).into_response(),
        None => (StatusCode::NOT_FOUND, axum::Json(json!({ "error": "not found" }))).into_response(),
    }
}

async fn whoami(State(f): State<Shared>, h: HeaderMap) -> Response {
    record(&f, "/hub/v1/whoami", &h);
    if !authorized(&h) {
        return refused();
    }
    axum::Json(json!({ "agent": "dana", "email": "dana@example.com", "user_uuid": null })).into_response()
}

async fn presence(State(f): State<Shared>, h: HeaderMap, axum::Json(body): axum::Json<Value>) -> Response {
    record(&f, "/hub/v1/presence", &h);
    if !authorized(&h) {
        return refused();
    }
    f.lock().unwrap().presence.push(body);
    StatusCode::NO_CONTENT.into_response()
}

async fn fake_hub(fake: Fake) -> (String, Shared) {
    let shared: Shared = Arc::new(Mutex::new(fake));
    let app = axum::Router::new()
        .route("/hub/v1/snapshot", axum::routing::get(snapshot))
        .route("/hub/v1/events", axum::routing::get(events))
        .route("/hub/v1/whoami", axum::routing::get(whoami))
        .route("/hub/v1/presence", axum::routing::post(presence))
        .route("/v1/contacts/{uuid}", axum::routing::get(one_contact))
        .with_state(shared.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, shared)
}

fn contact(uuid: &str, name: &str, minute: u32) -> Value {
    json!({
        "uuid": uuid, "name": name, "phoneNumber": format!("+49151000{minute:04}"),
        "source": "whatsapp", "createdAt": "2026-01-01T00:00:00Z",
        "lastMessageAt": format!("2026-01-02T10:{minute:02}:00Z"), "tags": [], "customFields": {},
        "closedAt": null, "assignedUser": null
    })
}

fn fake_with(contacts: Vec<Value>) -> Fake {
    Fake {
        contacts,
        cursor: 41,
        account: "acct-hash-1".into(),
        ..Fake::default()
    }
}

fn quick() -> Backoff {
    Backoff {
        first: Duration::from_millis(1),
        max: Duration::from_millis(5),
    }
}

fn event(id: u64, kind: &str, data: Value) -> String {
    format!("id: {id}\nevent: {kind}\ndata: {data}\n\n")
}

#[tokio::test]
async fn the_stream_reconnects_after_the_last_event_and_skips_a_replay() {
    let mut fake = fake_with(Vec::new());
    fake.streams = vec![
        event(42, "contact_deleted", json!({ "uuid": "c9" }))
            + &event(
                43,
                "conversation_closed",
                json!({ "contact": "c1", "agent": "dana", "at": "2026-01-02T10:00:00Z" }),
            ),
        // The hub replays 43 (already seen), then goes on.
        event(
            43,
            "conversation_closed",
            json!({ "contact": "c1", "agent": "dana", "at": "2026-01-02T10:00:00Z" }),
        ) + &event(
            44,
            "message_status",
            json!({ "contact": "c1", "message": "m1", "status": "read" }),
        ) + &event(45, "resync", json!({ "reason": "the client fell behind" })),
    ];
    let (url, shared) = fake_hub(fake).await;
    let hub = HubClient::new(&url, TOKEN, Duration::from_secs(5)).unwrap();
    let mut stream = hub.events(Some(41)).with_backoff(quick());

    let mut got = Vec::new();
    while got.len() < 9 {
        let item = stream.next().await.unwrap();
        let done = matches!(
            item,
            HubItem::Event {
                event: HubEvent::Resync { .. },
                ..
            }
        );
        got.push(item);
        if done {
            break;
        }
    }
    let ids: Vec<String> = got
        .iter()
        .map(|i| match i {
            HubItem::Connected => "connected".to_string(),
            HubItem::Event { id, .. } => id.to_string(),
            HubItem::Disconnected { .. } => "dropped".to_string(),
        })
        .collect();
    assert_eq!(ids, ["connected", "42", "43", "dropped", "connected", "44", "45"]);
    assert!(matches!(&got[1], HubItem::Event { event: HubEvent::ContactDeleted { uuid }, .. } if uuid == "c9"));
    assert!(matches!(&got[6], HubItem::Event { event: HubEvent::Resync { reason }, .. } if reason.contains("behind")));
    assert_eq!(stream.last_id(), Some(45));
    let asked: Vec<Option<String>> = shared.lock().unwrap().seen.iter().map(|(_, l)| l.clone()).collect();
    assert_eq!(asked, [Some("41".to_string()), Some("43".to_string())]);
}

#[tokio::test]
async fn a_refused_token_ends_the_stream_with_a_clear_error() {
    let (url, _) = fake_hub(fake_with(Vec::new())).await;
    let hub = HubClient::new(&url, "not-the-token", Duration::from_secs(5)).unwrap();
    let e = hub.events(None).with_backoff(quick()).next().await.unwrap_err();
    assert!(matches!(e, ApiError::Rejected { status: 401, .. }), "{e:?}");
    assert!(e.to_string().contains("agent token"), "{e}");
    assert!(!e.to_string().contains("not-the-token"), "{e}");
}

#[tokio::test]
async fn a_snapshot_fills_the_index_and_a_later_one_removes_what_the_hub_dropped() {
    let contacts = vec![
        contact("c3", "Chidi", 3),
        contact("c2", "Bea Ortiz", 2),
        contact("c1", "Ana", 1),
    ];
    let (url, shared) = fake_hub(fake_with(contacts)).await;
    let hub = HubClient::new(&url, TOKEN, Duration::from_secs(5)).unwrap();
    let mut index = Index::in_memory().unwrap();
    let mut progress = Vec::new();
    let r = hub
        .snapshot_into(&mut index, &mut |done, of| progress.push((done, of)))
        .await
        .unwrap();
    assert_eq!((r.header.cursor, r.seen, r.changed, r.removed), (41, 3, 3, 0));
    assert_eq!(progress.last(), Some(&(3, 3)));
    assert_eq!(index.count().unwrap(), 3);
    assert_eq!(index.get("c2").unwrap().unwrap().name, "Bea Ortiz");
    assert!(
        index.sync_state().unwrap().full_walk_finished_at.is_some(),
        "views are complete"
    );

    shared.lock().unwrap().contacts.remove(1);
    let r = hub.snapshot_into(&mut index, &mut |_, _| {}).await.unwrap();
    assert_eq!((r.seen, r.changed, r.removed, r.started_over), (2, 0, 1, false));
    assert!(index.get("c2").unwrap().is_none());

    // Another account behind the hub: the index starts over.
    shared.lock().unwrap().account = "acct-hash-2".into();
    let r = hub.snapshot_into(&mut index, &mut |_, _| {}).await.unwrap();
    assert!(r.started_over);
    assert_eq!(index.count().unwrap(), 2);
}

#[tokio::test]
async fn a_snapshot_cut_short_or_with_an_unreadable_line_removes_nothing() {
    let mut fake = fake_with(vec![contact("c1", "Ana", 1)]);
    fake.cursor = 7;
    let (url, shared) = fake_hub(fake).await;
    let hub = HubClient::new(&url, TOKEN, Duration::from_secs(5)).unwrap();
    let mut index = Index::in_memory().unwrap();
    hub.snapshot_into(&mut index, &mut |_, _| {}).await.unwrap();
    // The header promises two contacts but one line is garbage: nothing
    // is removed on its account.
    shared.lock().unwrap().contacts = vec![json!("not a contact")];
    let r = hub.snapshot_into(&mut index, &mut |_, _| {}).await.unwrap();
    assert_eq!((r.seen, r.skipped, r.removed), (0, 1, 0));
    assert_eq!(index.count().unwrap(), 1);
    // Fewer lines than the header promised: an error, nothing removed.
    {
        let mut f = shared.lock().unwrap();
        f.contacts = Vec::new();
        f.missing = 1;
    }
    let e = hub.snapshot_into(&mut index, &mut |_, _| {}).await.unwrap_err();
    assert!(e.to_string().contains("ended after 0 of 1"), "{e}");
    assert_eq!(index.count().unwrap(), 1);
}

/// The CLI with the hub in the environment and nothing else configured.
fn fd(url: &str, token: &str, home: &std::path::Path) -> Command {
    Command::from_std(fd_std(url, token, home))
}

fn fd_std(url: &str, token: &str, home: &std::path::Path) -> std::process::Command {
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("frontdesk"));
    for var in [
        "FRONTDESK_PROFILE",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_CONFIG",
        "FRONTDESK_API_KEY",
        "FRONTDESK_BASE_URL",
        "NO_COLOR",
    ] {
        c.env_remove(var);
    }
    let config = home.join("config.toml");
    std::fs::write(&config, "").unwrap();
    c.env("FRONTDESK_HUB_URL", url)
        .env("FRONTDESK_HUB_TOKEN", token)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("HOME", home)
        .arg("--config")
        .arg(config);
    c
}

#[test]
fn sync_and_search_through_a_hub_read_its_snapshot_and_never_walk() {
    let contacts = vec![contact("c2", "Bea Ortiz", 2), contact("c1", "Ana", 1)];
    let (url, shared) = common::runtime().block_on(fake_hub(fake_with(contacts)));
    let home = tempfile::tempdir().unwrap();

    let o = fd(&url, TOKEN, home.path()).arg("sync").output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    assert!(out.contains("synced 2 contacts from the hub"), "{out}");

    let o = fd(&url, TOKEN, home.path())
        .args(["contacts", "search", "ortiz", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let found: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(found[0]["uuid"], "c2", "{found}");

    // A plain command goes to the hub's /v1 with the agent token.
    let o = fd(&url, TOKEN, home.path())
        .args(["contacts", "get", "c1", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let paths: Vec<String> = shared.lock().unwrap().seen.iter().map(|(p, _)| p.clone()).collect();
    assert!(paths.contains(&"/v1/contacts/c1".to_string()), "{paths:?}");
    assert!(
        !paths.iter().any(|p| p == "/v1/contacts" || p == "/v1/plan"),
        "no walk of its own: {paths:?}"
    );
    // `config check` names the hub and masks the token.
    let o = fd(&url, TOKEN, home.path()).args(["config", "check"]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("hub_url") && out.contains(url.as_str()), "{out}");
    assert!(out.contains("hub_token") && !out.contains(TOKEN), "{out}");
    // The index file holds no token.
    let cache = home.path().join("cache/frontdesk");
    for entry in std::fs::read_dir(&cache).unwrap().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap();
        assert!(!bytes.windows(TOKEN.len()).any(|w| w == TOKEN.as_bytes()));
    }
}

#[test]
fn a_refused_token_is_one_clear_line_without_the_token() {
    let (url, _) = common::runtime().block_on(fake_hub(fake_with(Vec::new())));
    let home = tempfile::tempdir().unwrap();
    let o = fd(&url, "wrong-token-77", home.path()).arg("sync").output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("agent token"), "{err}");
    assert!(!err.contains("wrong-token-77"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn sync_follow_keeps_the_index_live_and_takes_a_new_snapshot_on_resync() {
    let mut fake = fake_with(vec![contact("c2", "Bea Ortiz", 2), contact("c1", "Ana", 1)]);
    fake.streams = vec![
        event(42, "contact_changed", json!({ "contact": contact("c5", "Eve", 5) }))
            + &event(
                43,
                "conversation_closed",
                json!({ "contact": "c2", "agent": "dana", "at": "2026-01-02T11:00:00Z" }),
            )
            + &event(44, "resync", json!({ "reason": "replay buffer passed" })),
        event(45, "contact_changed", json!({ "contact": contact("c6", "Zed", 6) })),
    ];
    let (url, shared) = common::runtime().block_on(fake_hub(fake));
    let home = tempfile::tempdir().unwrap();
    let mut cmd = fd_std(&url, TOKEN, home.path());
    let mut child = cmd
        .args(["sync", "--follow", "--jsonl"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines: Vec<Value> = Vec::new();
    while lines.len() < 4 {
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(l) => lines.push(serde_json::from_str(&l).unwrap()),
            Err(_) => break,
        }
    }
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let kinds: Vec<(u64, &str)> = lines
        .iter()
        .map(|l| (l["id"].as_u64().unwrap(), l["event"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            (42, "contact_changed"),
            (43, "conversation_closed"),
            (44, "resync"),
            (45, "contact_changed")
        ],
        "{err}"
    );
    assert_eq!(lines[1]["agent"], "dana");
    assert_eq!(lines[1]["changed"], true);
    assert!(err.contains("loaded the hub's snapshot again"), "{err}");
    let snapshots = shared
        .lock()
        .unwrap()
        .seen
        .iter()
        .filter(|(p, _)| p == "/hub/v1/snapshot")
        .count();
    assert_eq!(snapshots, 2, "one at start, one for the resync");

    // The index: the second snapshot's contacts, plus what came after it.
    let o = fd(&url, TOKEN, home.path()).args(["cache", "path"]).output().unwrap();
    let path = std::path::PathBuf::from(String::from_utf8_lossy(&o.stdout).trim_end());
    let index = Index::open(&path).unwrap().index;
    assert!(index.get("c6").unwrap().is_some(), "applied from the stream");
    assert!(index.get("c1").unwrap().is_some());
    assert!(index.get("c5").unwrap().is_none(), "the snapshot is the truth");
}

#[test]
fn sync_follow_without_a_hub_is_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    let mut c = fd("http://127.0.0.1:9", TOKEN, home.path());
    c.env_remove("FRONTDESK_HUB_URL").env_remove("FRONTDESK_HUB_TOKEN");
    let o = c
        .env("FRONTDESK_BASE_URL", "http://127.0.0.1:9/v1")
        .env("FRONTDESK_API_KEY", "k")
        .args(["sync", "--follow"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--follow needs a hub"));
}

#[tokio::test]
async fn whoami_names_the_agent_and_presence_is_posted() {
    let (url, shared) = fake_hub(fake_with(Vec::new())).await;
    let hub = HubClient::new(&url, TOKEN, Duration::from_secs(5)).unwrap();
    let me = hub.whoami().await.unwrap();
    assert_eq!(
        (me.agent.as_str(), me.email.as_str(), me.user_uuid),
        ("dana", "dana@example.com", None)
    );
    hub.presence("c1", PresenceState::Composing).await.unwrap();
    assert_eq!(
        shared.lock().unwrap().presence,
        [json!({ "contact": "c1", "state": "composing" })]
    );
    let stranger = HubClient::new(&url, "nope", Duration::from_secs(5)).unwrap();
    let e = stranger.presence("c1", PresenceState::Viewing).await.unwrap_err();
    assert!(e.to_string().contains("agent token"), "{e}");
}

#[test]
fn doctor_checks_the_hub_and_the_token() {
    let (url, _) = common::runtime().block_on(fake_hub(fake_with(Vec::new())));
    let home = tempfile::tempdir().unwrap();
    let o = fd(&url, TOKEN, home.path()).arg("doctor").output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("this token is agent dana"), "{out}");
    assert!(!out.contains("opens the demo"), "{out}");
    let o = fd(&url, "wrong-token-88", home.path()).arg("doctor").output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_ne!(o.status.code(), Some(0));
    assert!(out.contains("agent token") && out.contains("agents add"), "{out}");
    assert!(!out.contains("wrong-token-88"), "{out}");
}
