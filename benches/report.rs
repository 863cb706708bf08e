//! A 30-day report over an index of 100,000 contacts, each with a cached
//! page of 5 messages, activity spread over the last 60 days (half of the
//! conversations active in the period): the index query and the figures,
//! for the whole account and per agent and per tag. The target (issue 24)
//! is under 1 s.

use std::hint::black_box;

use chrono::{Duration, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use frontdesk::api::{Contact, ContactTeam, Message, MessageStatus};
use frontdesk::index::{Index, Thread};
use frontdesk::report::{GroupBy, Period, compute};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const CONTACTS: usize = 100_000;
const TAGS: &[&str] = &["vip", "billing", "new", "churn-risk", "wholesale", "b2b", "returning"];
const TEAMS: &[&str] = &["Support", "Sales", "Billing", "VIP Care", "Night shift"];

fn dataset() -> (Vec<Contact>, Vec<Thread>) {
    let mut rng = StdRng::seed_from_u64(24);
    let now = Utc::now();
    let mut contacts = Vec::with_capacity(CONTACTS);
    let mut threads = Vec::with_capacity(CONTACTS);
    for i in 0..CONTACTS {
        let activity = now - Duration::seconds(rng.random_range(0..60 * 86_400));
        let created = activity - Duration::seconds(rng.random_range(600..20 * 86_400));
        let closed = rng.random_bool(0.6).then_some(activity);
        let team = TEAMS[rng.random_range(0..TEAMS.len())];
        let contact = Contact {
            uuid: format!("{:08x}-0000-4000-8000-{:012x}", rng.random::<u32>(), i),
            name: format!("Customer {i}"),
            created_at: Some(created),
            source: "messaging_app".into(),
            assigned_user: rng
                .random_bool(0.8)
                .then(|| format!("agent{}@example.com", rng.random_range(0..20))),
            tags: (0..rng.random_range(0..3))
                .map(|_| TAGS[rng.random_range(0..TAGS.len())].to_string())
                .collect(),
            closed_at: closed,
            team: Some(ContactTeam {
                uuid: Some(format!("team-{team}")),
                name: Some(team.into()),
            }),
            activity_at: Some(activity),
            ..Contact::default()
        };
        let messages: Vec<Message> = (0..5)
            .map(|k| Message {
                uuid: Some(format!("m{i}-{k}")),
                text: "Hello, where is my order?".into(),
                created_at: Some(activity - Duration::minutes(40 * k)),
                status: if k % 2 == 0 {
                    MessageStatus::Received
                } else {
                    MessageStatus::Sent
                },
                channel: "whatsapp".into(),
                from: String::new(),
                to: String::new(),
                sent_by: None,
                rich: Default::default(),
            })
            .collect();
        threads.push((contact.uuid.clone(), Some(activity), messages));
        contacts.push(contact);
    }
    (contacts, threads)
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut index = Index::open(&dir.path().join("index.sqlite")).expect("index").index;
    let (contacts, threads) = dataset();
    let now = Utc::now();
    for chunk in contacts.chunks(5_000) {
        index.upsert_contacts(chunk, now).expect("contacts");
    }
    for chunk in threads.chunks(5_000) {
        index.store_threads(chunk).expect("threads");
    }
    let period = Period::since(now, Duration::days(30));
    let rows = index.report_rows(period.from).expect("rows");
    let r = compute(&rows, period, now, None);
    println!(
        "30-day report over {} contacts: {} opened, {} closed, {} first responses measured, {} waiting",
        r.contacts, r.groups[0].opened, r.groups[0].closed, r.groups[0].first_response.count, r.groups[0].waiting.total
    );
    let mut g = c.benchmark_group("report");
    g.sample_size(10);
    g.bench_function("30_days_100k_all", |b| {
        b.iter(|| {
            let rows = index.report_rows(period.from).expect("rows");
            black_box(compute(&rows, period, now, None))
        })
    });
    g.bench_function("30_days_100k_by_agent", |b| {
        b.iter(|| {
            let rows = index.report_rows(period.from).expect("rows");
            black_box(compute(&rows, period, now, Some(GroupBy::Agent)))
        })
    });
    g.bench_function("30_days_100k_by_tag_compute_only", |b| {
        b.iter(|| black_box(compute(&rows, period, now, Some(GroupBy::Tag))))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
