//! The terminal app (issue 4). Elm-style: `update` is a pure function of
//! the model and a message that returns effects as data; the runner turns
//! effects into tokio tasks whose results come back as messages.

pub(crate) mod app;
pub(crate) mod demo;
pub mod effect;
pub mod first_run;
#[cfg(any(test, feature = "bench-fixtures"))]
#[doc(hidden)]
pub mod fixtures;
pub(crate) mod form;
pub mod index_worker;
pub mod keymap;
pub(crate) mod local_index;
pub(crate) mod logging;
pub mod model;
pub mod msg;
pub(crate) mod reply;
pub mod terminal;
pub(crate) use crate::text;
pub mod theme;
pub mod title;
pub mod update;
pub mod view;
pub mod zone;

use color_eyre::eyre::eyre;

use crate::api::{Client, ContactFilter, PageRequest};
use crate::config::GlobalArgs;
use model::{Model, Session, ToastKind};
use msg::{ListFetch, Msg};

/// Opens the TUI: the configured account, or the embedded demo server when
/// no key is configured or `demo` is set. Errors before the UI starts come
/// back as one clear line for main to print.
pub async fn run(global: GlobalArgs, demo: bool) -> color_eyre::Result<()> {
    let log = logging::init();
    let log_path = log.as_ref().map(|(_, p)| p.clone());
    let mut settings = crate::config::load(&global).map_err(|e| eyre!("{e}"))?;
    if first_run::applies(&settings, demo)
        && let first_run::Choice::Saved = first_run::run(&settings, &global).await.map_err(|e| eyre!("{e}"))?
    {
        settings = crate::config::load(&global).map_err(|e| eyre!("{e}"))?;
    }
    let demo_mode = demo || settings.api_key.is_none();
    let mut known = model::Known::default();
    let mut me_email = settings.user_email.clone();
    let (client, sync_client, user, account, _server) = if demo_mode {
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
        (client, sync_client, user, "demo account".to_string(), Some(server))
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
            None,
        )
    };
    tracing::info!(demo = demo_mode, account = %account, "starting");
    let local = local_index::open(&settings, demo_mode);
    let cached = local_index::first_rows(&local);
    // With nothing cached, one request before the screen changes: a bad URL
    // or key is one line. With a cached list, the screen comes first.
    let first = if cached.as_ref().is_none_or(|c| c.contacts.is_empty()) {
        Some(
            client
                .list_contacts(&ContactFilter::default(), &PageRequest::First)
                .await
                .map_err(|e| eyre!("{e}"))?,
        )
    } else {
        None
    };

    let now = chrono::Utc::now();
    let session = Session {
        demo: demo_mode,
        account,
        bell: settings.bell,
        tz: Some(zone::Zone::Local),
    };
    let mut model = Model::new(session, user, now);
    model.known = known;
    model.views = model::views::Views::new(settings.views.clone(), me_email.clone());
    model.views.config_path = settings.config_path.clone().or_else(crate::config::default_config_path);
    model.availability.email = me_email;
    for w in &settings.warnings {
        model.status.push(ToastKind::Info, w.clone(), now);
    }
    // One key map for the session: the defaults with the file's [keys].
    let (keys, problems) = keymap::Keymap::resolve(&settings.looks.keys);
    keymap::install(keys);
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
                    result: Ok(first),
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

    let options = terminal::Options {
        title: settings.looks.title,
        mouse: settings.looks.mouse,
    };
    let mut guard = terminal::setup_with(options).map_err(|e| eyre!("cannot set up the terminal: {e}"))?;
    let sources = app::spawn_sources(&tx, settings.refresh_interval);
    let mut runner = effect::Runner::new(client, tx.clone());
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
        };
        runner = runner.with_index(index_worker::spawn(worker, tx));
    }
    let result = app::run_loop(&mut guard, &mut model, &mut runner, &mut rx, theme, effects).await;
    for s in sources {
        s.abort();
    }
    drop(guard);
    tracing::info!("quit");
    result.map_err(|e| eyre!("terminal error: {e}"))
}
