//! Terminal setup and restore. Restore runs on quit, on error (the guard's
//! Drop), on panic (the hook, before color-eyre prints) and on SIGTERM and
//! SIGHUP (they become `Msg::Quit`, so the normal path restores).

use std::io::{self, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Leaves the alternate screen and raw mode. Safe to call twice.
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let mut out = io::stdout();
        // Leaving the alternate screen is the last thing written.
        let _ = execute!(out, DisableBracketedPaste, cursor::Show, LeaveAlternateScreen);
        let _ = out.flush();
        let _ = disable_raw_mode();
    }
}

/// Restores the terminal when dropped (errors and unwinding panics too).
pub struct TerminalGuard {
    pub terminal: Term,
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        // ratatui shows a cursor it hid when it drops; do it first so that
        // leaving the alternate screen stays the last thing written.
        let _ = self.terminal.show_cursor();
        restore();
    }
}

/// Raw mode, alternate screen, bracketed paste; installs the panic hook.
pub fn setup() -> io::Result<TerminalGuard> {
    install_panic_hook();
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = io::stdout();
    if let Err(e) = execute!(out, EnterAlternateScreen, EnableBracketedPaste, cursor::Hide) {
        restore();
        return Err(e);
    }
    let terminal = match Terminal::new(CrosstermBackend::new(out)) {
        Ok(t) => t,
        Err(e) => {
            restore();
            return Err(e);
        }
    };
    Ok(TerminalGuard { terminal })
}

fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            tracing::error!("panic: {info}");
            previous(info);
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
mod tests {
    #[test]
    fn osc52_encodes_the_text() {
        assert_eq!(super::osc52("hi"), "\x1b]52;c;aGk=\x07");
    }
}
