//! "State unknown" (issue 33): the documented list answer carries no
//! `closedAt`, so a listed contact is neither open nor closed until a GET,
//! a close or open answer, or a conversation event says. Against a small
//! server on 127.0.0.1:0 whose list omits `closedAt` (as the
//! documentation's example does) and whose GET /contacts/:uuid carries it
//! where the test says so.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chrono::{Duration, SecondsFormat, Utc};
use frontdesk::api::{ContactFilter, ConversationState, PageRequest};
use frontdesk::index::Index;
use frontdesk::index::sync::{Budget, full_sync, learn_states};
use frontdesk::triage::{Facts, State as TriageState, View, ViewFilter, builtin_views, count_views};
use serde_json::{Value, json};

#[derive(Default)]
struct Service {
    /// Listed in this order, without `closedAt`.
    listed: Vec<Value>,
    /// What GET /contacts/:uuid adds: `closedAt` (a date or null); a
    /// contact not in it answers without `closedAt` too.
    closed_at: HashMap<String, Value>,
    /// Every GET /contacts/:uuid asked.
    gets: Vec<String>,
}

type Shared = Arc<Mutex<Service>>;

async fn list(
    State(s): State<Shared>,
    axum::extract::Query(q): axum::extract::Query<HashMap<String, String>>,
) -> Response {
    let page: usize = q.get("page").and_then(|p| p.parse().ok()).unwrap_or(1);
    let s = s.lock().unwrap();
    let items: Vec<Value> = s.listed.iter().skip((page.max(1) - 1) * 20).take(20).cloned().collect();
    Json(json!({ "contacts": items })).into_response()
}

async fn one(State(s): State<Shared>, Path(uuid): Path<String>) -> Response {
    let mut s = s.lock().unwrap();
    s.gets.push(uuid.clone());
    let Some(mut c) = s.listed.iter().find(|c| c["uuid"] == uuid.as_str()).cloned() else {
        return (StatusCode::NOT_FOUND, Json(json!({"error": "Contact not found"}))).into_response();
    };
    if let Some(at) = s.closed_at.get(&uuid) {
        c["closedAt"] = at.clone();
    }
    Json(json!({ "contact": [c] })).into_response()
}

async fn start(service: Service) -> (String, Shared) {
    let state: Shared = Arc::new(Mutex::new(service));
    let app = Router::new()
        .route("/contacts", get(list))
        .route("/contacts/{uuid}", get(one))
        .with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), state)
}

fn client(base: &str) -> frontdesk::api::Client {
    frontdesk::api::Client::new(base, "test-key", std::time::Duration::from_secs(10))
        .unwrap()
        .with_retry(frontdesk::api::RetryPolicy {
            max_attempts: 1,
            base_delay: std::time::Duration::from_millis(5),
            max_delay: std::time::Duration::from_millis(5),
        })
}

/// A contact as the documentation's list example shows one: no `closedAt`.
fn listed(uuid: &str, name: &str) -> Value {
    let created = (Utc::now() - Duration::days(3)).to_rfc3339_opts(SecondsFormat::Secs, true);
    json!({
        "uuid": uuid, "name": name, "phoneNumber": "+39 1111", "avatarUrl": null,
        "createdAt": created, "source": "whatsapp",
        "href": format!("https://dash.callbell.eu/contacts/{uuid}"),
        "conversationHref": format!("https://dash.callbell.eu/chat/{uuid}"),
        "tags": [], "assignedUser": null, "customFields": {}
    })
}

fn unlimited() -> Budget {
    Budget::new(0.0)
}

fn state(ix: &Index, uuid: &str) -> ConversationState {
    ix.get(uuid).unwrap().expect("held").state()
}

/// The Open and Closed views' counts over the index, and whether each is a
/// lower bound (some contact of unknown state may belong).
fn open_closed_counts(ix: &Index) -> [(usize, bool); 2] {
    let contacts = ix.list(frontdesk::index::Order::Activity, 1000, 0).unwrap();
    let facts: Vec<Facts> = contacts.iter().map(|c| Facts::new(c, None)).collect();
    let now = Utc::now();
    let open = builtin_views()
        .into_iter()
        .find(|v| v.name == "Open")
        .expect("the built-in Open view");
    let closed = View::new(
        "Closed",
        ViewFilter {
            state: TriageState::Closed,
            ..ViewFilter::default()
        },
    );
    let views = [open, closed];
    let counts = count_views(&facts, &views, None, now);
    let at_least = |k: usize| {
        facts
            .iter()
            .any(|f| views[k].filter.may_match_unknown_state(f, None, now))
    };
    [(counts[0], at_least(0)), (counts[1], at_least(1))]
}

