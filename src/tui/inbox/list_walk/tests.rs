use std::sync::{Arc, Mutex};

use super::*;
use crate::tui::fixtures::{contacts, page};

/// Serves pages whose `next` cursors are `nexts`, in turn; records asks.
async fn walk(nexts: &[Option<&str>], pages: u32) -> (Vec<PageRequest>, usize) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let nexts: Vec<Option<String>> = nexts.iter().map(|n| n.map(str::to_string)).collect();
    let log = asked.clone();
    let fetch = move |at: PageRequest| {
        let mut log = log.lock().unwrap();
        let n = log.len();
        log.push(at);
        let next = nexts.get(n).cloned().flatten();
        async move { Ok(page(contacts(n * 20..n * 20 + 20), next.as_deref())) }
    };
    let mut sent = 0;
    pages_from(fetch, PageRequest::After("c0".into()), pages, Duration::ZERO, |_| {
        sent += 1;
        true
    })
    .await;
    let asked = asked.lock().unwrap().clone();
    (asked, sent)
}

#[tokio::test]
async fn follows_cursors_to_the_end() {
    let (asked, sent) = walk(&[Some("c1"), Some("c2"), None], 100).await;
    assert_eq!(asked.len(), 3);
    assert_eq!(asked[2], PageRequest::After("c2".into()));
    assert_eq!(sent, 3);
}

#[tokio::test]
async fn stops_at_a_repeated_cursor_and_a_cycle() {
    let (asked, sent) = walk(&[Some("c1"), Some("c1"), Some("c1"), Some("c1")], 100).await;
    assert_eq!(asked.len(), 2, "c1 is not asked for twice");
    assert_eq!(sent, 3, "two pages, then the error");
    let (asked, _) = walk(&[Some("c1"), Some("c0"), Some("c1")], 100).await;
    assert_eq!(asked.len(), 2, "c0 (where the walk began) is not asked again");
}

#[tokio::test]
async fn a_batched_walk_hands_over_all_items_with_the_last_cursor() {
    let nexts = [Some("c1"), Some("c2"), None];
    let mut n = 0;
    let fetch = |_at: PageRequest| {
        let next = nexts[n];
        n += 1;
        let items = contacts((n - 1) * 20..n * 20);
        async move { Ok(page(items, next)) }
    };
    let mut got = Vec::new();
    pages_from(
        fetch,
        PageRequest::After("c0".into()),
        u32::MAX,
        Duration::from_secs(60),
        |r| {
            got.push(r.unwrap());
            true
        },
    )
    .await;
    assert_eq!(got.len(), 1, "one hand-over within the batch time");
    assert_eq!(got[0].items.len(), 60);
    assert_eq!(got[0].meta.next, None);
}

#[tokio::test]
async fn asks_for_no_more_pages_than_wanted() {
    let (asked, _) = walk(&[Some("c1"), Some("c2"), Some("c3")], 1).await;
    assert_eq!(asked.len(), 1);
}
