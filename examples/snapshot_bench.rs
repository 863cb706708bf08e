//! Where a new agent's snapshot load spends its time (issue 20: exact
//! counts within 10 s of start at 100,000 contacts). Run in release:
//!
//! cargo build --release --example snapshot_bench
//! target/release/examples/snapshot_bench [CONTACTS]
//!
//! With CONTACTS synthetic contacts (default 20,000), about 70% of them
//! with a last message, it times:
//! - the hub's own index, filled fast (`load_batch`, then the search rows
//!   with `build_all_search`);
//! - the hub's side of the snapshot: reading every contact and preview
//!   from that index and encoding the NDJSON lines;
//! - reading the whole body over HTTP (bytes counted, nothing parsed);
//! - `HubClient::snapshot_into` into a fresh index file (the views and
//!   their counts are whole then: the counts are made from the index as
//!   the TUI makes them), then the search rows the TUI writes afterwards,
//!   and a search.

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::routing::get;
use chrono::{DateTime, TimeZone, Utc};
use frontdesk::api::{Contact, FieldValue, Message, MessageStatus};
use frontdesk::hubclient::HubClient;
use frontdesk::index::{Index, Order, Preview, Thread, Who};

fn contact(i: usize, base: DateTime<Utc>) -> Contact {
    let created = base - chrono::Duration::minutes(i as i64 * 7);
    let mut fields = std::collections::BTreeMap::new();
    fields.insert("city".to_string(), FieldValue::Text(format!("City{}", i % 300)));
    fields.insert(
        "plan".to_string(),
        FieldValue::Text(["free", "pro", "team"][i % 3].into()),
    );
    Contact {
        uuid: format!("{:08x}-0000-4000-8000-{:012x}", i * 2_654_435_761 % 0xffff_ffff, i),
        name: format!("Person{} Surname{}", i, i % 977),
        phone_number: format!("+4477{:08}", i),
        created_at: Some(created),
        source: "messaging_app".into(),
        assigned_user: (!i.is_multiple_of(4)).then(|| format!("agent{}@frontdesk.example", i % 20)),
        tags: vec![format!("tag{}", i % 50), "customer".into()],
        custom_fields: fields,
        closed_at: i.is_multiple_of(3).then_some(created + chrono::Duration::minutes(30)),
        activity_at: Some(created + chrono::Duration::minutes(20)),
        note: i.is_multiple_of(5).then(|| format!("note about order {i}")),
        ..Default::default()
    }
}

fn thread(c: &Contact, i: usize) -> Option<Thread> {
    if i % 10 >= 7 {
        return None;
    }
    let status = if i.is_multiple_of(2) {
        MessageStatus::Received
    } else {
        MessageStatus::Sent
    };
    Some((
        c.uuid.clone(),
        c.last_activity(),
        vec![Message {
            uuid: None,
            text: format!("Hello, where is my order number {i}? It was due on Tuesday, thanks"),
            created_at: c.last_activity(),
            status,
            channel: String::new(),
            from: String::new(),
            to: String::new(),
            sent_by: None,
            rich: Default::default(),
        }],
    ))
}

/// The hub's line format (see `src/hub/snapshot.rs`).
fn write_line(buf: &mut Vec<u8>, c: &Contact, p: Option<&Preview>) {
    serde_json::to_writer(&mut *buf, c).unwrap();
    if let Some(p) = p {
        buf.pop();
        let stamp = |t: Option<DateTime<Utc>>| t.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Micros, true));
        let mut v = serde_json::json!({ "text": p.text, "activity": stamp(p.activity) });
        if let Some(w) = p.who {
            v["status"] = serde_json::json!(match w {
                Who::Customer => "received",
                Who::Agent => "sent",
                Who::Note => "note",
            });
        }
        if let Some(at) = stamp(p.at) {
            v["createdAt"] = serde_json::json!(at);
        }
        buf.extend_from_slice(b",\"hubPreview\":");
        serde_json::to_writer(&mut *buf, &v).unwrap();
        buf.push(b'}');
    }
    buf.push(b'\n');
}

