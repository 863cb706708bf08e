//! Two agents writing one contact at once through the hub, their answers
//! coming back in the other order than the service applied them (a proxy
//! in front of the service holds the first write's answer): the hub keeps
//! what the service kept, not whichever answer came last, and the agent
//! the service overruled is told, through the hub, who has it.

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
    /// Hold dana's assignments' answers (only while set).
    hold: Arc<AtomicBool>,
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
    let danas = parts.method == Method::PATCH && String::from_utf8_lossy(&body).contains(HELD);
    if danas && p.hold.load(Ordering::SeqCst) {
        tokio::time::sleep(HOLD).await;
    }
    let mut r = Response::builder().status(status.as_u16());
    if let Some(ct) = ct {
        r = r.header("content-type", ct);
    }
    r.body(Body::from(bytes)).unwrap()
}

/// A proxy on 127.0.0.1:0 in front of `to` (the service's `/v1` base).
async fn proxy(to: &str, hold: Arc<AtomicBool>) -> String {
    let root = to.trim_end_matches("/v1").to_string();
    let app = axum::Router::new().fallback(forward).with_state(Proxy {
        to: root,
        http: reqwest::Client::new(),
        hold,
    });
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, app).await });
    format!("http://{addr}/v1")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_back_in_the_other_order_leave_the_hub_with_what_the_service_kept() {
    let server = common::spawn(common::config(8, 42)).await;
    let hold = Arc::new(AtomicBool::new(false));
    let via = proxy(&server.base_url, hold.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let (dana_token, lee_token) = (add_agent(dir.path(), "dana"), add_agent(dir.path(), "lee"));
    let mut cfg = frontdesk::hub::HubConfig::new(dir.path().to_path_buf(), &via, ApiKey::new(server.api_key.clone()));
    cfg.reconcile_every = Duration::from_secs(3600);
    cfg.lost_check_every = Duration::from_secs(3600);
    let hub = start_hub(cfg).await;
    let (dana, lee) = (agent(&hub, "dana", dana_token), agent(&hub, "lee", lee_token));
    wait_for_contacts(&dana, 8).await;
    let service = frontdesk::api::Client::new(&server.base_url, &server.api_key, Duration::from_secs(10)).unwrap();
    let first = service
        .all_contacts(frontdesk::api::ContactFilter::default())
        .await
        .unwrap()
        .into_iter()
        .next()
        .unwrap();
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