#[tokio::test]
async fn a_listed_contact_without_closed_at_is_state_unknown_and_state_views_count_at_least() {
    let (base, _s) = start(Service {
        listed: vec![listed("a", "Ada"), listed("b", "Bo")],
        ..Service::default()
    })
    .await;
    let page = client(&base)
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .expect("the documented list decodes");
    assert!(page.items.iter().all(|c| c.state() == ConversationState::Unknown));
    // Its wire shape is the one it came in: no `closedAt` made up.
    let written = serde_json::to_value(&page.items[0]).unwrap();
    assert!(written.get("closedAt").is_none(), "{written}");

    let mut ix = Index::in_memory().unwrap();
    full_sync(&client(&base), &mut ix, &unlimited(), &mut |_| {})
        .await
        .unwrap();
    assert_eq!(state(&ix, "a"), ConversationState::Unknown, "never read as open");
    let [open, closed] = open_closed_counts(&ix);
    assert_eq!(open, (0, true), "Open counts ≥ 0, not 2");
    assert_eq!(closed, (0, true), "Closed counts ≥ 0");
}

#[tokio::test]
async fn a_sync_pass_learns_the_state_from_a_get_and_asks_once_when_the_get_does_not_say() {
    let closed = Utc::now() - Duration::hours(2);
    let (base, s) = start(Service {
        listed: vec![listed("a", "Ada"), listed("b", "Bo"), listed("c", "Cy")],
        closed_at: HashMap::from([
            (
                "a".to_string(),
                json!(closed.to_rfc3339_opts(SecondsFormat::Secs, true)),
            ),
            ("b".to_string(), Value::Null),
        ]),
        ..Service::default()
    })
    .await;
    let mut ix = Index::in_memory().unwrap();
    full_sync(&client(&base), &mut ix, &unlimited(), &mut |_| {})
        .await
        .unwrap();
    assert_eq!(ix.unknown_state_count().unwrap(), 3);

    let mut tried = HashSet::new();
    let (learned, failed) = learn_states(&client(&base), &mut ix, &unlimited(), 10, &mut tried).await;
    assert!(failed.is_none());
    assert_eq!(learned, 2);
    assert_eq!(state(&ix, "a"), ConversationState::Closed);
    assert_eq!(state(&ix, "b"), ConversationState::Open);
    assert_eq!(
        state(&ix, "c"),
        ConversationState::Unknown,
        "its GET did not say either"
    );
    let [open, closed_view] = open_closed_counts(&ix);
    assert_eq!(open, (1, true), "b is open; c may be");
    assert_eq!(closed_view, (1, true));

    // The same pass does not ask for c again.
    let (again, _) = learn_states(&client(&base), &mut ix, &unlimited(), 10, &mut tried).await;
    assert_eq!(again, 0);
    let gets = s.lock().unwrap().gets.clone();
    assert_eq!(gets.iter().filter(|g| *g == "c").count(), 1, "{gets:?}");
    assert_eq!(gets.len(), 3, "one GET each: {gets:?}");
}

#[tokio::test]
async fn a_known_closed_contact_listed_again_without_closed_at_stays_closed() {
    let closed = Utc::now() - Duration::hours(2);
    let (base, _s) = start(Service {
        listed: vec![listed("a", "Ada")],
        closed_at: HashMap::from([(
            "a".to_string(),
            json!(closed.to_rfc3339_opts(SecondsFormat::Secs, true)),
        )]),
        ..Service::default()
    })
    .await;
    let mut ix = Index::in_memory().unwrap();
    full_sync(&client(&base), &mut ix, &unlimited(), &mut |_| {})
        .await
        .unwrap();
    learn_states(&client(&base), &mut ix, &unlimited(), 10, &mut HashSet::new()).await;
    assert_eq!(state(&ix, "a"), ConversationState::Closed);

    // The list again (a full walk, then the page stored directly).
    full_sync(&client(&base), &mut ix, &unlimited(), &mut |_| {})
        .await
        .unwrap();
    assert_eq!(
        state(&ix, "a"),
        ConversationState::Closed,
        "the list said nothing of it"
    );
    let page = client(&base)
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .unwrap();
    ix.upsert_contacts(&page.items, Utc::now()).unwrap();
    let held = ix.get("a").unwrap().unwrap();
    assert_eq!(held.state(), ConversationState::Closed);
    assert_eq!(held.closed_at.map(|t| t.timestamp()), Some(closed.timestamp()));
    assert_eq!(
        open_closed_counts(&ix),
        [(0, false), (1, false)],
        "exact: nothing unknown"
    );
}