fn secs(t: Instant) -> String {
    format!("{:.2} s", t.elapsed().as_secs_f64())
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let dir = tempfile::tempdir().expect("tempdir");
    let base = Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap();
    let contacts: Vec<Contact> = (0..n).map(|i| contact(i, base)).collect();
    let threads: Vec<Thread> = contacts.iter().enumerate().filter_map(|(i, c)| thread(c, i)).collect();
    println!("{n} contacts, {} last messages", threads.len());

    // The hub's index, filled as a fresh index is.
    let mut hub = Index::open(&dir.path().join("hub.sqlite")).expect("index").index;
    let t = Instant::now();
    let chunk: usize = std::env::var("CHUNK").ok().and_then(|c| c.parse().ok()).unwrap_or(500);
    for b in contacts.chunks(chunk) {
        let uuids: std::collections::HashSet<&str> = b.iter().map(|c| c.uuid.as_str()).collect();
        let pages: Vec<Thread> = threads
            .iter()
            .filter(|t| uuids.contains(t.0.as_str()))
            .cloned()
            .collect();
        hub.load_batch(b, &pages, Utc::now()).expect("load");
    }
    println!("the hub's index: load_batch ({chunk} a call): {}", secs(t));
    if std::env::var("ONLY_LOAD").is_ok() {
        return;
    }
    let t = Instant::now();
    hub.build_all_search().expect("search rows");
    println!("the hub's index: build_all_search: {}", secs(t));

    // The hub's side: read, encode.
    let t = Instant::now();
    let list = hub.list(Order::Activity, usize::MAX, 0).expect("list");
    let previews: std::collections::HashMap<String, Preview> =
        hub.all_previews().expect("previews").into_iter().collect();
    let read = t.elapsed();
    let mut body = format!(
        "{}\n",
        serde_json::json!({"cursor": 0, "contacts": list.len(), "account": "bench"})
    )
    .into_bytes();
    for c in &list {
        let p = previews.get(&c.uuid).filter(|p| p.activity == c.last_activity());
        write_line(&mut body, c, p);
    }
    println!(
        "hub side: list + all_previews {:.2} s, encoding {:.2} s ({} bytes)",
        read.as_secs_f64(),
        (t.elapsed() - read).as_secs_f64(),
        body.len()
    );
    drop(hub);

    // Served as the hub streams it: chunks of 500 lines.
    let body = Bytes::from(body);
    let app = Router::new().route(
        "/hub/v1/snapshot",
        get(move || {
            let body = body.clone();
            async move {
                let mut chunks = Vec::new();
                let mut rest = &body[..];
                while !rest.is_empty() {
                    let mut end = 0;
                    for _ in 0..500 {
                        match rest[end..].iter().position(|b| *b == b'\n') {
                            Some(p) => end += p + 1,
                            None => {
                                end = rest.len();
                                break;
                            }
                        }
                        if end >= rest.len() {
                            break;
                        }
                    }
                    chunks.push(Ok::<Bytes, std::io::Error>(body.slice_ref(&rest[..end])));
                    rest = &rest[end..];
                }
                Body::from_stream(futures::stream::iter(chunks))
            }
        }),
    );
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", l.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(l, app).await });

    let t = Instant::now();
    let mut resp = reqwest::get(format!("{url}/hub/v1/snapshot")).await.expect("get");
    let mut bytes = 0;
    while let Some(c) = resp.chunk().await.expect("chunk") {
        bytes += c.len();
    }
    println!("HTTP read of the whole body: {} ({bytes} bytes)", secs(t));

    for run in 0..2 {
        let file = dir.path().join(format!("agent{run}.sqlite"));
        let t = Instant::now();
        let mut index = Index::open(&file).expect("index").index;
        let client = HubClient::new(&url, "token", Duration::from_secs(60)).expect("client");
        let report = client
            .snapshot_into(&mut index, &mut |_, _| {})
            .await
            .expect("snapshot");
        let loaded = t.elapsed();
        // The counts, as the TUI makes them: every contact and preview read.
        let held = index.list(Order::Activity, usize::MAX, 0).expect("list");
        let held_previews: std::collections::HashMap<String, Preview> =
            index.all_previews().expect("previews").into_iter().collect();
        let facts: Vec<_> = held
            .iter()
            .map(|c| frontdesk::triage::Facts::new(c, held_previews.get(&c.uuid)))
            .collect();
        let views: Vec<_> = frontdesk::triage::builtin_views().into_iter().take(3).collect();
        let counts = frontdesk::triage::count_views(&facts, &views, Some("agent1@frontdesk.example"), Utc::now());
        println!(
            "snapshot_into a fresh index: {:.2} s ({} contacts, {} previews, search rows pending: {}); \
             counts {counts:?} at {} from the start",
            loaded.as_secs_f64(),
            report.seen,
            report.previews,
            report.search_pending,
            secs(t),
        );
        let b = Instant::now();
        let written = index.build_all_search().expect("search rows");
        println!("search rows written afterwards: {written} in {}", secs(b));
        let t = Instant::now();
        let hits = index.search("Surname5", 10).expect("search");
        let phone = index.search(&contacts[n / 2].phone_number, 10).expect("search");
        let held = index.all_previews().expect("previews").len();
        println!(
            "after: {} contacts, {held} previews, search 'Surname5' {} hits, phone {} hits, consistent {} ({})",
            index.count().expect("count"),
            hits.len(),
            phone.len(),
            index.is_consistent().expect("check"),
            secs(t)
        );
    }
    // Again into an index holding it all (nothing new).
    let t = Instant::now();
    let mut index = Index::open(&dir.path().join("agent0.sqlite")).expect("index").index;
    let client = HubClient::new(&url, "token", Duration::from_secs(60)).expect("client");
    let report = client
        .snapshot_into(&mut index, &mut |_, _| {})
        .await
        .expect("snapshot");
    println!(
        "snapshot_into an index holding it: {} ({} changed, {} previews)",
        secs(t),
        report.changed,
        report.previews
    );
}
