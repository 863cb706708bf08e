//! Answers that come back late, held by a proxy in front of the service.
//! Two agents writing one contact at once, their answers coming back in
//! the other order than the service applied them: the hub keeps what the
//! service kept, not whichever answer came last, and the agent the
//! service overruled is told, through the hub, who has it. A send whose
//! answer is slow: the hub dates it no later than the service does.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{Method, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use frontdesk::api::ApiKey;
use frontdesk::triage::bulk::Action;
use frontdesk::triage::owner::{Checked, Seen, write_checked};
use frontdesk::triage::write::Settled;
use serde_json::{Value, json};

use super::common;
use super::support::{PATIENCE, add_agent, agent, start_hub, wait_for_contacts};

/// The collaborators the two agents assign (the seeded account's).
const DANAS: &str = "alex@frontdesk.example";
const LEES: &str = "bea@frontdesk.example";
/// The proxy holds the answer to a PATCH naming this.
const HELD: &str = "alex@frontdesk";

/// How long the proxy holds the answer to a PATCH that assigns dana's.
const HOLD: Duration = Duration::from_millis(400);

#[derive(Clone)]
struct Proxy {
    to: String,
    http: reqwest::Client,
    /// Hold the answers `rule` picks (only while set).
    hold: Arc<AtomicBool>,
    rule: Rule,
}

/// Which answers the proxy holds: by method, path and request body.
type Rule = fn(&Method, &str, &str) -> bool;

fn danas_assignment(m: &Method, _path: &str, body: &str) -> bool {
    *m == Method::PATCH && body.contains(HELD)
}

fn a_send(m: &Method, path: &str, _body: &str) -> bool {
    *m == Method::POST && path.ends_with("/messages/send")
}

async fn forward(State(p): State<Proxy>, req: Request<Body>) -> Response {
    let (parts, body) = req.into_parts();
    let body: Bytes = axum::body::to_bytes(body, 1 << 20).await.unwrap_or_default();
    let url = format!("{}{}", p.to, parts.uri.path_and_query().map_or("", |q| q.as_str()));
    let mut out = p.http.request(parts.method.clone(), url);
    for (k, v) in &parts.headers {
        if k != "host" && k != "content-length" {
            out = out.header(k, v);
        }
    }
    let resp = match out.body(body.clone()).send().await {
        Ok(r) => r,
        Err(_) => return StatusCode::BAD_GATEWAY.into_response(),
    };
    let status = resp.status();
    let ct = resp.headers().get("content-type").cloned();
    let bytes = resp.bytes().await.unwrap_or_default();
    let held = (p.rule)(&parts.method, parts.uri.path(), &String::from_utf8_lossy(&body));
    if held && p.hold.load(Ordering::SeqCst) {
        tokio::time::sleep(HOLD).await;
    }
    let mut r = Response::builder().status(status.as_u16());
    if let Some(ct) = ct {
        r = r.header("content-type", ct);
    }
    r.body(Body::from(bytes)).unwrap()
}

/// A proxy on 127.0.0.1:0 in front of `to` (the service's `/v1` base).
async fn proxy(to: &str, hold: Arc<AtomicBool>, rule: Rule) -> String {
    let root = to.trim_end_matches("/v1").to_string();
    let app = axum::Router::new().fallback(forward).with_state(Proxy {
        to: root,
        http: reqwest::Client::new(),
        hold,
        rule,
    });
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, app).await });
    format!("http://{addr}/v1")
}

struct Slow {
    _server: frontdesk::server::RunningServer,
    /// The service itself, with the account key (not through the hub).
    service: frontdesk::api::Client,
    _hub: frontdesk::hub::RunningHub,
    _dir: tempfile::TempDir,
    dana: super::support::Agent,
    lee: super::support::Agent,
    hold: Arc<AtomicBool>,
}

/// The service with 8 contacts, the proxy holding what `rule` picks (once
/// `hold` is set), a hub in front of the proxy, agents dana and lee.
async fn slow_team(rule: Rule) -> Slow {
    let server = common::spawn(common::config(8, 42)).await;
    let hold = Arc::new(AtomicBool::new(false));
    let via = proxy(&server.base_url, hold.clone(), rule).await;
    let dir = tempfile::tempdir().unwrap();
    let (dana_token, lee_token) = (add_agent(dir.path(), "dana"), add_agent(dir.path(), "lee"));
    let mut cfg = frontdesk::hub::HubConfig::new(dir.path().to_path_buf(), &via, ApiKey::new(server.api_key.clone()));
    cfg.reconcile_every = Duration::from_secs(3600);
    cfg.lost_check_every = Duration::from_secs(3600);
    let hub = start_hub(cfg).await;
    let (dana, lee) = (agent(&hub, "dana", dana_token), agent(&hub, "lee", lee_token));
    wait_for_contacts(&dana, 8).await;
    let service = frontdesk::api::Client::new(&server.base_url, &server.api_key, Duration::from_secs(10)).unwrap();
    Slow {
        _server: server,
        service,
        _hub: hub,
        _dir: dir,
        dana,
        lee,
        hold,
    }
}

