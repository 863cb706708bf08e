//! The event loop: input, refresh timer, signals and effect results all
//! arrive as `Msg` on one channel; drain what is queued, update, run the
//! effects, draw once. The clock is the loop's own: it ticks every 120 ms
//! only while a spinner is on screen, and otherwise wakes for a toast's end
//! or the next step of relative times. A frame is drawn only when something
//! came in or the clock changed what is shown: idle means asleep.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::time::Instant;

use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::compose::{ComposeEffect, ComposeMsg};
use super::effect::{Effect, Runner};
use super::model::{Model, Toast};
use super::msg::Msg;
use super::msg::index::IndexMsg;
use super::reconnect::Reconnect;
use super::terminal::{TerminalGuard, osc52};
use super::theme::Theme;
use super::update::update;
use super::view::view;

/// Spinner frames while something is loading.
pub const ANIMATION: Duration = Duration::from_millis(120);
/// Relative times ("5m") step by the minute: redrawn this often at most
/// while nothing else happens.
pub const CLOCK: Duration = Duration::from_secs(15);

/// Why the app is ending when it is not the agent's own quit: the first
/// signal that came, or the terminal going away. Shared by the sources
/// that see it and the start-up code that turns it into an exit status.
#[derive(Debug, Clone, Default)]
pub struct Ending(Arc<Mutex<Option<Signalled>>>);

/// A terminating signal: its number (the exit status is 128 + it) and what
/// happened, for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signalled {
    pub number: i32,
    pub why: String,
}

impl Ending {
    /// Records `number` and why, unless an earlier ending was recorded.
    pub fn set(&self, number: i32, why: impl Into<String>) {
        if let Ok(mut slot) = self.0.lock()
            && slot.is_none()
        {
            *slot = Some(Signalled {
                number,
                why: why.into(),
            });
        }
    }

    /// The recorded ending, if any.
    pub fn get(&self) -> Option<Signalled> {
        self.0.lock().ok().and_then(|s| s.clone())
    }
}

/// The tasks feeding the loop, and what they saw of the ending.
pub struct Sources {
    pub tasks: Vec<tokio::task::JoinHandle<()>>,
    pub ending: Ending,
    /// Stops reading the terminal while another program uses it.
    pub input: editor::Input,
}

impl Sources {
    pub fn abort(&self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

/// Feeds terminal events, refreshes and signals into `tx` (the loop keeps
/// its own clock). Input that fails or ends means the terminal hung up:
/// it ends the app as SIGHUP does.
pub fn spawn_sources(tx: &UnboundedSender<Msg>, refresh: Duration) -> Sources {
    let ending = Ending::default();
    let mut tasks = Vec::new();
    let t = tx.clone();
    let end = ending.clone();
    let (input, mut handovers) = editor::Input::new();
    tasks.push(tokio::spawn(async move {
        let why = 'read: loop {
            let mut events = EventStream::new();
            loop {
                let msg = tokio::select! {
                    event = events.next() => match event {
                        Some(Ok(Event::Key(k))) => Msg::Key(k),
                        Some(Ok(Event::Paste(s))) => Msg::Paste(s),
                        Some(Ok(Event::Mouse(m))) => Msg::Mouse(m),
                        Some(Ok(Event::Resize(w, h))) => Msg::Resize(w, h),
                        Some(Ok(Event::FocusGained)) => Msg::Focus(true),
                        Some(Ok(Event::FocusLost)) => Msg::Focus(false),
                        Some(Err(e)) => break 'read format!("terminal input failed: {e}"),
                        None => break 'read "terminal input ended".to_string(),
                    },
                    // Another program takes the terminal: no reading it
                    // (the stream's thread stops with it) until it is back.
                    Some(handover) = handovers.recv() => {
                        drop(events);
                        handover.wait().await;
                        continue 'read;
                    }
                };
                if t.send(msg).is_err() {
                    return;
                }
            }
        };
        tracing::info!("{why}: the terminal hung up");
        super::terminal::hung_up();
        end.set(libc::SIGHUP, format!("SIGHUP (the terminal hung up: {why})"));
        let _ = t.send(Msg::Quit);
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
    let end = ending.clone();
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
            tracing::warn!("cannot listen for signals");
            return;
        };
        let (number, name) = tokio::select! {
            _ = term.recv() => (libc::SIGTERM, "SIGTERM"),
            _ = hup.recv() => (libc::SIGHUP, "SIGHUP"),
            _ = int.recv() => (libc::SIGINT, "SIGINT"),
            _ = quit.recv() => (libc::SIGQUIT, "SIGQUIT"),
        };
        tracing::info!("{name}: quitting");
        end.set(number, name);
        let _ = t.send(Msg::Quit);
    }));
    Sources { tasks, ending, input }
}

