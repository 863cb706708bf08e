//! The terminal app (issue 4). Elm-style: `update` is a pure function of
//! the model and a message that returns effects as data; the runner turns
//! effects into tokio tasks whose results come back as messages.

pub mod account;
pub mod act;
pub(crate) mod app;
pub mod compose;
pub(crate) mod demo;
pub mod details;
pub mod effect;
pub mod first_run;
#[cfg(any(test, feature = "bench-fixtures"))]
#[doc(hidden)]
pub mod fixtures;
pub(crate) mod form;
pub mod hub;
pub mod inbox;
mod key_user;
pub use crate::fill as index_worker;
pub mod keymap;
pub(crate) mod local_index;
pub(crate) mod logging;
pub mod model;
pub mod msg;
pub mod notify;
pub mod overlays;
pub mod reconnect;
pub mod reports;
pub mod shared;
pub mod slices;
pub mod snooze;
pub mod terminal;
pub(crate) use crate::text;
pub mod theme;
pub mod thread;
pub mod title;
pub mod update;
pub mod view;
pub mod widgets;
pub mod zone;

use std::io::IsTerminal;
use std::time::Duration;

use color_eyre::eyre::eyre;

use crate::api::{ApiError, Client, ContactFilter, Page, PageRequest};
use crate::config::GlobalArgs;
use model::{Model, Session, ToastKind};
use msg::{ListFetch, Msg};

/// The longest the first screen waits for the server when nothing is
/// cached: after it the screen opens and says the server cannot be reached.
pub const FIRST_SCREEN: Duration = Duration::from_secs(5);

/// How the TUI ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// The agent quit (or left the first-run screen).
    Quit,
    /// A terminating signal, or the terminal hanging up (as SIGHUP).
    Signal(app::Signalled),
}

impl Exit {
    /// The process exit status: 0, or 128 + the signal's number.
    pub fn code(&self) -> u8 {
        match self {
            Exit::Quit => 0,
            Exit::Signal(s) => u8::try_from(128 + s.number).unwrap_or(1),
        }
    }
}

/// Opens the TUI: the configured account, or the embedded demo server when
/// no key is configured or `demo` is set. Errors before the UI starts come
/// back as one clear line for main to print. Every ending (quit, signal,
/// error) is the log's last line, with its exit status.
pub async fn run(global: GlobalArgs, demo: bool) -> color_eyre::Result<Exit> {
    let log = logging::init();
    let log_path = log.as_ref().map(|(_, p)| p.clone());
    let result = run_logged(global, demo, log_path).await;
    match &result {
        Ok(Exit::Quit) => tracing::info!("exit 0: quit"),
        Ok(exit @ Exit::Signal(s)) => tracing::info!("exit {}: {}", exit.code(), s.why),
        Err(e) => tracing::error!("exit 1: {e}"),
    }
    drop(log);
    result
}