impl Slow {
    /// The account's first contact, as the service lists it.
    async fn first(&self) -> frontdesk::api::Contact {
        let all = self
            .service
            .all_contacts(frontdesk::api::ContactFilter::default())
            .await;
        all.unwrap().into_iter().next().expect("a contact")
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_back_in_the_other_order_leave_the_hub_with_what_the_service_kept() {
    let t = slow_team(danas_assignment).await;
    let (dana, lee, hold) = (&t.dana, &t.lee, &t.hold);
    let (service, first) = (&t.service, t.first().await);
    let id = frontdesk::api::ContactId::from(first.uuid.as_str());
    service
        .update_contact(&id, &Action::Unassign.patch().unwrap())
        .await
        .unwrap();
    // The hub hears of the unassignment (its webhook) before the race.
    let (dc, lc) = (dana.client(), lee.client());
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while dc.get_contact(&id, false).await.unwrap().assigned_user.is_some() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hub never saw the unassignment"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    hold.store(true, Ordering::SeqCst);
    let seen = Seen {
        assignee: None,
        open: None,
    };
    let (to_dana, to_lee) = (Action::Assign(DANAS.into()), Action::Assign(LEES.into()));
    let lee_after = async {
        // Lee writes once dana's write reached the service: the service
        // keeps lee's, and lee's answer is back first.
        tokio::time::sleep(Duration::from_millis(100)).await;
        write_checked(&lc, &first.uuid, "", &to_lee, Some(&seen), Some(LEES)).await
    };
    let (d, l) = tokio::join!(
        write_checked(&dc, &first.uuid, "", &to_dana, Some(&seen), Some(DANAS)),
        lee_after
    );
    hold.store(false, Ordering::SeqCst);
    let kept = service.get_contact(&id, false).await.unwrap().assigned_user;
    assert_eq!(kept.as_deref(), Some(LEES), "the service applied lee's write last");
    let on_hub = dc.get_contact(&id, false).await.unwrap().assigned_user;
    assert_eq!(on_hub, kept, "the hub's copy is what the service kept");
    let snapshot = lee.snapshot_text().await;
    let row = snapshot
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["uuid"] == json!(first.uuid) || v["contact"]["uuid"] == json!(first.uuid))
        .expect("the contact is in the snapshot");
    assert!(
        row.to_string().contains(LEES) && !row.to_string().contains(DANAS),
        "the snapshot a new agent loads says lee: {row}"
    );
    match l.unwrap() {
        Checked::Done(done) => assert!(
            matches!(done.settled, Settled::Applied(_)),
            "lee is assigned: {:?}",
            done.settled
        ),
        Checked::Changed(c) => panic!("lee was asked: {}", c.what),
    }
    match d.unwrap() {
        Checked::Done(done) => match done.settled {
            Settled::Failed(why) => assert!(why.contains(LEES), "dana is told lee's collaborator has it: {why}"),
            other => panic!("dana was not told she lost: {other:?}"),
        },
        Checked::Changed(c) => assert!(c.what.contains(LEES), "{}", c.what),
    }
}

/// The service dates a message when it takes it; the hub's announcement of
/// a send (made from the send's answer, which carries no time) must not be
/// newer, or every agent's copy of the service's last message reads as
/// stale for good.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_send_with_a_slow_answer_is_dated_no_later_than_the_service_dates_it() {
    let t = slow_team(a_send).await;
    let (service, c) = (&t.service, t.first().await);
    let template = common::approved_template(service).await;
    let mut events = t.lee.events(None).await;
    t.hold.store(true, Ordering::SeqCst);
    let send = frontdesk::api::SendMessage::template(
        c.phone_number.clone(),
        c.source.clone(),
        template.uuid.to_string(),
        Vec::new(),
    );
    let sent = t
        .dana
        .client()
        .send_to_contact(&frontdesk::api::ContactId::new(c.uuid.clone()), send)
        .await
        .expect("sent via the hub");
    let ev = events.next_of("message_created").await;
    assert_eq!(ev.data["contact"], json!(c.uuid));
    let announced = frontdesk::api::time::parse_timestamp(ev.data["message"]["createdAt"].as_str().unwrap_or_default())
        .expect("the announcement is dated");
    let page = service
        .list_messages(
            &frontdesk::api::ContactId::new(c.uuid.clone()),
            &frontdesk::api::PageRequest::First,
        )
        .await
        .unwrap();
    let listed = page
        .items
        .iter()
        .find(|m| m.uuid.as_deref() == Some(sent.uuid.as_str()))
        .and_then(|m| m.created_at)
        .expect("the service lists the message, dated");
    assert!(
        announced <= listed,
        "announced at {announced}, after the service's {listed}"
    );
}
