//! Non-interactive commands (issue 5).
//!
//! INTERFACE CONTRACT: `Cli` is the whole command line; main.rs parses it and
//! dispatches `serve` to the server, no subcommand to the TUI, and the rest
//! to `run_with`.
//!
//! Every command writes its whole answer to `out` only once it succeeded
//! (single documents are rendered into a buffer first); only `--jsonl`
//! streams page by page, so a walk that fails part-way leaves the pages
//! before the failure on `out` (exit 1). Errors are one line on `err`.

mod args;
pub mod commands;
mod ctx;
mod error;
pub mod output;
mod parse;
pub mod serve;

pub use args::{Cli, Command, OutputArgs};
pub use ctx::Ctx;
pub use error::{BROKEN_PIPE_EXIT, CliError};
pub use parse::{ServeCli, parse, parse_from};

use std::io::{IsTerminal, Write};

use crate::config::GlobalArgs;

pub use output::{Format, sanitize};

/// Colour only on a terminal, and never when `NO_COLOR` is set to anything
/// non-empty (no-color.org).
pub fn use_color(stdout_is_terminal: bool, no_color: Option<std::ffi::OsString>) -> bool {
    stdout_is_terminal && no_color.is_none_or(|v| v.is_empty())
}

/// Runs a non-interactive command with table output; returns the exit code.
pub async fn run(global: GlobalArgs, command: Command) -> i32 {
    run_with(global, OutputArgs::default(), command).await
}

/// Runs a non-interactive command on stdout and stderr; returns the process
/// exit code (0 ok, 1 API or network error, 2 usage error, 141 stdout closed).
pub async fn run_with(global: GlobalArgs, output: OutputArgs, command: Command) -> i32 {
    let stdout = std::io::stdout();
    let color = use_color(stdout.is_terminal(), std::env::var_os("NO_COLOR"));
    let (progress, warning) = output::ProgressMode::for_stderr(
        std::io::stderr().is_terminal(),
        std::env::var(output::LINE_EVERY_ENV).ok(),
    );
    // Not locked for the whole run: `frontdesk mcp` writes the protocol
    // through its own handle (each buffered write still locks).
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, stdout);
    let mut err = std::io::stderr();
    if let Some(w) = warning {
        let _ = writeln!(err, "frontdesk: warning: {w}");
    }
    let code = run_to_mode(global, output, command, &mut out, &mut err, color, progress).await;
    match out.flush() {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => BROKEN_PIPE_EXIT,
        Err(e) => {
            let _ = writeln!(err, "frontdesk: cannot write the output: {e}");
            1
        }
    }
}

/// Runs a command writing to the given streams (tests and the bench use a
/// sink); `progress` shows a bar on stderr. Returns the exit code.
pub async fn run_to(
    global: GlobalArgs,
    output: OutputArgs,
    command: Command,
    out: &mut dyn Write,
    err: &mut dyn Write,
    color: bool,
    progress: bool,
) -> i32 {
    let mode = if progress {
        output::ProgressMode::Bar
    } else {
        output::ProgressMode::Off
    };
    run_to_mode(global, output, command, out, err, color, mode).await
}

async fn run_to_mode(
    global: GlobalArgs,
    output: OutputArgs,
    command: Command,
    out: &mut dyn Write,
    err: &mut dyn Write,
    color: bool,
    progress: output::ProgressMode,
) -> i32 {
    let mut ctx = Ctx {
        global,
        format: output.format(),
        color,
        progress,
        out,
        err,
        settings: None,
        client: None,
    };
    match commands::dispatch(&mut ctx, command).await {
        Ok(()) => 0,
        Err(e) => {
            if let Some(msg) = e.message() {
                let _ = writeln!(ctx.err, "frontdesk: {}", output::sanitize(&msg));
            }
            e.exit_code()
        }
    }
}

#[cfg(test)]
mod tests;
