//! Terminal setup and restore. Restore runs on quit, on error (the guard's
//! Drop), on panic (the hook, before color-eyre prints) and on SIGTERM,
//! SIGHUP, SIGINT and SIGQUIT (they become `Msg::Quit`, so the normal path
//! restores). Restore also gives back the window title (pushed with
//! XTWINOPS 22 at setup, popped with 23) and turns mouse capture off.
//!
//! After a hang-up (SIGHUP, or the terminal's input closing) the terminal
//! may be gone: every write fails with EIO. Nothing on the way out may then
//! print to it, or a write error would panic (`eprintln!` in ratatui's
//! `Terminal::drop`, the panic hook's report) and the panic in the panic
//! hook would abort the process.

use std::io::{self, Stdout, Write};
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::{
    DisableBracketedPaste, DisableFocusChange, DisableMouseCapture, EnableBracketedPaste, EnableFocusChange,
    EnableMouseCapture,
};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

static ACTIVE: AtomicBool = AtomicBool::new(false);
static TITLE_PUSHED: AtomicBool = AtomicBool::new(false);
static MOUSE_ON: AtomicBool = AtomicBool::new(false);
/// The terminal hung up: nothing more is written to it.
static HUNG_UP: AtomicBool = AtomicBool::new(false);

/// Marks the terminal as gone (SIGHUP, input closed, a write failing with
/// EIO): restore and the panic hook then leave it alone.
pub fn hung_up() {
    HUNG_UP.store(true, Ordering::SeqCst);
}

/// Whether the terminal is known to be gone.
pub fn is_hung_up() -> bool {
    HUNG_UP.load(Ordering::SeqCst)
}

/// Whether an error writing to or reading from the terminal means it is
/// gone (EIO on a tty whose other side closed).
pub fn is_hang_up_error(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::EIO) || e.kind() == io::ErrorKind::BrokenPipe
}

/// Saves the window title on the terminal's title stack (XTWINOPS).
const PUSH_TITLE: &str = "\x1b[22;0t";
/// Restores the saved title.
const POP_TITLE: &str = "\x1b[23;0t";

/// What the app may do to the terminal beyond drawing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Show "frontdesk · account · N waiting" as the window title.
    pub title: bool,
    /// Capture the mouse (clicks and the wheel).
    pub mouse: bool,
}

/// The window title: OSC 2 with the text made inert (no control can end
/// the sequence early).
pub fn title_sequence(text: &str) -> String {
    let clean: String = crate::text::sanitize_line(text)
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    format!("\x1b]2;{clean}\x07")
}

/// Leaves the alternate screen and raw mode. Safe to call twice.
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        if is_hung_up() {
            // No terminal to write to; its modes went with it.
            let _ = disable_raw_mode();
            return;
        }
        let mut out = io::stdout();
        if MOUSE_ON.swap(false, Ordering::SeqCst) {
            let _ = execute!(out, DisableMouseCapture);
        }
        if TITLE_PUSHED.swap(false, Ordering::SeqCst) {
            let _ = out.write_all(POP_TITLE.as_bytes());
        }
        // Leaving the alternate screen is the last thing written.
        let _ = execute!(
            out,
            DisableFocusChange,
            DisableBracketedPaste,
            cursor::Show,
            LeaveAlternateScreen
        );
        let _ = out.flush();
        let _ = disable_raw_mode();
    }
}

/// Restores the terminal when dropped (errors and unwinding panics too).
pub struct TerminalGuard {
    /// Dropped by hand: ratatui's own drop prints to stderr when it cannot
    /// show the cursor, which panics once the terminal is gone.
    pub terminal: ManuallyDrop<Term>,
    options: Options,
    /// The title last written, so an unchanged one is not sent again.
    title: Option<String>,
}

