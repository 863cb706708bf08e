//! Triage at 100,000 contacts: recounting every built-in view (the tab
//! strip's counts after a change), the same with three configured views,
//! and switching to a view (its rows in its order). Target: under 16 ms.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use chrono::{TimeZone, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use frontdesk::api::FieldValue;
use frontdesk::index::Who;
use frontdesk::triage::{Assignee, Facts, State, View, ViewFilter, builtin_views, count_views, find_view, select};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const CONTACTS: usize = 100_000;
const AGENTS: &[&str] = &["me@example.com", "bo@example.com", "cy@example.com", "di@example.com"];
const TAGS: &[&str] = &[
    "vip",
    "gold",
    "billing",
    "refund",
    "wholesale",
    "returning",
    "complaint",
];
const SOURCES: &[&str] = &["messaging_app", "whatsapp", "telegram", "instagram"];

fn account() -> Vec<Facts> {
    let mut rng = StdRng::seed_from_u64(9);
    let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).single().unwrap();
    (0..CONTACTS)
        .map(|i| {
            let active = now - chrono::Duration::seconds(rng.random_range(0..60 * 86_400));
            let mut fields = BTreeMap::new();
            if rng.random_bool(0.3) {
                fields.insert(
                    "plan".to_string(),
                    FieldValue::Text(["gold", "silver", "free"][i % 3].into()),
                );
            }
            Facts {
                uuid: format!("{i:032x}"),
                name: format!("Contact {i}"),
                phone: format!("+4477009{i:05}"),
                source: SOURCES[rng.random_range(0..SOURCES.len())].into(),
                assignee: rng
                    .random_bool(0.7)
                    .then(|| AGENTS[rng.random_range(0..AGENTS.len())].to_string()),
                team: rng.random_bool(0.5).then(|| "team-1".to_string()),
                tags: (0..rng.random_range(0..4))
                    .map(|_| TAGS[rng.random_range(0..TAGS.len())].to_string())
                    .collect(),
                custom_fields: fields,
                note: rng.random_bool(0.1).then(|| "called back about the refund".to_string()),
                closed: rng.random_bool(0.6),
                closed_at: None,
                state_unknown: false,
                last_activity: Some(active),
                last_who: Some([Who::Customer, Who::Agent, Who::Note][rng.random_range(0..3)]),
                last_at: Some(active),
                wait: Default::default(),
            }
        })
        .collect()
}

fn custom() -> Vec<View> {
    vec![
        View::new(
            "VIP waiting",
            ViewFilter {
                state: State::Open,
                waiting: Some(Duration::from_secs(7200)),
                tags_any: vec!["vip".into(), "gold".into()],
                ..Default::default()
            },
        ),
        View::new(
            "Stale",
            ViewFilter {
                state: State::Open,
                assignee: Some(Assignee::Nobody),
                older_than: Some(Duration::from_secs(7 * 86_400)),
                ..Default::default()
            },
        ),
        View::new(
            "Refunds",
            ViewFilter {
                text: Some("refund".into()),
                fields: vec![("plan".into(), "gold".into())],
                ..Default::default()
            },
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let facts = account();
    let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).single().unwrap();
    let me = Some("me@example.com");
    let builtin = builtin_views();
    let mut all = builtin.clone();
    all.extend(custom());
    c.bench_function("count the 5 built-in views, 100k contacts", |b| {
        b.iter(|| count_views(black_box(&facts), &builtin, me, now))
    });
    c.bench_function("count 8 views (3 configured), 100k contacts", |b| {
        b.iter(|| count_views(black_box(&facts), &all, me, now))
    });
    let waiting = find_view("waiting", &[]).unwrap();
    c.bench_function("switch to Waiting (rows, longest wait first), 100k contacts", |b| {
        b.iter(|| select(black_box(&facts), &waiting, me, now))
    });
    let open = find_view("open", &[]).unwrap();
    c.bench_function("switch to Open (rows, newest first), 100k contacts", |b| {
        b.iter(|| select(black_box(&facts), &open, me, now))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
