//! The event loop: input, clock, refresh timer, signals and effect results
//! all arrive as `Msg` on one channel; drain what is queued, update, run the
//! effects, draw once.

use std::io::Write;
use std::time::Duration;

use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::effect::{Effect, Runner};
use super::model::Model;
use super::msg::Msg;
use super::terminal::{TerminalGuard, osc52};
use super::theme::Theme;
use super::update::update;
use super::view::view;

/// Feeds terminal events, ticks, refreshes and signals into `tx`.
pub fn spawn_sources(tx: &UnboundedSender<Msg>, refresh: Duration) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    let t = tx.clone();
    tasks.push(tokio::spawn(async move {
        let mut events = EventStream::new();
        while let Some(ev) = events.next().await {
            let msg = match ev {
                Ok(Event::Key(k)) => Msg::Key(k),
                Ok(Event::Paste(s)) => Msg::Paste(s),
                Ok(Event::Mouse(m)) => Msg::Mouse(m),
                Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                Ok(_) => continue,
                Err(e) => {
                    tracing::error!("terminal input failed: {e}");
                    break;
                }
            };
            if t.send(msg).is_err() {
                return;
            }
        }
        let _ = t.send(Msg::Quit);
    }));
    let t = tx.clone();
    tasks.push(tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(120));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tick.tick().await;
            if t.send(Msg::Tick(chrono::Utc::now())).is_err() {
                return;
            }
        }
    }));
    let t = tx.clone();
    tasks.push(tokio::spawn(async move {
        let mut every = tokio::time::interval(refresh.max(Duration::from_secs(1)));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        every.tick().await; // the first tick is immediate
        loop {
            every.tick().await;
            if t.send(Msg::RefreshDue).is_err() {
                return;
            }
        }
    }));
    let t = tx.clone();
    tasks.push(tokio::spawn(async move {
        use tokio::signal::unix::{SignalKind, signal};
        // Every terminating signal ends through the normal path, which
        // restores the terminal (raw mode never turns Ctrl-C into SIGINT,
        // but `kill -INT` and `kill -QUIT` still arrive).
        let (Ok(mut term), Ok(mut hup), Ok(mut int), Ok(mut quit)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
            signal(SignalKind::interrupt()),
            signal(SignalKind::quit()),
        ) else {
            return;
        };
        tokio::select! {
            _ = term.recv() => tracing::info!("SIGTERM: quitting"),
            _ = hup.recv() => tracing::info!("SIGHUP: quitting"),
            _ = int.recv() => tracing::info!("SIGINT: quitting"),
            _ = quit.recv() => tracing::info!("SIGQUIT: quitting"),
        }
        let _ = t.send(Msg::Quit);
    }));
    tasks
}

/// Runs until the model asks to quit.
pub async fn run_loop(
    guard: &mut TerminalGuard,
    model: &mut Model,
    runner: &mut Runner,
    rx: &mut UnboundedReceiver<Msg>,
    theme: Theme,
    initial: Vec<Effect>,
) -> std::io::Result<()> {
    perform(guard, runner, initial)?;
    guard.terminal.draw(|f| view(model, f, &theme))?;
    while let Some(first) = rx.recv().await {
        let mut effects = update(model, first);
        while let Ok(msg) = rx.try_recv() {
            effects.extend(update(model, msg));
        }
        perform(guard, runner, effects)?;
        if model.quit {
            break;
        }
        guard.terminal.draw(|f| view(model, f, &theme))?;
        guard.show_title(&super::title::text(model))?;
    }
    Ok(())
}

fn perform(guard: &mut TerminalGuard, runner: &mut Runner, effects: Vec<Effect>) -> std::io::Result<()> {
    for e in effects {
        match e {
            Effect::CopyToClipboard(text) => {
                let out = guard.terminal.backend_mut();
                out.write_all(osc52(&text).as_bytes())?;
                out.flush()?;
            }
            Effect::Bell => {
                let out = guard.terminal.backend_mut();
                out.write_all(b"\x07")?;
                out.flush()?;
            }
            Effect::Redraw => guard.terminal.clear()?,
            other => {
                tracing::debug!(effect = effect_name(&other), "spawn");
                runner.spawn(other);
            }
        }
    }
    Ok(())
}

fn effect_name(e: &Effect) -> &'static str {
    match e {
        Effect::FetchContacts { .. } => "fetch_contacts",
        Effect::FetchThread { .. } => "fetch_thread",
        Effect::FetchContact { .. } => "fetch_contact",
        Effect::FetchBot { .. } => "fetch_bot",
        Effect::SetBot { .. } => "set_bot",
        Effect::Close { .. } => "close",
        Effect::Reopen { .. } => "reopen",
        Effect::Patch { .. } => "patch",
        Effect::Create { .. } => "create",
        Effect::SetUserStatus { .. } => "set_user_status",
        _ => "other",
    }
}

/// Sends the first terminal size in.
pub fn initial_size() -> Msg {
    let (w, h) = crossterm::terminal::size().unwrap_or((80, 24));
    Msg::Resize(w, h)
}