impl TerminalGuard {
    /// Sets the window title to `text` when titles are on and it changed.
    pub fn show_title(&mut self, text: &str) -> io::Result<()> {
        if !self.options.title || self.title.as_deref() == Some(text) {
            return Ok(());
        }
        let out = self.terminal.backend_mut();
        out.write_all(title_sequence(text).as_bytes())?;
        out.flush()?;
        self.title = Some(text.to_string());
        Ok(())
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        // ratatui shows a cursor it hid when it drops; do it first so that
        // leaving the alternate screen stays the last thing written.
        let shown = !is_hung_up() && self.terminal.show_cursor().is_ok();
        if shown {
            // SAFETY: dropped once, here, and never used again.
            unsafe { ManuallyDrop::drop(&mut self.terminal) };
        }
        // Otherwise the terminal is left undropped: its drop would try to
        // show the cursor again and print the failure to a closed stderr.
        restore();
    }
}

/// Raw mode, alternate screen, bracketed paste; installs the panic hook.
pub fn setup() -> io::Result<TerminalGuard> {
    setup_with(Options::default())
}

/// `setup`, plus the title saved for later and mouse capture when asked.
pub fn setup_with(options: Options) -> io::Result<TerminalGuard> {
    install_panic_hook();
    enter(options)?;
    let terminal = match Terminal::new(CrosstermBackend::new(io::stdout())) {
        Ok(t) => t,
        Err(e) => {
            restore();
            return Err(e);
        }
    };
    Ok(TerminalGuard {
        terminal: ManuallyDrop::new(terminal),
        options,
        title: None,
    })
}

/// Raw mode, the alternate screen, bracketed paste, the title saved and
/// the mouse captured as `options` ask; on failure, restored.
fn enter(options: Options) -> io::Result<()> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = io::stdout();
    // Focus reporting: a notification shows when the terminal is not focused.
    if let Err(e) = execute!(
        out,
        EnterAlternateScreen,
        EnableBracketedPaste,
        EnableFocusChange,
        cursor::Hide
    ) {
        restore();
        return Err(e);
    }
    if options.title {
        TITLE_PUSHED.store(true, Ordering::SeqCst);
        if let Err(e) = out.write_all(PUSH_TITLE.as_bytes()).and_then(|()| out.flush()) {
            restore();
            return Err(e);
        }
    }
    if options.mouse {
        MOUSE_ON.store(true, Ordering::SeqCst);
        if let Err(e) = execute!(out, EnableMouseCapture) {
            restore();
            return Err(e);
        }
    }
    Ok(())
}

impl TerminalGuard {
    /// Hands the terminal to another program (`$EDITOR`): as on quit, the
    /// main screen, cooked mode, the cursor shown, the title given back.
    pub fn suspend(&mut self) {
        restore();
    }

    /// Takes the terminal back after [`suspend`](Self::suspend): the modes
    /// of `setup` again, and the next frame drawn whole.
    pub fn resume(&mut self) -> io::Result<()> {
        enter(self.options)?;
        // Written again with the next frame (the title was given back).
        self.title = None;
        // The next frame is drawn whole on a cleared screen. Not
        // `Terminal::clear`: it asks the terminal where its cursor is and
        // waits for the answer, a round trip over a slow link.
        use ratatui::backend::{Backend, ClearType};
        self.terminal.backend_mut().clear_region(ClearType::All)?;
        self.terminal.swap_buffers();
        Ok(())
    }
}

fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            tracing::error!("exit 101: panic: {info}");
            // The report goes to stderr; with the terminal gone that write
            // would panic inside the hook and abort.
            if !is_hung_up() {
                previous(info);
            }
        }));
    });
}

/// OSC 52: asks the terminal to put `text` on the clipboard (works over SSH).
pub fn osc52(text: &str) -> String {
    use base64::Engine;
    format!(
        "\x1b]52;c;{}\x07",
        base64::engine::general_purpose::STANDARD.encode(text)
    )
}

#[cfg(test)]
mod tests;
