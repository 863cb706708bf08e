//! Desktop notifications from a terminal: OSC 777 (rxvt, foot, WezTerm,
//! Ghostty, VTE) and OSC 9 (iTerm2, kitty, Windows Terminal), both sent,
//! then the bell; wrapped for tmux and screen, which otherwise swallow them.
//! And the agent's own `notify_command`, run without a shell.
//!
//! What a notification says came from customers: it is made inert and
//! stripped of the separators an OSC uses (`;`), so it can end nothing early.

use std::process::{Command, Stdio};

pub mod quiet;

/// A terminal multiplexer between frontdesk and the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mux {
    None,
    Tmux,
    Screen,
}

impl Mux {
    /// From the environment: `TMUX` set is tmux; `STY` set (or a `TERM` of
    /// `screen*` without `TMUX`) is GNU screen.
    pub fn detect(var: impl Fn(&str) -> Option<String>) -> Mux {
        if var("TMUX").is_some_and(|v| !v.is_empty()) {
            Mux::Tmux
        } else if var("STY").is_some_and(|v| !v.is_empty()) || var("TERM").is_some_and(|t| t.starts_with("screen")) {
            Mux::Screen
        } else {
            Mux::None
        }
    }
}

/// The longest text a notification carries (terminals cut long ones anyway).
pub const MAX_CHARS: usize = 200;

/// Text fit for an OSC payload: inert, one line, no `;`, at most `MAX_CHARS`.
pub fn payload_text(s: &str) -> String {
    let line = crate::text::sanitize_line(s);
    let cleaned: String = line
        .chars()
        .map(|c| if c == ';' { ',' } else { c })
        .filter(|c| !c.is_control())
        .take(MAX_CHARS)
        .collect();
    cleaned.trim().to_string()
}

/// Wraps one escape sequence so a multiplexer passes it to the terminal.
fn wrap(seq: &str, mux: Mux) -> String {
    match mux {
        Mux::None => seq.to_string(),
        // tmux: DCS tmux; <sequence with every ESC doubled> ST. Needs
        // `set -g allow-passthrough on` in tmux 3.3 and later.
        Mux::Tmux => format!("\x1bPtmux;{}\x1b\\", seq.replace('\x1b', "\x1b\x1b")),
        Mux::Screen => format!("\x1bP{seq}\x1b\\"),
    }
}

/// The bytes of one notification: OSC 777, OSC 9, and the bell (which a
/// multiplexer passes on by itself).
pub fn sequences(title: &str, body: &str, mux: Mux) -> String {
    let (title, body) = (payload_text(title), payload_text(body));
    let osc777 = format!("\x1b]777;notify;{title};{body}\x1b\\");
    let osc9 = format!("\x1b]9;{title}: {body}\x1b\\");
    format!("{}{}\x07", wrap(&osc777, mux), wrap(&osc9, mux))
}

/// Runs the agent's `notify_command` (program and arguments, as the config
/// file lists them) with the contact's name and the text in
/// `FRONTDESK_NOTIFY_CONTACT` and `FRONTDESK_NOTIFY_TEXT`: never through a
/// shell, so nothing in the text can run. Does not wait for it; its output
/// goes nowhere near the TUI's screen.
pub fn run_command(argv: &[String], contact: &str, text: &str) -> Result<std::process::Child, String> {
    let (program, args) = argv.split_first().ok_or("notify_command is empty")?;
    Command::new(program)
        .args(args)
        .env("FRONTDESK_NOTIFY_CONTACT", crate::text::sanitize_line(contact))
        .env("FRONTDESK_NOTIFY_TEXT", crate::text::sanitize_line(text))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("notify_command {}: {e}", crate::text::sanitize_line(program)))
}

#[cfg(test)]
mod tests;
