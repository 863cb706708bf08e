//! The demo seed varies who wrote last and how long customers have waited,
//! and is the same account for the same seed.

use super::*;

/// Per contact in list order: uuid, open, last activity (ms), and the
/// status of its newest message.
async fn last_writers(srv: &Srv) -> Vec<(String, bool, i64, String)> {
    let mut out = Vec::new();
    for c in srv.walk("").await {
        let uuid = c["uuid"].as_str().unwrap().to_string();
        let v = srv.ok(&format!("/contacts/{uuid}/messages")).await;
        let newest = v["messages"]
            .as_array()
            .unwrap()
            .iter()
            .max_by_key(|m| m["createdAt"].as_str().unwrap_or("").to_string())
            .expect("every seeded conversation has a message");
        let at = chrono::DateTime::parse_from_rfc3339(newest["createdAt"].as_str().unwrap())
            .unwrap()
            .timestamp_millis();
        out.push((
            uuid,
            c["closedAt"].is_null(),
            at,
            newest["status"].as_str().unwrap().to_string(),
        ));
    }
    out
}

#[tokio::test]
async fn seeded_conversations_differ_in_who_wrote_last_and_how_long_customers_wait() {
    let cfg = || ServerConfig {
        contacts: 300,
        seed: 5,
        ..Default::default()
    };
    let srv = spawn(cfg()).await;
    let last = last_writers(&srv).await;
    assert_eq!(last.len(), 300);
    let count = |s: &str| last.iter().filter(|l| l.3 == s).count();
    let (customer, agent, note) = (count("received"), count("sent"), count("note"));
    assert!(customer >= 60 && agent >= 30 && note >= 20, "{customer} {agent} {note}");
    let now = chrono::Utc::now().timestamp_millis();
    let waiting: Vec<i64> = last
        .iter()
        .filter(|l| l.1 && l.3 == "received")
        .map(|l| (now - l.2) / 60_000)
        .collect();
    assert!(
        waiting.iter().filter(|m| **m < 60).count() >= 3,
        "waiting minutes: {waiting:?}"
    );
    assert!(waiting.iter().any(|m| (60..24 * 60).contains(m)), "waiting hours");
    assert!(waiting.iter().any(|m| *m >= 24 * 60), "waiting days");

    // The same seed: the same contacts, the same last writers.
    let again = spawn(cfg()).await;
    let twin = last_writers(&again).await;
    let strip = |l: &[(String, bool, i64, String)]| -> Vec<(String, bool, String)> {
        l.iter().map(|(u, o, _, s)| (u.clone(), *o, s.clone())).collect()
    };
    assert_eq!(strip(&last), strip(&twin));
}