async fn run_logged(global: GlobalArgs, demo: bool, log_path: Option<std::path::PathBuf>) -> color_eyre::Result<Exit> {
    let mut settings = crate::config::load(&global).map_err(|e| eyre!("{e}"))?;
    if first_run::applies(&settings, demo) {
        match first_run::run(&settings, &global).await.map_err(|e| eyre!("{e}"))? {
            first_run::Choice::Saved => settings = crate::config::load(&global).map_err(|e| eyre!("{e}"))?,
            first_run::Choice::Demo => {}
            first_run::Choice::Leave => return Ok(Exit::Quit),
        }
    }
    let demo_mode = demo || settings.is_demo();
    let mut known = model::Known::default();
    let mut me_email = settings.user_email.clone();
    let (client, sync_client, mut user, account, base_url, _server) = if demo_mode {
        let server = demo::start(log_path.as_deref(), settings.cache)
            .await
            .map_err(|e| eyre!("{e}"))?;
        let client = Client::new(&server.base_url, &server.api_key, settings.timeout).map_err(|e| eyre!("{e}"))?;
        let sync_client = Client::new(&server.base_url, &server.api_key, settings.timeout).map_err(|e| eyre!("{e}"))?;
        demo::manifest_known(&server, &mut known);
        let user = settings.user_uuid.clone().or(server.user_uuid.clone());
        // The demo's "Me" is a collaborator of the seeded account.
        if user == server.user_uuid {
            me_email = server.user_email.clone();
        }
        let base_url = server.base_url.clone();
        (
            client,
            sync_client,
            user,
            "demo account".to_string(),
            base_url,
            Some(server),
        )
    } else {
        let client = || {
            settings
                .client()
                .map_err(|e| eyre!("{e}"))?
                .ok_or_else(|| eyre!("no API key is configured"))
        };
        (
            client()?,
            client()?,
            settings.user_uuid.clone(),
            settings.profile.clone(),
            // As `frontdesk mcp` keys its drafts: the two meet.
            settings.base_url.clone().unwrap_or_default(),
            None,
        )
    };
    tracing::info!(demo = demo_mode, account = %account, "starting");
    let local = local_index::open(&settings, demo_mode);
    // With no email configured, Mine is the key's user's (GET /auth/me):
    // asked beside the first page, used when no hub says who this agent is.
    let kept = local.index.as_ref().filter(|_| !local.in_memory).and_then(|_| {
        let url = settings.base_url.as_deref()?;
        crate::index::default_path(&settings.profile, url)
    });
    let key_user = key_user::ask(&client, me_email.as_deref(), demo_mode, kept);
    let cached = local_index::first_rows(&local);
    // With nothing cached, one request (at most FIRST_SCREEN) before the
    // screen changes: a bad URL or key is one line. A server that cannot be
    // reached is a screen that says so and keeps trying (on a terminal; off
    // one, one line too). With a cached list, the screen comes first.
    let mut unreachable = None;
    let first = if cached.as_ref().is_none_or(|c| c.contacts.is_empty()) {
        match first_page(&client).await {
            Ok(page) => Some(Ok(page)),
            Err(e) if transient(&e) && on_a_terminal() => {
                tracing::warn!("cannot reach the server at start: {e}");
                unreachable = Some(e.to_string());
                Some(Err(e))
            }
            Err(e) => return Err(eyre!("{e}")),
        }
    } else {
        None
    };

    let now = chrono::Utc::now();
    // The demo server's port changes with every start: its drafts are
    // kept under a fixed key, so they come back and never pile up.
    let drafts_key = if demo_mode { "demo" } else { base_url.as_str() };
    let drafts_dir = crate::drafts::Drafts::for_account(&account, drafts_key).map(|d| d.dir().to_path_buf());
    // A team hub: snoozes are kept there, its snippets join the local
    // ones, and its name for this agent shows its own messages as "you".
    let mut hub_notes: Vec<(ToastKind, String)> = Vec::new();
    let hub = if demo_mode {
        None
    } else {
        settings.hub().map_err(|e| eyre!("{e}"))?
    };
    match key_user {
        Some(ask) if hub.is_none() => me_email = ask.email(first.is_some()).await,
        Some(ask) => ask.drop_it(),
        None => {}
    }
    let (agent, team_snippets) = match &hub {
        None => (None, None),
        Some(hub) => {
            let wait = std::time::Duration::from_secs(5);
            let (me, snippets) = tokio::join!(
                tokio::time::timeout(wait, hub.whoami()),
                tokio::time::timeout(wait, hub.snippets())
            );
            let agent = match me {
                Ok(Ok(me)) => {
                    // The hub knows who this agent is: Mine and "My status"
                    // need no user_email / user_uuid of their own.
                    if me_email.is_none() && !me.email.trim().is_empty() {
                        me_email = Some(me.email.clone());
                    }
                    if user.is_none() {
                        user = me.user_uuid.clone().filter(|u| !u.trim().is_empty());
                    }
                    Some(me.agent)
                }
                Ok(Err(e)) => {
                    hub_notes.push((ToastKind::Info, format!("the hub did not say who you are: {e}")));
                    None
                }
                Err(_) => None,
            };
            let snippets = match snippets {
                Ok(Ok(s)) => Some(s),
                Ok(Err(e)) => {
                    hub_notes.push((ToastKind::Info, format!("the team's snippets were not loaded: {e}")));
                    None
                }
                Err(_) => None,
            };
            (agent, snippets)
        }
    };
    let session = Session {
        demo: demo_mode,
        account,
        base_url,
        drafts_dir,
        history_file: if demo_mode {
            None
        } else {
            crate::triage::history::path().ok()
        },
        bell: settings.bell,
        tz: Some(zone::Zone::Local),
        macros: settings.looks.macros.clone(),
        hub: hub.clone(),
        agent: agent.clone(),
        assign_on_reply: settings.alerts.assign_on_reply(),
    };
    let mut model = Model::new(session, user, now);
    // Its own presence and sends are not a colleague's.
    model.colleagues.me = agent;
    model.known = known;
    model.views = crate::tui::inbox::views::Views::new(settings.views.clone(), me_email.clone());
    model.views.config_path = settings.config_path.clone().or_else(crate::config::default_config_path);
    model.views.thresholds = settings.alerts.thresholds;
    let alerts = &mut model.slices.notify;
    alerts.command = settings.alerts.notify_command.clone();
    alerts.reopen_on_reply = settings.alerts.reopen_on_reply;
    alerts.mux = crate::notify::Mux::detect(|k| std::env::var(k).ok());
    // The notifications' snooze, as the agent left it (not in demo mode).
    if !model.session.demo {
        alerts.kept = crate::notify::quiet::file();
        alerts.quiet = alerts
            .kept
            .as_deref()
            .map(crate::notify::quiet::load)
            .unwrap_or_default()
            .at(now);
    }
    model.details.me.email = me_email;
    for w in &settings.warnings {
        model.status.push(ToastKind::Info, w.clone(), now);
    }
    // The canned replies beside the config file: a broken file is said,
    // and the inbox starts without them.
    let config_path = settings.config_path.clone().or_else(crate::config::default_config_path);
    for (kind, note) in hub_notes {
        model.status.push(kind, crate::text::sanitize_line(&note), now);
    }
    match crate::snippets::load_all(config_path.as_deref(), &settings.looks.snippets) {
        Ok(mut snippets) => {
            if let Some(team) = team_snippets {
                crate::snippets::merge_team(&mut snippets, team);
            }
            for w in &snippets.warnings {
                model.status.push(ToastKind::Info, w.clone(), now);
            }
            model.compose.snippets = snippets;
        }
        Err(e) => {
            tracing::warn!("snippets: {e}");
            model
                .status
                .push(ToastKind::Error, format!("snippets not loaded: {e}"), now);
        }
    }
    // One key map for the session: the defaults with the file's [keys].
    let (keys, problems) = keymap::Keymap::resolve_with(&settings.looks.keys, &settings.looks.macros);
    model.keys = std::sync::Arc::new(keys);
    for p in problems {
        tracing::warn!("{p}");
        model.status.push(ToastKind::Info, p, now);
    }
    let theme = match theme::Theme::load(settings.looks.theme.as_deref(), theme::no_color_env()) {
        Ok(t) => t,
        Err(e) => {
            model
                .status
                .push(ToastKind::Info, format!("{e}; using the default theme"), now);
            theme::Theme::from_env()
        }
    };
    if let Some(w) = &local.warning {
        model.status.push(ToastKind::Info, w.clone(), now);
    }
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut effects = update::update(&mut model, app::initial_size());
    model.sync.status = cached.as_ref().map(|c| c.status.clone());
    match first {
        Some(first) => {
            let id = model.next_id();
            model.list.paging.loading = Some(id);
            let generation = model.list.paging.generation;
            effects.extend(update::update(
                &mut model,
                Msg::ContactsLoaded {
                    id,
                    generation,
                    fetch: ListFetch::Next,
                    result: first,
                },
            ));
        }
        None => {
            if let Some(cached) = cached {
                effects.extend(local_index::show_cached(&mut model, cached));
            }
        }
    }
    effects.extend(update::startup(&mut model));
    let reconnect = unreachable.map(|e| reconnect::Reconnect::new(&host_of(client.base_url()), &e, now));

    let options = terminal::Options {
        title: settings.looks.title,
        mouse: settings.looks.mouse,
    };
    let mut guard = terminal::setup_with(options).map_err(|e| eyre!("cannot set up the terminal: {e}"))?;
    // Asked before the input source reads the terminal.
    let wake = tx.clone();
    let wake: thread::preview::Wake = std::sync::Arc::new(move || {
        let _ = wake.send(Msg::Thread(thread::ThreadMsg::PreviewReady));
    });
    model.thread.previews = thread::Previews::start(settings.looks.image_previews, wake);
    model.thread.hyperlinks = settings.looks.hyperlinks;
    let sources = app::spawn_sources(&tx, settings.refresh_interval);
    let ending = sources.ending.clone();
    let mut runner = effect::Runner::new(client, tx.clone());
    let loop_tx = tx.clone();
    if let Some(index) = local.index {
        let worker = index_worker::Worker {
            client: sync_client.with_retry(crate::api::RetryPolicy {
                max_attempts: 6,
                ..Default::default()
            }),
            index,
            sync_rate: settings.sync_rate,
            full_every: settings.full_sync_interval,
            in_memory: local.in_memory,
            hub: hub.clone(),
        };
        runner = runner.with_index(index_worker::spawn(worker, tx));
    }
    let parts = app::Loop {
        guard: &mut guard,
        runner: &mut runner,
        rx: &mut rx,
        theme,
        reconnect,
        input: sources.input.clone(),
        tx: loop_tx,
    };
    let result = app::run_loop(parts, &mut model, effects).await;
    sources.abort();
    if let Err(e) = &result
        && terminal::is_hang_up_error(e)
    {
        // The terminal went away under a write: the hang-up SIGHUP says.
        terminal::hung_up();
        ending.set(libc::SIGHUP, format!("SIGHUP (the terminal hung up: {e})"));
    }
    drop(guard);
    match (ending.get(), result) {
        (Some(signalled), _) => Ok(Exit::Signal(signalled)),
        (None, Ok(())) => Ok(Exit::Quit),
        (None, Err(e)) => Err(eyre!("terminal error: {e}")),
    }
}

/// The first page of contacts, within [`FIRST_SCREEN`].
async fn first_page(client: &Client) -> Result<Page<crate::api::Contact>, ApiError> {
    let (filter, at) = (ContactFilter::default(), PageRequest::First);
    let request = client.list_contacts(&filter, &at);
    match tokio::time::timeout(FIRST_SCREEN, request).await {
        Ok(result) => result,
        Err(_) => Err(ApiError::Timeout(format!("{} s", FIRST_SCREEN.as_secs()))),
    }
}

/// Failures that may pass by themselves (the network, the server's load):
/// worth a screen that keeps trying. A wrong key or URL is not.
fn transient(e: &ApiError) -> bool {
    matches!(
        e,
        ApiError::Transport(_) | ApiError::Timeout(_) | ApiError::Server { .. } | ApiError::RateLimited { .. }
    )
}

fn on_a_terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// `host:port` of a base URL, for "cannot reach …".
fn host_of(base_url: &str) -> String {
    match url::Url::parse(base_url) {
        Ok(u) => match (u.host_str(), u.port_or_known_default()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_string(),
            _ => base_url.to_string(),
        },
        Err(_) => base_url.to_string(),
    }
}
