//! Undo against the real embedded server (127.0.0.1): close, assign, tags,
//! note, team and bot done through the TUI's keys and effects exactly as
//! the app runs them, then `u`; the API must show each contact exactly as
//! it was before (issue 9, "Undo").

use std::time::Duration;

use crossterm::event::KeyCode;
use frontdesk::api::{Client, Contact, ContactFilter, ContactId};
use frontdesk::server::{ServerConfig, start};
use frontdesk::tui::act::UndoState as State;
use frontdesk::tui::effect::{Effect, Runner};
use frontdesk::tui::fixtures::{code, ctrl, empty_model, key};
use frontdesk::tui::model::Model;
use frontdesk::tui::msg::Msg;
use frontdesk::tui::update::{startup, update};
use tokio::sync::mpsc::UnboundedReceiver;

struct App {
    m: Model,
    rx: UnboundedReceiver<Msg>,
    runner: Runner,
}

impl App {
    /// The app on an empty model, its start-up requests sent.
    fn started(client: &Client) -> App {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let mut app = App {
            m: empty_model(160, 48),
            rx,
            runner: Runner::new(client.clone(), tx),
        };
        for e in startup(&mut app.m) {
            app.runner.spawn(e);
        }
        app
    }

    fn send(&mut self, msg: Msg) {
        let fx: Vec<Effect> = update(&mut self.m, msg);
        for e in fx {
            self.runner.spawn(e);
        }
    }

    fn type_text(&mut self, s: &str) {
        for c in s.chars() {
            self.send(key(c));
        }
    }

    /// Feeds the answers into `update` until `done` holds.
    async fn until(&mut self, what: &str, done: impl Fn(&Model) -> bool) {
        while !done(&self.m) {
            let msg = tokio::time::timeout(Duration::from_secs(30), self.rx.recv())
                .await
                .unwrap_or_else(|_| panic!("{what} within 30 s"))
                .expect("channel open");
            self.send(msg);
        }
    }

    /// Selects the row of `uuid` and waits for its thread, details and bot.
    async fn select(&mut self, uuid: &str) {
        self.send(key('g'));
        let row = self.m.list.row_of(uuid).expect("loaded");
        for _ in 0..row {
            self.send(key('j'));
        }
        let want = uuid.to_string();
        self.until("the contact's panes", move |m| {
            m.thread.contact.as_deref() == Some(want.as_str())
                && m.details.loading.is_none()
                && m.details.bot.loading.is_none()
        })
        .await;
    }

    /// Waits for the newest action to be recorded, then `u` and waits for
    /// its undo to end.
    async fn action_then_undo(&mut self, entries: usize, what: &str) {
        self.until(what, move |m| {
            m.act.undo.entries.len() == entries && m.list.pending.is_empty()
        })
        .await;
        let id = self.m.act.undo.entries[0].id;
        assert!(
            matches!(self.m.act.undo.state(id, &self.m.list), Some(State::Undoable(1))),
            "{what}: {:?} ({:?})",
            self.m.act.undo.state(id, &self.m.list),
            self.m.status.current()
        );
        self.send(key('u'));
        assert!(self.m.act.bulk.is_some(), "{what}: u starts the undo");
        self.until("the undo", |m| m.act.bulk.is_none()).await;
        assert_eq!(self.m.act.undo.state(id, &self.m.list), Some(State::Undone), "{what}");
    }
}

