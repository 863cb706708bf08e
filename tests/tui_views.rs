//! The tabs' counts against the real embedded server (127.0.0.1): the
//! index worker fills the TUI's model exactly as the app runs them, and
//! each view's count must equal what an independent walk of the API
//! computes; another client's close changes the counts on the next pass.

use std::collections::HashMap;
use std::time::Duration;

use frontdesk::api::{Client, Contact, ContactFilter, ContactId, PageRequest};
use frontdesk::index::{Index, SharedIndex};
use frontdesk::server::ServerConfig;
use frontdesk::tui::effect::Effect;
use frontdesk::tui::fixtures::empty_model;
use frontdesk::tui::inbox::views::Views;
use frontdesk::tui::index_worker::{self, IndexCmd, IndexLink, Worker};
use frontdesk::tui::model::Model;
use frontdesk::tui::msg::Msg;
use frontdesk::tui::msg::index::SyncStatus;
use frontdesk::tui::update::update;
use tokio::sync::mpsc::UnboundedReceiver;

mod common;

/// Every contact, by walking the API.
async fn walk(client: &Client) -> Vec<Contact> {
    let mut all = Vec::new();
    let mut at = PageRequest::First;
    loop {
        let page = client.list_contacts(&ContactFilter::default(), &at).await.unwrap();
        all.extend(page.items);
        match page.meta.next {
            Some(next) => at = PageRequest::After(next),
            None => return all,
        }
    }
}

/// The counts of Mine, Unassigned, Waiting, Open and All, computed from
/// the API alone: a contact waits when a customer message came after the
/// last reply by a person (`common::customer_waits`).
async fn independent(client: &Client, me: &str) -> [usize; 5] {
    let contacts = walk(client).await;
    let mut n = [0usize; 5];
    for c in &contacts {
        n[4] += 1;
        if c.closed_at.is_some() {
            continue;
        }
        n[3] += 1;
        match c.assigned_user.as_deref().filter(|a| !a.is_empty()) {
            Some(a) if a.eq_ignore_ascii_case(me) => n[0] += 1,
            None => n[1] += 1,
            Some(_) => {}
        }
        let page = client
            .list_messages(&ContactId::from(c.uuid.as_str()), &PageRequest::First)
            .await
            .unwrap();
        // README "Who is waiting": the rule written out independently.
        let page = serde_json::json!({ "messages": page.items });
        if common::customer_waits(&page) {
            n[2] += 1;
        }
    }
    n
}

/// Feeds the worker's messages into the model (and the model's index work
/// back to the worker) until `done`, at most a minute.
async fn drive(m: &mut Model, rx: &mut UnboundedReceiver<Msg>, link: &IndexLink, done: impl Fn(&Model) -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !done(m) {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .unwrap_or_else(|_| panic!("the counts never settled: {:?}", m.views.counts))
            .expect("the worker is running");
        for e in update(m, msg) {
            if let Effect::Index(cmd) = e {
                link.cmds.send(cmd).unwrap();
            }
        }
    }
}

fn counts(m: &Model) -> [usize; 5] {
    let c = &m.views.counts;
    [c[0].n, c[1].n, c[2].n, c[3].n, c[4].n]
}

fn exact(m: &Model) -> bool {
    m.views.counts.iter().all(|c| !c.at_least) && m.views.counts[4].n > 0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_views_count_is_what_a_walk_of_the_server_computes() {
    let server = common::spawn(ServerConfig {
        contacts: 90,
        activity: false,
        ..Default::default()
    })
    .await;
    let client = Client::new(&server.base_url, &server.api_key, Duration::from_secs(10)).unwrap();
    // "Me": the collaborator most contacts are assigned to.
    let mut by: HashMap<String, usize> = HashMap::new();
    for c in walk(&client).await {
        if let Some(a) = c.assigned_user.filter(|a| !a.is_empty()) {
            *by.entry(a).or_default() += 1;
        }
    }
    let me = by.into_iter().max_by_key(|(_, n)| *n).unwrap().0;

    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let link = index_worker::spawn(
        Worker {
            client: client.clone(),
            index: SharedIndex::new(Index::in_memory().unwrap()),
            sync_rate: 0.0,
            full_every: Duration::from_secs(1800),
            hub: None,
            in_memory: true,
        },
        tx,
    );
    let mut m = empty_model(160, 48);
    m.sync.status = Some(SyncStatus::default());
    m.views = Views::new(Vec::new(), Some(me.clone()));
    assert_eq!(m.views.current().name, "Mine");

    drive(&mut m, &mut rx, &link, exact).await;
    assert!(
        counts(&m).iter().all(|&n| n > 0),
        "every view has some: {:?}",
        counts(&m)
    );
    assert_eq!(counts(&m), independent(&client, &me).await);
    // The list shows Mine: the open conversations assigned to me.
    let shown = m.list.visible_len();
    assert_eq!(shown, counts(&m)[0]);
    for r in 0..shown {
        let row = m.list.row(r).unwrap();
        assert!(row.is_open() && row.assigned_user.as_deref() == Some(me.as_str()));
    }

    // Another client closes one of mine: the next pass takes it out.
    let before = counts(&m);
    let target = m.list.row(0).unwrap().uuid.to_string();
    client
        .close_conversation(&ContactId::from(target.as_str()))
        .await
        .unwrap();
    link.cmds.send(IndexCmd::Incremental).unwrap();
    drive(&mut m, &mut rx, &link, |m| counts(m)[0] == before[0] - 1).await;
    assert_eq!(counts(&m), independent(&client, &me).await);
    // The row being read stays under the cursor, marked as moved, until
    // the agent moves (issue 36); any other row left at once.
    let kept = m.views.moved.as_ref().map(|(uuid, _)| uuid.to_string());
    let first = m.list.row(0).map(|r| r.uuid.to_string());
    assert!(
        first.as_deref() != Some(target.as_str()) || kept.as_deref() == Some(target.as_str()),
        "the closed one is gone or kept as moved: {kept:?}"
    );
    server.stop().await;
}