/// Runs the frontdesk binary against `base` with its own cache in `home`.
async fn frontdesk(base: &str, home: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let mut c = assert_cmd::Command::cargo_bin("frontdesk").unwrap();
    c.args(args)
        .args(["--config", home.join("none.toml").to_str().unwrap()])
        .env("FRONTDESK_BASE_URL", base)
        .env("FRONTDESK_API_KEY", "test-key")
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("FRONTDESK_PROFILE")
        .env_remove("FRONTDESK_USER_EMAIL")
        .env_remove("FRONTDESK_HUB_URL")
        .env_remove("FRONTDESK_HUB_TOKEN");
    let out = tokio::task::spawn_blocking(move || c.output().unwrap()).await.unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The object named `name` anywhere in `v`.
fn named<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    match v {
        Value::Object(o) if o.get("name").and_then(Value::as_str) == Some(name) => Some(v),
        Value::Object(o) => o.values().find_map(|x| named(x, name)),
        Value::Array(a) => a.iter().find_map(|x| named(x, name)),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_lists_unknown_state_as_a_question_mark_and_views_count_at_least() {
    let (base, _s) = start(Service {
        listed: vec![listed("a", "Ada"), listed("b", "Bo")],
        // b's GET says open; a's says nothing either.
        closed_at: HashMap::from([("b".to_string(), Value::Null)]),
        ..Service::default()
    })
    .await;
    let home = tempfile::tempdir().unwrap();
    let (code, out, err) = frontdesk(&base, home.path(), &["contacts", "list"]).await;
    assert_eq!(code, 0, "{err}");
    let ada = out
        .lines()
        .find(|l| l.contains("Ada"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(ada.contains('?') && !ada.contains("open"), "{ada}");

    let (code, out, err) = frontdesk(&base, home.path(), &["views", "--json"]).await;
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    let open = named(&v, "Open").unwrap_or_else(|| panic!("{v}"));
    assert_eq!(open["count"], 1, "b, learned open by its GET: {open}");
    assert_eq!(open["atLeast"], true, "a may be open too: {open}");
    assert_eq!(open["stateUnknown"], 1, "{open}");
    let all = named(&v, "All").unwrap_or_else(|| panic!("{v}"));
    assert!(all.get("atLeast").is_none(), "All does not depend on the state: {all}");
}

/// Through a hub: the hub learns what the list does not say (one GET per
/// contact of unknown state, after its pass) and agents get it in the
/// snapshot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hub_learns_states_the_list_does_not_carry_and_its_snapshot_gives_them() {
    use frontdesk::api::ApiKey;
    use frontdesk::hub::store::Store;
    use frontdesk::hub::{HubConfig, HubListener, agents, start as start_hub};

    let closed = "2026-11-01T10:00:00Z";
    let (base, svc) = start(Service {
        listed: vec![listed("a1", "Ana"), listed("b2", "Bo"), listed("c3", "Cy")],
        closed_at: HashMap::from([("a1".to_string(), json!(closed)), ("b2".to_string(), Value::Null)]),
        ..Service::default()
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let token = agents::add(&Store::open(dir.path()).unwrap(), "dana", "dana@example.com", None).unwrap();
    let cfg = HubConfig::new(dir.path().to_path_buf(), &base, ApiKey::new("test-key".to_string()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hub = start_hub(HubListener::Tcp(listener), cfg).await.unwrap();
    let http = reqwest::Client::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let snapshot = http
            .get(format!("{}/hub/v1/snapshot", hub.url))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let line = |uuid: &str| -> Option<Value> {
            snapshot
                .lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .find(|v| v["uuid"] == uuid || v["contact"]["uuid"] == uuid)
        };
        let of = |v: Value| {
            if v.get("contact").is_some() {
                v["contact"].clone()
            } else {
                v
            }
        };
        let (a, b, c) = (line("a1").map(of), line("b2").map(of), line("c3").map(of));
        let learned = a.as_ref().is_some_and(|a| a["closedAt"] == closed)
            && b.as_ref()
                .is_some_and(|b| b.get("closedAt").is_some_and(Value::is_null));
        if learned {
            // The GET of c3 did not say: it stays unknown, not open.
            assert!(c.is_some_and(|c| c.get("closedAt").is_none()), "c3 stays unknown");
            let gets = svc.lock().unwrap().gets.clone();
            assert_eq!(gets.iter().filter(|g| *g == "a1").count(), 1, "{gets:?}");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hub never learned the states; snapshot:\n{snapshot}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    hub.stop().await;
}