async fn get(client: &Client, uuid: &str) -> Contact {
    client
        .get_contact(&ContactId::from(uuid), false)
        .await
        .expect("contact")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_action_undone_through_the_tui_restores_the_contact_exactly() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = ServerConfig {
        contacts: 40,
        ..Default::default()
    };
    let srv = start(listener, config).await.expect("server starts");
    let client = Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10)).unwrap();
    let all = client.all_contacts(ContactFilter::default()).await.unwrap();

    let mut app = App::started(&client);
    app.until("the list and the teams", |m| {
        m.list.store.len() == all.len() && m.list.paging.loading.is_none() && m.known.teams.len() >= 2
    })
    .await;

    // Close an open conversation, then u.
    let open = all.iter().find(|c| c.is_open()).expect("an open contact");
    let before = get(&client, &open.uuid).await;
    app.select(&open.uuid).await;
    app.send(key('c'));
    app.action_then_undo(1, "close").await;
    assert!(
        app.m.act.undo.entries[0].items[0].after.closed_at.is_some(),
        "it was closed"
    );
    assert_eq!(get(&client, &open.uuid).await, before, "close undone");

    // Assign someone else, then u.
    let c = &all[1];
    let before = get(&client, &c.uuid).await;
    let other = ["bea@frontdesk.example", "farah@frontdesk.example"]
        .into_iter()
        .find(|e| before.assigned_user.as_deref() != Some(*e))
        .unwrap();
    app.select(&c.uuid).await;
    app.send(key('a'));
    app.type_text(other);
    app.send(ctrl('s'));
    app.action_then_undo(2, "assign").await;
    assert_ne!(
        app.m.act.undo.entries[0].items[0].after.assigned_user,
        before.assigned_user
    );
    assert_eq!(get(&client, &c.uuid).await, before, "assign undone");

    // Add a tag through the tags form (it replaces the list), then u.
    let c = all
        .iter()
        .find(|c| !c.tags.iter().any(|t| t == "beta") && !c.tags.is_empty())
        .expect("a tagged contact without beta");
    let before = get(&client, &c.uuid).await;
    app.select(&c.uuid).await;
    app.send(key('t'));
    app.type_text("beta");
    app.send(code(KeyCode::Enter));
    app.send(ctrl('s'));
    app.action_then_undo(3, "tags").await;
    assert!(
        app.m.act.undo.entries[0].items[0]
            .after
            .tags
            .contains(&"beta".to_string())
    );
    assert_eq!(get(&client, &c.uuid).await, before, "tags undone");

    // Write a note, then u.
    let c = &all[3];
    let before = get(&client, &c.uuid).await;
    app.select(&c.uuid).await;
    app.send(key('n'));
    app.type_text(" call back at 5");
    app.send(ctrl('s'));
    app.action_then_undo(4, "note").await;
    assert_ne!(app.m.act.undo.entries[0].items[0].after.note, before.note);
    assert_eq!(get(&client, &c.uuid).await, before, "note undone");

    // Move a contact that has a team to another team, then u.
    let c = all
        .iter()
        .find(|c| c.team_uuid().is_some())
        .expect("a contact in a team");
    let before = get(&client, &c.uuid).await;
    let team = app
        .m
        .known
        .teams
        .iter()
        .find(|(u, _)| Some(u.as_str()) != before.team_uuid())
        .map(|(_, name)| name.clone())
        .unwrap();
    app.select(&c.uuid).await;
    app.send(key('T'));
    app.type_text(&team);
    app.send(ctrl('s'));
    app.action_then_undo(5, "team").await;
    assert_ne!(app.m.act.undo.entries[0].items[0].after.team_uuid(), before.team_uuid());
    assert_eq!(get(&client, &c.uuid).await, before, "team undone");

    // Stop (or start) a bot, then u.
    let mut chosen = None;
    for c in &all {
        let bot = client.get_bot(&ContactId::from(c.uuid.as_str())).await.expect("bot");
        if matches!(
            bot.status,
            frontdesk::api::BotStatus::Started | frontdesk::api::BotStatus::Ended
        ) {
            chosen = Some((c.uuid.clone(), bot));
            break;
        }
    }
    let (uuid, bot_before) = chosen.expect("a contact whose bot started or ended");
    let before = get(&client, &uuid).await;
    app.select(&uuid).await;
    app.send(key('b'));
    app.action_then_undo(6, "bot").await;
    let stopped = bot_before.status == frontdesk::api::BotStatus::Started;
    assert_eq!(
        app.m.act.undo.entries[0].items[0].bot_after,
        Some(!stopped),
        "it was toggled"
    );
    let panel = app.m.details.bot.bot.as_ref().expect("the bot panel");
    assert_eq!(panel.is_running(), stopped, "the panel shows the state put back");
    let bot_after = client.get_bot(&ContactId::from(uuid.as_str())).await.expect("bot");
    assert_eq!(bot_after.status, bot_before.status, "bot undone");
    assert_eq!(
        get(&client, &uuid).await,
        before,
        "the bot's undo left the contact alone"
    );

    // Every other contact is as it was.
    let now = client.all_contacts(ContactFilter::default()).await.unwrap();
    let key = |c: &Contact| c.uuid.clone();
    let mut a: Vec<Contact> = all.clone();
    let mut b: Vec<Contact> = now;
    a.sort_by_key(key);
    b.sort_by_key(key);
    assert_eq!(a, b, "the account is as it was");
}