/// What the clock alone can change on screen: toasts and the step of
/// relative times. Spinners are tracked by [`Painter::animating`].
#[derive(Debug, Clone, PartialEq)]
pub struct Clocked {
    toasts: Vec<Toast>,
    step: i64,
    /// The status bar's freshness of the index and whether the list is
    /// whole: what a sync pass's report can change on screen.
    freshness: Option<(String, bool)>,
    whole: bool,
    /// Seconds until the index's next try after a rate limit (counted down
    /// in the status bar).
    retry_in: Option<i64>,
    /// `u undo` shows at the end of the toast line.
    undo: bool,
    /// Colleagues' presence (a hub's, run out by the clock).
    colleagues: u64,
}

impl Clocked {
    pub fn of(model: &Model) -> Clocked {
        Clocked {
            toasts: model.status.toasts.clone(),
            step: model.now.timestamp().div_euclid(CLOCK.as_secs() as i64),
            freshness: model
                .sync
                .status
                .as_ref()
                .map(|s| super::view::status::freshness(model, s)),
            whole: model.list.paging.exhausted,
            retry_in: retry_at(model).map(|t| (t - model.now).num_seconds()),
            undo: model.act.undo.offered(model.now).is_some(),
            colleagues: model.colleagues.version,
        }
    }
}

/// When background work may go on after a rate limit, if that is ahead.
fn retry_at(model: &Model) -> Option<DateTime<Utc>> {
    model
        .sync
        .status
        .as_ref()
        .and_then(|s| s.retry_at)
        .filter(|t| *t > model.now)
}

/// Whether a message calls for a frame by itself. The clock does not, and
/// neither does a sync pass's report: it redraws only when it changes what
/// is shown (see [`Clocked`]), or a refresh every few seconds would be a
/// frame for nothing.
pub fn is_news(msg: &Msg) -> bool {
    !matches!(msg, Msg::Tick(_) | Msg::Index(IndexMsg::Status(_)))
}

/// Decides when to wake and whether to draw.
#[derive(Debug, Default)]
pub struct Painter {
    /// The last frame showed a spinner: keep ticking.
    pub animating: bool,
}

impl Painter {
    /// After a batch of messages: a frame is due for input or results
    /// (`news`), a spinner's next glyph, or a clock change on screen.
    pub fn wants_frame(&self, news: bool, before: &Clocked, model: &Model) -> bool {
        news || self.animating || *before != Clocked::of(model)
    }

    /// How long the loop may sleep when nothing comes in.
    pub fn sleep_for(&self, model: &Model, now: DateTime<Utc>) -> Duration {
        if self.animating {
            return ANIMATION;
        }
        let step = CLOCK.as_millis() as i64;
        let mut ms = step - now.timestamp_millis().rem_euclid(step);
        for t in &model.status.toasts {
            ms = ms.min((t.until - now).num_milliseconds().max(0) + 1);
        }
        if let Some(offer) = model.act.undo.offer.filter(|o| o.until > now) {
            ms = ms.min((offer.until - now).num_milliseconds() + 1);
        }
        if retry_at(model).is_some() {
            ms = ms.min(1000 - now.timestamp_subsec_millis() as i64);
        }
        Duration::from_millis(ms.max(1) as u64)
    }
}

/// What the loop runs with besides the model.
pub struct Loop<'a> {
    pub guard: &'a mut TerminalGuard,
    pub runner: &'a mut Runner,
    pub rx: &'a mut UnboundedReceiver<Msg>,
    pub theme: Theme,
    /// Trying to reach the server again (it could not be reached at start).
    pub reconnect: Option<Reconnect>,
    /// The terminal's input, paused while `$EDITOR` has the terminal.
    pub input: editor::Input,
    /// Where the editor's answer goes (the loop's own channel).
    pub tx: UnboundedSender<Msg>,
}

