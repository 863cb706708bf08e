//! The local index at 100,000 contacts and 500,000 cached messages: one
//! search keystroke (a prefix query, as typed), and the file's size on disk
//! against the JSON of the same contacts (printed once, before the
//! measurements).

use std::collections::BTreeMap;
use std::hint::black_box;

use chrono::{Duration as Days, TimeZone, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use frontdesk::api::{Contact, FieldValue, Message, MessageStatus};
use frontdesk::index::{Index, Thread};
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
            last_message_at: Some(activity),
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
                status: MessageStatus::Other("delivered".into()),
                channel: "messaging_app".into(),
                from: contact.phone_number.clone(),
                to: "+15550000000".into(),
            })
            .collect();
        threads.push((contact.uuid.clone(), contact.last_message_at, messages));
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
    for query in ["ros", "ada lovelace", "+44 7700 12", "refund", "zzz"] {
        g.bench_function(format!("{query:?} of 100k contacts, 500k messages"), |b| {
            b.iter(|| black_box(index.search(black_box(query), 50).expect("search")))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