/// `get` that tries again after the server's simulated failures.
async fn get_retrying(client: &Client, uuid: &str) -> Contact {
    for _ in 0..50 {
        if let Ok(c) = client.get_contact(&ContactId::from(uuid), false).await {
            return c;
        }
    }
    panic!("no answer for {uuid} in 50 tries");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_one_request_in_five_failing_undo_still_restores_every_note() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = ServerConfig {
        contacts: 12,
        fail_rate: 0.2,
        ..Default::default()
    };
    let srv = start(listener, config).await.expect("server starts");
    let client = Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10)).unwrap();
    let mut uuids = Vec::new();
    let mut before = Vec::new();
    let all = loop {
        if let Ok(all) = client.all_contacts(ContactFilter::default()).await {
            break all;
        }
    };
    for c in all.iter().take(6) {
        uuids.push(c.uuid.clone());
        before.push(get_retrying(&client, &c.uuid).await);
    }

    let mut app = App::started(&client);
    app.until("the list", |m| {
        m.list.store.len() == all.len() && m.list.paging.loading.is_none()
    })
    .await;

    // A note on each, saved again from the form after a failure.
    for (i, uuid) in uuids.iter().enumerate() {
        app.select(uuid).await;
        app.send(key('n'));
        app.type_text(" (undo me)");
        let mut tries = 0;
        while app.m.act.undo.entries.len() == i {
            tries += 1;
            assert!(tries < 50, "the note saves in 50 tries");
            app.send(ctrl('s'));
            app.until("the save", |m| m.list.pending.is_empty()).await;
        }
    }
    assert_eq!(app.m.act.undo.entries.len(), uuids.len());

    // Undo each from the history; what failed is sent again with Enter.
    app.send(key('U'));
    for row in 0..uuids.len() {
        if row > 0 {
            app.send(key('j'));
        }
        let id = app.m.act.undo.entries[row].id;
        let mut tries = 0;
        while app.m.act.undo.state(id, &app.m.list) != Some(State::Undone) {
            tries += 1;
            assert!(tries < 50, "the undo goes through in 50 tries");
            app.send(code(KeyCode::Enter));
            app.until("the undo", |m| m.act.bulk.is_none()).await;
        }
    }
    for (uuid, was) in uuids.iter().zip(&before) {
        assert_eq!(&get_retrying(&client, uuid).await, was, "restored exactly");
    }
}

