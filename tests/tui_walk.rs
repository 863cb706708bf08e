//! The TUI's walk of the contact list against the real embedded server
//! (127.0.0.1), driven through `update` and the list's walk effect exactly
//! as the app runs them: contacts that get a message during the walk jump
//! ahead of its cursor, and the walk must still end with every contact
//! exactly once (issue 12).

use std::collections::HashSet;
use std::time::Duration;

use frontdesk::api::{Client, ContactFilter, SendMessage};
use frontdesk::server::{ServerConfig, start};
use frontdesk::tui::effect::Effect;
use frontdesk::tui::effect::list_walk::{self, Walk};
use frontdesk::tui::fixtures::{empty_model, key};
use frontdesk::tui::model::Model;
use frontdesk::tui::msg::Msg;
use frontdesk::tui::update::{startup, update};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

mod common;

/// Spawns the list walks among `fx`, as the effect runner does.
fn run(fx: Vec<Effect>, client: &Client, tx: &UnboundedSender<Msg>) {
    for e in fx {
        if let Effect::FetchContacts {
            id,
            generation,
            fetch,
            filter,
            at,
            pages,
        } = e
        {
            let walk = Walk {
                id,
                generation,
                fetch,
                filter,
                at,
                pages,
            };
            tokio::spawn(list_walk::run(client.clone(), tx.clone(), walk));
        }
    }
}

/// Feeds results into `update` until `done` holds.
async fn until(
    m: &mut Model,
    rx: &mut UnboundedReceiver<Msg>,
    client: &Client,
    tx: &UnboundedSender<Msg>,
    done: impl Fn(&Model) -> bool,
) {
    while !done(m) {
        assert!(m.list.error.is_none(), "{:?}", m.list.error);
        let msg = tokio::time::timeout(Duration::from_secs(30), rx.recv())
            .await
            .expect("a page within 30 s")
            .expect("channel open");
        let fx = update(m, msg);
        run(fx, client, tx);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contacts_messaged_during_the_walk_are_loaded_once_each() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = ServerConfig {
        contacts: 600,
        ..Default::default()
    };
    let srv = start(listener, config).await.expect("server starts");
    let client = Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10)).unwrap();
    let before = client.all_contacts(ContactFilter::default()).await.unwrap();
    let want: HashSet<String> = before.iter().map(|c| c.uuid.clone()).collect();
    let template = common::approved_template(&client).await;

    let mut m = empty_model(160, 48);
    let (tx, mut rx) = unbounded_channel();
    run(startup(&mut m), &client, &tx);
    until(&mut m, &mut rx, &client, &tx, |m| {
        !m.list.store.is_empty() && m.list.paging.loading.is_none()
    })
    .await;
    let first = m.list.store.len();
    assert!(first < before.len(), "the walk has only begun");
    // Customers near the end of the list write now: the server re-sorts
    // them to the top, behind the walk's cursor.
    let moved: Vec<_> = before.iter().rev().take(15).collect();
    for c in &moved {
        let send = SendMessage::template(c.phone_number.clone(), "messaging_app", template.uuid.clone(), vec![]);
        client.send_to(c, send).await.expect("template sent");
    }
    run(update(&mut m, key('G')), &client, &tx);
    until(&mut m, &mut rx, &client, &tx, |m| {
        m.list.paging.exhausted && m.list.paging.loading.is_none()
    })
    .await;
    let got: Vec<String> = m.list.store.iter().map(|r| r.uuid.to_string()).collect();
    let set: HashSet<String> = got.iter().cloned().collect();
    assert_eq!(got.len(), set.len(), "no contact twice");
    let missing: Vec<_> = want.difference(&set).collect();
    assert!(missing.is_empty(), "{} of {} missing", missing.len(), want.len());
    for c in &moved {
        assert!(
            m.list.store.position(&c.uuid).is_some_and(|i| i < 20),
            "a contact that wrote is on top"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_walk_reaches_the_end_of_a_server_that_pages_by_number_only() {
    // The documentation's GET /contacts: `page` only, no `meta`.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = ServerConfig {
        contacts: 90,
        paging: frontdesk::server::Paging::Docs,
        ..Default::default()
    };
    let srv = start(listener, config).await.expect("server starts");
    let client = Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10)).unwrap();
    let mut m = empty_model(160, 48);
    let (tx, mut rx) = unbounded_channel();
    run(startup(&mut m), &client, &tx);
    until(&mut m, &mut rx, &client, &tx, |m| {
        !m.list.store.is_empty() && m.list.paging.loading.is_none()
    })
    .await;
    assert!(m.list.store.len() < 90, "the walk has only begun");
    run(update(&mut m, key('G')), &client, &tx);
    until(&mut m, &mut rx, &client, &tx, |m| {
        m.list.paging.exhausted && m.list.paging.loading.is_none()
    })
    .await;
    let got: Vec<String> = m.list.store.iter().map(|r| r.uuid.to_string()).collect();
    let set: HashSet<String> = got.iter().cloned().collect();
    assert_eq!(got.len(), set.len(), "no contact twice");
    assert_eq!(set.len(), 90, "every contact, past page 1");
}
