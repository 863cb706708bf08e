//! The local index at 100,000 contacts and 500,000 cached messages: one
//! search keystroke (a prefix query, as typed; a typo; a word in most
//! conversations, also as the old bm25-over-every-match query for
//! comparison), the first frame from the index (open the file, the first
//! 200 contacts in activity order and every preview), and the file's size
//! on disk against the JSON of the same contacts (printed once, before the
//! measurements). Then one incremental pass against the embedded server
//! holding 10,000 contacts after 3 of them got a new message (requests
//! made printed once).

use std::collections::BTreeMap;
use std::hint::black_box;

use chrono::{Duration as Days, TimeZone, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use frontdesk::api::{Client, ContactFilter, SendMessage, TemplateStatus};
use frontdesk::api::{Contact, FieldValue, Message, MessageStatus};
use frontdesk::index::sync::{Budget, full_sync, incremental_sync};
use frontdesk::index::{Index, Order, Thread, fts_query};
use frontdesk::server::{ServerConfig, start};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const CONTACTS: usize = 100_000;
const MESSAGES_PER_CONTACT: usize = 5;

const FIRST: &[&str] = &[
    "Ada", "Bob", "Chiara", "Dmitri", "Emeka", "Fatima", "Gustav", "Hana", "Ines", "Jonas", "Kwame", "Lena", "Mateo",
    "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tariq", "Ursula", "Vik", "Wen", "Ximena", "Yusuf", "Zoe",
];
const LAST: &[&str] = &[
    "Lovelace", "Marley", "Rossi", "Ivanov", "Okafor", "Haddad", "Berg", "Sato", "Moreau", "Weber", "Mensah", "Novak",
    "Garcia", "Karimi", "Lind", "Patel", "Dupont", "Silva", "Nilsson", "Aziz", "Keller", "Rao", "Zhang", "Lopez",
];
const WORDS: &[&str] = &[
    "order",
    "refund",
    "delivery",
    "parcel",
    "invoice",
    "thanks",
    "tomorrow",
    "address",
    "broken",
    "payment",
    "card",
    "please",
    "help",
    "status",
    "tracking",
    "return",
    "size",
    "colour",
    "exchange",
    "late",
    "hello",
    "question",
    "account",
    "password",
    "subscription",
    "cancel",
    "upgrade",
    "discount",
    "voucher",
    "receipt",
];
const TAGS: &[&str] = &["vip", "billing", "new", "churn-risk", "wholesale", "b2b", "returning"];

fn dataset() -> (Vec<Contact>, Vec<Thread>) {
    let mut rng = StdRng::seed_from_u64(42);
    let base = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).single().unwrap_or_default();
    let pick = |rng: &mut StdRng, xs: &[&str]| xs[rng.random_range(0..xs.len())].to_string();
    let mut contacts = Vec::with_capacity(CONTACTS);
    let mut threads = Vec::with_capacity(CONTACTS);
    for i in 0..CONTACTS {
        let activity = base + Days::seconds(i as i64 * 37);
        let contact = Contact {
            uuid: format!("{:08x}-0000-4000-8000-{:012x}", rng.random::<u32>(), i),
            name: format!("{} {}", pick(&mut rng, FIRST), pick(&mut rng, LAST)),
            phone_number: format!("+44 7700 {:06}", rng.random_range(0..1_000_000)),
            source: "messaging_app".into(),
            created_at: Some(activity - Days::days(30)),
            activity_at: Some(activity),
            assigned_user: Some(format!("agent{}@example.com", i % 12)),
            tags: vec![pick(&mut rng, TAGS)],
            custom_fields: BTreeMap::from([
                ("City".into(), FieldValue::Text(pick(&mut rng, LAST))),
                ("Plan".into(), FieldValue::Text(pick(&mut rng, WORDS))),
            ]),
            closed_at: (i % 3 == 0).then_some(activity),
            note: (i % 5 == 0).then(|| format!("{} {}", pick(&mut rng, WORDS), pick(&mut rng, WORDS))),
            ..Default::default()
        };
        let messages = (0..MESSAGES_PER_CONTACT)
            .map(|m| Message {
                uuid: Some(format!("m{i}-{m}")),
                text: (0..8).map(|_| pick(&mut rng, WORDS)).collect::<Vec<_>>().join(" "),
                created_at: Some(activity - Days::minutes(m as i64)),
                status: MessageStatus::from(["received", "sent", "note"][(i + m) % 3]),
                channel: "messaging_app".into(),
                from: contact.phone_number.clone(),
                to: "+15550000000".into(),
                sent_by: None,
                rich: Default::default(),
            })
            .collect();
        threads.push((contact.uuid.clone(), contact.activity_at, messages));
        contacts.push(contact);
    }
    (contacts, threads)
}