/// A client that tries each request `attempts` times.
fn client_trying(base_url: &str, api_key: &str, attempts: u32) -> Client {
    Client::new(base_url, api_key, Duration::from_secs(10))
        .unwrap()
        .with_retry(frontdesk::api::RetryPolicy {
            max_attempts: attempts,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(20),
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_close_on_every_marked_contact_is_undone_exactly_despite_failures() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = ServerConfig {
        contacts: 60,
        seed: 11,
        fail_rate: 0.2,
        ..Default::default()
    };
    let srv = start(listener, config).await.expect("server starts");
    let sure = client_trying(&srv.base_url, &srv.api_key, 30);
    let all = sure.all_contacts(ContactFilter::default()).await.unwrap();
    assert!(all.iter().any(|c| !c.is_open()), "some were closed before");

    // The list as the app loads it; every request of the agent's is tried
    // once, so failures reach the agent.
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let mut app = App {
        m: empty_model(160, 48),
        rx,
        runner: Runner::new(client_trying(&srv.base_url, &srv.api_key, 1), tx),
    };
    let id = app.m.next_id();
    app.m.list.paging.loading = Some(id);
    let generation = app.m.list.paging.generation;
    app.send(Msg::ContactsLoaded {
        id,
        generation,
        fetch: frontdesk::tui::msg::ListFetch::Next,
        result: Ok(frontdesk::tui::fixtures::page(all.clone(), None)),
    });
    assert_eq!(app.m.list.visible_len(), all.len());

    app.send(key('*'));
    app.send(key('c'));
    if matches!(app.m.overlay, Some(frontdesk::tui::model::Overlay::Confirm(_))) {
        app.send(key('y'));
    }
    assert!(app.m.act.bulk.is_some(), "the close runs");
    app.until("the close", |m| m.act.bulk.is_none()).await;
    let entry = app.m.act.undo.entries[0].clone();
    let closed = sure.all_contacts(ContactFilter::default()).await.unwrap();
    let now_closed = closed.iter().filter(|c| !c.is_open()).count();
    assert!(
        now_closed > all.iter().filter(|c| !c.is_open()).count(),
        "it closed some"
    );

    // u at once (over the run's summary), then the history's Enter until
    // every undo went through.
    app.send(key('u'));
    assert!(app.m.act.bulk.is_some(), "u starts the undo");
    app.until("the undo", |m| m.act.bulk.is_none()).await;
    let mut tries = 0;
    while app.m.act.undo.state(entry.id, &app.m.list) != Some(State::Undone) {
        tries += 1;
        assert!(tries < 30, "the undo goes through in 30 tries");
        app.send(key('U'));
        app.send(code(KeyCode::Enter));
        app.until("the undo", |m| m.act.bulk.is_none()).await;
        app.send(code(KeyCode::Esc));
    }
    eprintln!(
        "the close went through on {} of {}; the undo took {} more pass(es) after u",
        entry.items.len(),
        all.len(),
        tries
    );
    let mut after = sure.all_contacts(ContactFilter::default()).await.unwrap();
    let mut before = all;
    before.sort_by(|a, b| a.uuid.cmp(&b.uuid));
    after.sort_by(|a, b| a.uuid.cmp(&b.uuid));
    assert_eq!(after, before, "the account is exactly as before the close");
}

/// Issue 21: "Undo overwrote a colleague's newer edit: it checks only the
/// local row." An assign on every contact, then a colleague reassigns one
/// of them (the TUI's list does not know yet), then `u`: every other
/// contact is as it was, the colleague's edit stands, and the agent is
/// told which field was left and what it holds now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_after_a_colleagues_edit_keeps_their_edit_and_names_it() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = ServerConfig {
        contacts: 12,
        seed: 5,
        ..Default::default()
    };
    let srv = start(listener, config).await.expect("server starts");
    let client = Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10)).unwrap();
    let colleague = Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10)).unwrap();
    let all = client.all_contacts(ContactFilter::default()).await.unwrap();

    let mut app = App::started(&client);
    app.until("the list", |m| {
        m.list.store.len() == all.len() && m.list.paging.loading.is_none() && !m.known.collaborators.is_empty()
    })
    .await;
    let mine = "bea@frontdesk.example";
    app.send(key('*'));
    app.send(key('a'));
    app.type_text(mine);
    app.send(ctrl('s'));
    if matches!(app.m.overlay, Some(frontdesk::tui::model::Overlay::Confirm(_))) {
        app.send(key('y'));
    }
    assert!(
        app.m.act.bulk.is_some(),
        "the assign runs: {:?}",
        app.m.status.current()
    );
    app.until("the assign", |m| m.act.bulk.is_none()).await;
    let entry = app.m.act.undo.entries[0].clone();
    assert!(entry.items.len() >= 2, "it changed several: {}", entry.items.len());

    // The colleague reassigns one of them; the TUI's row still says bea.
    let theirs = entry.items[0].uuid.clone();
    let farah = "farah@frontdesk.example";
    colleague
        .update_contact(
            &ContactId::from(theirs.as_str()),
            &frontdesk::api::ContactPatch {
                assigned_user: Some(farah.into()),
                ..Default::default()
            },
        )
        .await
        .expect("the colleague's edit");
    assert_eq!(
        app.m.list.contact(&theirs).unwrap().assigned_user.as_deref(),
        Some(mine),
        "the list has not seen it"
    );

    app.send(key('u'));
    assert!(
        app.m.act.bulk.is_some(),
        "u starts the undo: {:?}",
        app.m.status.current()
    );
    app.until("the undo", |m| m.act.bulk.is_none()).await;

    // The service: the colleague's edit stands, every other is as before.
    assert_eq!(get(&client, &theirs).await.assigned_user.as_deref(), Some(farah));
    for c in all.iter().filter(|c| c.uuid != theirs) {
        assert_eq!(get(&client, &c.uuid).await, *c, "{} is as before", c.name);
    }
    // The agent is told: the toast counts it, the summary names the field.
    let said: Vec<String> = app.m.status.toasts.iter().map(|t| t.text.clone()).collect();
    assert!(said.iter().any(|t| t.contains("1 left as changed since")), "{said:?}");
    let Some(frontdesk::tui::model::Overlay::Summary(s)) = &app.m.overlay else {
        panic!("a summary: {:?}", app.m.overlay);
    };
    let lines = s.failures.join("\n");
    assert!(
        lines.contains(&format!("assignee is now {farah} (the run left {mine})")),
        "{lines}"
    );
    // And it is not offered again: the colleague's edit is theirs.
    let item = &app.m.act.undo.get(entry.id).unwrap().items[0];
    assert!(!item.conflicts.is_empty() && !item.undone);
}

