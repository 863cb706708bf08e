//! GET /contacts by cursor at 100,000 contacts: the cost of a batch must not
//! grow with its position in the walk (keyset on (last_activity, id), no OFFSET).

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use frontdesk::server::{ServerConfig, start};
use serde_json::Value;

const CONTACTS: usize = 100_000;

async fn fetch(client: &reqwest::Client, url: &str, key: &str) -> Value {
    let resp = client.get(url).bearer_auth(key).send().await.expect("request");
    assert!(resp.status().is_success(), "{}", resp.status());
    resp.json().await.expect("json")
}

fn contacts_by_cursor(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let client = reqwest::Client::new();
    let (server, cursors) = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let t = Instant::now();
        let server = start(
            listener,
            ServerConfig {
                contacts: CONTACTS,
                ..Default::default()
            },
        )
        .await
        .expect("server starts");
        eprintln!("seeded {CONTACTS} contacts in {:.2?}", t.elapsed());
        // Walk once to collect the cursor of every batch.
        let t = Instant::now();
        let mut cursors = Vec::new();
        let mut v = fetch(&client, &format!("{}/contacts", server.base_url), &server.api_key).await;
        let mut seen = v["contacts"].as_array().map_or(0, Vec::len);
        while let Some(next) = v["meta"]["next"].as_str().map(String::from) {
            v = fetch(
                &client,
                &format!("{}/contacts?after={next}", server.base_url),
                &server.api_key,
            )
            .await;
            seen += v["contacts"].as_array().map_or(0, Vec::len);
            cursors.push(next);
        }
        assert_eq!(seen, CONTACTS);
        eprintln!("walked {} batches by cursor in {:.2?}", cursors.len() + 1, t.elapsed());
        (server, cursors)
    });
    let base = server.base_url.clone();
    let key = server.api_key.clone();
    let mut group = c.benchmark_group("contacts_cursor_100k");
    let positions = [
        ("page_1", format!("{base}/contacts?page=1")),
        ("cursor_batch_2", format!("{base}/contacts?after={}", cursors[0])),
        (
            "cursor_middle",
            format!("{base}/contacts?after={}", cursors[cursors.len() / 2]),
        ),
        (
            "cursor_last_batch",
            format!("{base}/contacts?after={}", cursors[cursors.len() - 1]),
        ),
    ];
    for (name, url) in positions {
        group.bench_function(name, |b| b.to_async(&rt).iter(|| fetch(&client, &url, &key)));
    }
    group.finish();
    rt.block_on(server.stop());
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = contacts_by_cursor
}
criterion_main!(benches);