/// Runs until the model asks to quit.
pub async fn run_loop(l: Loop<'_>, model: &mut Model, initial: Vec<Effect>) -> std::io::Result<()> {
    let Loop {
        guard,
        runner,
        rx,
        theme,
        mut reconnect,
        input,
        tx,
    } = l;
    let mut term = Term {
        guard,
        input: &input,
        tx: &tx,
    };
    perform(&mut term, runner, initial).await?;
    if let Some(r) = reconnect.as_mut()
        && r.step(model).is_none()
    {
        reconnect = None;
    }
    let mut painter = Painter::default();
    // The title and what it was computed from (store, seen, Waiting).
    type TitleBasis = (u64, u64, Option<usize>);
    let mut title: Option<(TitleBasis, String)> = None;
    term.guard.terminal.draw(|f| view(model, f, &theme))?;
    painter.animating = model.take_spun();
    loop {
        let mut sleep = painter.sleep_for(model, Utc::now());
        if let Some(r) = &reconnect {
            sleep = sleep.min(r.sleep_for(Utc::now()));
        }
        let wake = Instant::now() + sleep;
        let first = tokio::select! {
            m = rx.recv() => match m {
                Some(m) => m,
                None => break,
            },
            _ = tokio::time::sleep_until(wake) => Msg::Tick(Utc::now()),
        };
        let before = Clocked::of(model);
        let mut news = false;
        let mut effects = Vec::new();
        if !matches!(first, Msg::Tick(_)) {
            // Keys and results see the current time (toasts start now).
            effects.extend(update(model, Msg::Tick(Utc::now())));
        }
        let mut next = Some(first);
        while let Some(msg) = next.take().or_else(|| rx.try_recv().ok()) {
            news |= is_news(&msg);
            effects.extend(update(model, msg));
        }
        if let Some(r) = reconnect.as_mut() {
            match r.step(model) {
                Some(step) => {
                    news |= step.changed;
                    if let Some(msg) = step.due {
                        tracing::info!("trying the server again");
                        effects.extend(update(model, msg));
                    }
                }
                None => {
                    tracing::info!("the server answered");
                    reconnect = None;
                    news = true;
                }
            }
        }
        perform(&mut term, runner, effects).await?;
        if model.quit {
            // The draft written as it quits lands before the exit.
            runner.settle().await;
            break;
        }
        if painter.wants_frame(news, &before, model) {
            term.guard.terminal.draw(|f| view(model, f, &theme))?;
            painter.animating = model.take_spun();
            // Counting the waiting rows is O(loaded): only when they changed.
            let version = (
                model.list.store.version(),
                model.list.store.seen_version(),
                super::title::waiting_view(model),
            );
            if title.as_ref().is_none_or(|(v, _)| *v != version) {
                title = Some((version, super::title::text(model)));
            }
            if let Some((_, text)) = &title {
                term.guard.show_title(text)?;
            }
        }
    }
    Ok(())
}

/// What the loop's own effects need: the terminal, its input, the channel.
struct Term<'a> {
    guard: &'a mut TerminalGuard,
    input: &'a editor::Input,
    tx: &'a UnboundedSender<Msg>,
}

async fn perform(term: &mut Term<'_>, runner: &mut Runner, effects: Vec<Effect>) -> std::io::Result<()> {
    let guard = &mut *term.guard;
    for e in effects {
        match e {
            // The editor needs the terminal: it runs here, not in a task.
            Effect::Compose(ComposeEffect::Editor { contact, text }) => {
                let result = editor::run(guard, term.input, &text).await?;
                let _ = term.tx.send(Msg::Compose(ComposeMsg::Edited { contact, result }));
            }
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
            Effect::Terminal(bytes) => {
                let out = guard.terminal.backend_mut();
                out.write_all(bytes.as_bytes())?;
                out.flush()?;
            }
            Effect::Redraw => guard.terminal.clear()?,
            Effect::ReleaseMemory => release_memory(),
            other => {
                tracing::debug!(effect = effect_name(&other), "spawn");
                runner.spawn(other);
            }
        }
    }
    Ok(())
}

/// Returns the free pages of every glibc malloc arena to the system: the
/// temporaries of reading 100,000 contacts from the index (SQLite's pages,
/// the decoded JSON) leave free pages that glibc keeps otherwise. This gave
/// back 17 MB at 100,000 contacts.
fn release_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointers; it only gives free pages back.
    unsafe {
        libc::malloc_trim(0);
    }
}

fn effect_name(e: &Effect) -> &'static str {
    match e {
        Effect::FetchContacts { .. } => "fetch_contacts",
        Effect::Thread(_) => "thread",
        Effect::Details(e) => e.name(),
        Effect::Apply { .. } => "apply",
        Effect::Runs(_) => "runs",
        Effect::Create { .. } => "create",
        _ => "other",
    }
}

/// Sends the first terminal size in.
pub fn initial_size() -> Msg {
    let (w, h) = crossterm::terminal::size().unwrap_or((80, 24));
    Msg::Resize(w, h)
}

mod editor;

#[cfg(test)]
mod tests;