/// Issue 24: an assistant's write (`frontdesk mcp --allow-writes`) is in
/// the run history; the TUI's history (`U`) shows it, attributed to the
/// assistant, and Enter takes it back on the service; the file then says
/// it was undone, so neither the CLI nor the TUI offers it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assistants_write_shows_in_the_history_and_is_undone_from_the_tui() {
    use frontdesk::triage::bulk::Action;
    use frontdesk::triage::history::{self, Record};

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = ServerConfig {
        contacts: 8,
        seed: 9,
        ..Default::default()
    };
    let srv = start(listener, config).await.expect("server starts");
    let client = Client::new(&srv.base_url, &srv.api_key, Duration::from_secs(10)).unwrap();
    let all = client.all_contacts(ContactFilter::default()).await.unwrap();
    let target = all.iter().find(|c| c.is_open()).expect("an open one").clone();

    let mut app = App::started(&client);
    app.until("the list", |m| {
        m.list.store.len() == all.len() && m.list.paging.loading.is_none()
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.jsonl");
    app.m.session.history_file = Some(file.clone());
    let (base_url, profile) = (app.m.session.base_url.clone(), app.m.session.account.clone());

    // The assistant closes it, as `frontdesk mcp` does: through
    // write_one, recorded as done by "assistant".
    let done = frontdesk::triage::write::write_one(&client, &target.uuid, &target.name, &Action::Close, None).await;
    assert!(done.after().is_some_and(|c| !c.is_open()));
    let record = Record {
        id: "20261126-120000.000-mcp".into(),
        at: chrono::Utc::now(),
        base_url: base_url.clone(),
        profile: profile.clone(),
        action: Action::Close,
        what: "by assistant (frontdesk mcp)".into(),
        total: 1,
        interrupted: false,
        undo_of: None,
        contacts: vec![history::entry(&done)],
    };
    history::write_to(&file, &record).unwrap();

    app.send(key('U'));
    app.until("the run history", |m| !m.act.undo.entries.is_empty()).await;
    let e = app.m.act.undo.entries[0].clone();
    assert_eq!(e.run.as_deref(), Some(record.id.as_str()));
    assert!(e.what.contains("by assistant"), "{}", e.what);
    assert!(e.what.contains(&target.name), "{}", e.what);
    assert_eq!(app.m.act.undo.state(e.id, &app.m.list), Some(State::Undoable(1)));

    app.send(code(KeyCode::Enter));
    assert!(app.m.act.bulk.is_some(), "Enter starts the undo");
    app.until("the undo and its record", |m| {
        m.act.bulk.is_none() && history::load_from(&file, &base_url, &profile).unwrap().len() == 2
    })
    .await;
    assert_eq!(
        get(&client, &target.uuid).await,
        target,
        "the assistant's close is undone"
    );
    let records = history::load_from(&file, &base_url, &profile).unwrap();
    assert_eq!(records[1].undo_of.as_deref(), Some(record.id.as_str()));
    assert_eq!(history::undone_by(&records, &record).map(|r| r.contacts.len()), Some(1));

    // Opened again (or by the next TUI): it shows as undone, once.
    app.send(code(KeyCode::Esc));
    let mut again = App::started(&client);
    again.m.session.history_file = Some(file.clone());
    again.send(key('U'));
    again.until("the run history", |m| !m.act.undo.entries.is_empty()).await;
    assert_eq!(again.m.act.undo.entries.len(), 1);
    let id = again.m.act.undo.entries[0].id;
    assert_eq!(again.m.act.undo.state(id, &again.m.list), Some(State::Undone));
}