fn file_size(path: &std::path::Path) -> u64 {
    ["", "-wal", "-shm"]
        .iter()
        .filter_map(|s| {
            let mut p = path.as_os_str().to_owned();
            p.push(s);
            std::fs::metadata(p).ok().map(|m| m.len())
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let (contacts, threads) = dataset();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("frontdesk/index.sqlite");
    let mut index = Index::open(&path).expect("index opens").index;
    for chunk in contacts.chunks(5_000) {
        index.upsert_contacts(chunk, Utc::now()).expect("contacts stored");
    }
    let contacts_only = file_size(&path);
    for chunk in threads.chunks(5_000) {
        index.store_threads(chunk).expect("messages stored");
    }
    drop(index);
    let index = Index::open(&path).expect("index reopens").index;
    let json = serde_json::to_vec(&contacts).expect("json").len() as u64;
    let messages_json = serde_json::to_vec(&threads.iter().map(|t| &t.2).collect::<Vec<_>>())
        .expect("json")
        .len() as u64;
    let mib = |n: u64| n as f64 / (1024.0 * 1024.0);
    eprintln!(
        "index of {CONTACTS} contacts: {:.1} MiB on disk (contacts' JSON {:.1} MiB); with {} messages: {:.1} MiB \
         (contacts' and messages' JSON {:.1} MiB)",
        mib(contacts_only),
        mib(json),
        CONTACTS * MESSAGES_PER_CONTACT,
        mib(file_size(&path)),
        mib(json + messages_json)
    );

    let mut g = c.benchmark_group("index_search");
    for query in [
        "ros",
        "ada lovelace",
        "+44 7700 12",
        "refund",
        "order",
        "zzz",
        "refnud",
        "lovelaec",
    ] {
        g.bench_function(format!("{query:?} of 100k contacts, 500k messages"), |b| {
            b.iter(|| black_box(index.search(black_box(query), 50).expect("search")))
        });
    }
    // The query `Index::search` ran before it ranked common words by tiers.
    let raw = rusqlite::Connection::open(&path).expect("raw connection");
    for query in ["refund", "order"] {
        let fts = fts_query(query).expect("words");
        let sql = "SELECT c.uuid, s.rank FROM (
                 SELECT rowid, bm25(search, 10.0, 8.0, 5.0, 3.0, 2.0, 1.0) AS rank FROM search
                 WHERE search MATCH ?1 ORDER BY rank LIMIT 50
             ) s JOIN contacts c ON c.rowid = s.rowid ORDER BY s.rank";
        g.bench_function(format!("{query:?} as before: bm25 over every match"), |b| {
            b.iter(|| {
                let mut stmt = raw.prepare_cached(sql).expect("prepare");
                let rows: Vec<String> = stmt
                    .query_map([&fts], |r| r.get(0))
                    .expect("query")
                    .collect::<Result<_, _>>()
                    .expect("rows");
                black_box(rows)
            })
        });
    }
    g.finish();
    drop(raw);
    drop(index);

    let mut g = c.benchmark_group("index_first_frame");
    g.bench_function("open 100k index, first 200 by activity, every preview", |b| {
        b.iter(|| {
            let index = Index::open(&path).expect("index opens").index;
            let rows = index.list(Order::Activity, 200, 0).expect("list");
            let previews = index.all_previews().expect("previews");
            black_box((rows.len(), previews.len()))
        })
    });
    // What opening a file not checked for a day (or doctor) adds: SQLite's
    // quick check of the whole file.
    let raw = rusqlite::Connection::open(&path).expect("raw connection");
    g.sample_size(10);
    g.bench_function("integrity quick_check of the 100k index", |b| {
        b.iter(|| {
            let verdict: String = raw
                .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
                .expect("quick_check");
            black_box(verdict)
        })
    });
    g.finish();
}

/// How many of the server's contacts get a new message before each pass.
const CHANGED: usize = 3;

fn incremental(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let (server, api) = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let cfg = ServerConfig {
            contacts: 10_000,
            seed: 7,
            ..Default::default()
        };
        let server = start(listener, cfg).await.expect("server starts");
        let api = Client::new(&server.base_url, &server.api_key, std::time::Duration::from_secs(30)).expect("client");
        (server, api)
    });
    let template = rt
        .block_on(api.list_templates(None))
        .expect("templates")
        .items
        .into_iter()
        .find(|t| t.status == TemplateStatus::Approved)
        .map(|t| t.uuid)
        .expect("an approved template");
    let mut index = Index::in_memory().expect("index");
    let mut contacts = rt.block_on(async {
        full_sync(&api, &mut index, &Budget::new(0.0), &mut |_| {})
            .await
            .expect("full sync");
        api.all_contacts(ContactFilter::default()).await.expect("contacts")
    });
    // Writes to contacts from the far end of the list: each moves to the top.
    let mut write = |rt: &tokio::runtime::Runtime| {
        for _ in 0..CHANGED {
            let c = contacts.pop().expect("a contact left to write to");
            let send = SendMessage::template(c.phone_number.clone(), "messaging_app", template.clone(), vec![]);
            rt.block_on(api.send_message(&send)).expect("sent");
        }
    };
    write(&rt);
    let report = rt
        .block_on(incremental_sync(&api, &mut index, &Budget::new(0.0)))
        .expect("pass");
    eprintln!(
        "incremental pass after {CHANGED} contacts of 10,000 got a message: {} requests, {} contacts changed",
        report.requests, report.changed
    );
    let mut g = c.benchmark_group("index_incremental");
    // Each pass uses up 3 contacts of 10,000: keep the pass count low.
    g.sample_size(10)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(5));
    g.bench_function("one pass, 3 of 10k contacts changed", |b| {
        b.iter_custom(|iters| {
            let mut spent = std::time::Duration::ZERO;
            for _ in 0..iters {
                write(&rt);
                let at = std::time::Instant::now();
                let report = rt
                    .block_on(incremental_sync(&api, &mut index, &Budget::new(0.0)))
                    .expect("pass");
                spent += at.elapsed();
                black_box(report);
            }
            spent
        })
    });
    g.finish();
    drop(server);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench, incremental
}
criterion_main!(benches);
