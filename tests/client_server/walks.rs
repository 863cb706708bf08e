//! Walking GET /contacts past page 500: every contact exactly once, in the
//! order page mode gives, with filters resent on every batch.

use std::collections::HashSet;
use std::time::Duration;

use frontdesk::api::*;
use futures::StreamExt;

use super::*;

/// Pages 1..=n of `filter` by number, concatenated.
async fn by_number(client: &Client, filter: &ContactFilter, pages: std::ops::RangeInclusive<u32>) -> Vec<Contact> {
    let mut out = Vec::new();
    for n in pages {
        let p = client.list_contacts(filter, &PageRequest::Number(n)).await.unwrap();
        assert_eq!(p.meta.page, Some(n));
        out.extend(p.items);
    }
    out
}

/// A contact filter and the test a contact passes when it matches.
type Narrowing = (ContactFilter, Box<dyn Fn(&Contact) -> bool>);

fn ids(list: &[Contact]) -> Vec<&str> {
    list.iter().map(|c| c.uuid.as_str()).collect()
}

#[tokio::test]
async fn cursor_walks_over_10_200_contacts() {
    let env = small(10_200).await;
    let client = &env.client;
    let none = ContactFilter::default();

    // Every batch of the walk, to exhaustion.
    let mut stream = client.walk_contacts(none.clone());
    let (mut all, mut batches, mut last_next) = (Vec::new(), 0usize, Some(String::new()));
    while let Some(page) = stream.next().await {
        let page = page.unwrap();
        assert!(last_next.is_some(), "no batch after a null cursor");
        batches += 1;
        last_next = page.meta.next.clone();
        all.extend(page.items);
    }
    assert_eq!(last_next, None);
    assert_eq!(batches, 510);
    assert_eq!(all.len(), env.srv.manifest.contacts);
    assert_eq!(all.len(), 10_200);
    assert_eq!(
        ids(&all).into_iter().collect::<HashSet<_>>().len(),
        10_200,
        "every contact exactly once"
    );
    // The service sends no activity to check "most recent first" by: the
    // order is checked against page mode's instead.

    // The same order as page mode: the first pages, and the last one allowed.
    assert_eq!(by_number(client, &none, 1..=3).await, all[..60]);
    assert_eq!(by_number(client, &none, 500..=500).await, all[9_980..10_000]);
    // all_contacts agrees with the walk.
    assert_eq!(client.all_contacts(none.clone()).await.unwrap(), all);

    // Filters, resent with every cursor: the walk is the unfiltered walk
    // narrowed, in the same order, and starts like page mode.
    let m = &env.srv.manifest;
    let source = m.sources.iter().find(|s| *s != "messaging_app").unwrap().clone();
    let tag = m.tags[0].clone();
    let team = m.teams[1].uuid.clone();
    let filters: Vec<Narrowing> = vec![
        (
            ContactFilter {
                source: Some(source.clone()),
                ..Default::default()
            },
            Box::new(move |c: &Contact| c.source == source),
        ),
        (
            ContactFilter {
                // Tags match whatever their case.
                tags: vec![tag.to_uppercase()],
                ..Default::default()
            },
            Box::new(move |c: &Contact| c.tags.iter().any(|t| t.eq_ignore_ascii_case(&tag))),
        ),
        (
            ContactFilter {
                team_uuid: Some(team.clone()),
                ..Default::default()
            },
            Box::new(move |c: &Contact| c.team_uuid() == Some(team.as_str())),
        ),
    ];
    for (filter, keep) in &filters {
        let walked = client.all_contacts(filter.clone()).await.unwrap();
        let expected: Vec<&Contact> = all.iter().filter(|c| keep(c)).collect();
        assert!(
            walked.len() > 20 && walked.len() < all.len(),
            "{filter:?}: {}",
            walked.len()
        );
        assert_eq!(walked.iter().collect::<Vec<_>>(), expected, "{filter:?}");
        let first = client.list_contacts(filter, &PageRequest::First).await.unwrap();
        assert_eq!(first.meta.pages, Some(walked.len().div_ceil(20) as u32), "{filter:?}");
        assert_eq!(by_number(client, filter, 1..=2).await, walked[..40], "{filter:?}");
    }

    // Contacts created after a walk began are not in it.
    let mut stream = client.walk_contacts(none.clone());
    let mut seen = stream.next().await.unwrap().unwrap().items;
    let newcomer = client
        .create_contact(&NewContact {
            identifier: "+15557770000".into(),
            source: "messaging_app".into(),
            name: "Late Arrival".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    while let Some(page) = stream.next().await {
        seen.extend(page.unwrap().items);
    }
    assert_eq!(seen.len(), 10_200);
    assert!(!seen.iter().any(|c| c.uuid == newcomer.uuid));
    // A fresh walk starts with it: it is the most recent conversation.
    let fresh = client.list_contacts(&none, &PageRequest::First).await.unwrap();
    assert_eq!(fresh.items[0].uuid, newcomer.uuid);
}

#[tokio::test]
async fn page_limits_and_bad_cursors() {
    let env = small(45).await;
    let none = ContactFilter::default();
    // Page 501 is refused by the client itself: a client aimed at a port
    // nothing listens on gives the same answer, so no request was made.
    let dead = Client::new("http://127.0.0.1:1/v1", "k", Duration::from_secs(2))
        .unwrap()
        .with_retry(fast_retry(1));
    for c in [&env.client, &dead] {
        let e = c.list_contacts(&none, &PageRequest::Number(501)).await.unwrap_err();
        assert_eq!(e, ApiError::Pagination("Pagination limit exceeded".into()));
    }
    assert!(matches!(
        dead.list_contacts(&none, &PageRequest::Number(500)).await,
        Err(ApiError::Transport(_))
    ));
    // Page 500 of a short list is an empty page, not an error.
    let p = env
        .client
        .list_contacts(&none, &PageRequest::Number(500))
        .await
        .unwrap();
    assert!(p.items.is_empty());
    assert_eq!((p.meta.page, p.meta.pages, p.meta.next), (Some(500), Some(3), None));

    for bad in ["garbage", "Zm9vOjE6Mjoz", "fd1:1:2:3"] {
        let e = env
            .client
            .list_contacts(&none, &PageRequest::After(bad.into()))
            .await
            .unwrap_err();
        assert_eq!(e, ApiError::Pagination("Invalid pagination cursor".into()), "{bad}");
    }
    // The last batch of a walk says so.
    let (_, all) = {
        let mut s = env.client.walk_contacts(none.clone());
        let mut n = 0;
        let mut items = Vec::new();
        while let Some(p) = s.next().await {
            n += 1;
            items.extend(p.unwrap().items);
        }
        (n, items)
    };
    assert_eq!(all.len(), 45);
}

/// Issue 12: a contact that gets a message during a cursor walk jumps ahead
/// of the cursor (a plain walk missed 2,344 of 10,000 here). With 8 clients
/// sending messages all through the walk, the complete walk still lists
/// each of the 10,000 contacts exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_complete_walk_under_8_writers_lists_every_contact_once() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    let env = small(10_000).await;
    let none = ContactFilter::default();
    let population: Vec<Contact> = collect_pages(env.client.walk_contacts(none.clone())).await.unwrap();
    assert_eq!(population.len(), 10_000);
    let template = collect_pages(env.client.walk_templates())
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.status.as_str() == "approved")
        .expect("an approved template");
    let population = Arc::new(population);
    let stop = Arc::new(AtomicBool::new(false));
    let sent = Arc::new(AtomicUsize::new(0));
    let mut writers = Vec::new();
    for w in 0..8usize {
        let (client, population, stop, sent) = (env.client.clone(), population.clone(), stop.clone(), sent.clone());
        let template = template.uuid.clone();
        writers.push(tokio::spawn(async move {
            // Bounded: at most 3,000 sends each, ending when the walk ends.
            for i in 0..3_000usize {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                // Spread over the whole list, so contacts the walk has not
                // reached yet move to the top.
                let c = &population[(i * 7_919 + w * 1_237) % population.len()];
                let body = SendMessage::template(c.phone_number.clone(), c.source.clone(), template.clone(), vec![]);
                if client.send_to(c, body).await.is_ok() {
                    sent.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    // Let the writers get going before the walk starts.
    while sent.load(Ordering::Relaxed) < 16 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let before = sent.load(Ordering::Relaxed);
    let walked = collect_pages(env.client.walk_contacts_complete(none)).await.unwrap();
    let during = sent.load(Ordering::Relaxed) - before;
    stop.store(true, Ordering::Relaxed);
    for w in writers {
        w.await.unwrap();
    }
    assert!(during >= 100, "the writers sent only {during} messages during the walk");
    let unique: HashSet<&str> = ids(&walked).into_iter().collect();
    assert_eq!(unique.len(), walked.len(), "no contact twice");
    let expected: HashSet<&str> = ids(&population).into_iter().collect();
    let missing = expected.difference(&unique).count();
    assert_eq!(
        missing, 0,
        "{missing} contacts missing after {during} sends during the walk"
    );
    assert_eq!(walked.len(), 10_000);
}
