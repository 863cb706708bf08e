//! The loop lends the terminal to `$EDITOR`: the input task stops reading
//! it (crossterm's reader would take the editor's keys), the screen and
//! raw mode go, the editor runs on the draft (`compose::editor`), and the
//! terminal comes back whole, drawn afresh.

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::sync::oneshot;

use crate::tui::compose::editor;
use crate::tui::terminal::TerminalGuard;

/// Asks the input task to stop reading the terminal until it is back.
#[derive(Debug, Clone)]
pub struct Input(UnboundedSender<Handover>);

/// One pause: the input task says it stopped, then waits to be resumed.
pub struct Handover {
    stopped: oneshot::Sender<()>,
    resume: oneshot::Receiver<()>,
}

impl Handover {
    /// In the input task, once it no longer reads: says so and waits until
    /// the terminal is back (or the loop is gone).
    pub async fn wait(self) {
        let _ = self.stopped.send(());
        let _ = self.resume.await;
    }
}

impl Input {
    /// The handle, and what the input task listens on.
    pub fn new() -> (Input, UnboundedReceiver<Handover>) {
        let (tx, rx) = unbounded_channel();
        (Input(tx), rx)
    }

    /// Stops the input task reading and waits until it has; it reads
    /// again when the returned sender is sent or dropped. With no input
    /// task (it ended), there is nothing to stop.
    async fn pause(&self) -> Option<oneshot::Sender<()>> {
        let (stopped, is_stopped) = oneshot::channel();
        let (resume, resumed) = oneshot::channel();
        self.0
            .send(Handover {
                stopped,
                resume: resumed,
            })
            .ok()?;
        is_stopped.await.ok()?;
        Some(resume)
    }
}

/// Runs the editor on `text` with the terminal handed over: its text, or
/// why not (no editor set, it failed). An error taking the terminal back
/// ends the loop as any terminal error does.
pub async fn run(guard: &mut TerminalGuard, input: &Input, text: &str) -> std::io::Result<Result<String, String>> {
    let cmd = match editor::from_env() {
        Ok(cmd) => cmd,
        Err(e) => return Ok(Err(e)),
    };
    let program = cmd.first().map(|p| crate::text::sanitize_line(p)).unwrap_or_default();
    tracing::info!(editor = %program, "editing the reply");
    let reading = input.pause().await;
    guard.suspend();
    let text = text.to_string();
    let result = tokio::task::spawn_blocking(move || editor::edit(&cmd, &text))
        .await
        .unwrap_or_else(|e| Err(format!("the editor stopped: {e}")));
    let back = guard.resume();
    drop(reading);
    back?;
    if let Err(e) = &result {
        tracing::info!("the editor gave nothing back: {e}");
    }
    Ok(result)
}
