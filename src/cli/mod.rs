//! Non-interactive commands (issue 5).
//!
//! INTERFACE CONTRACT: `Cli` is the whole command line; main.rs parses it and
//! dispatches `serve` to the server, no subcommand to the TUI, and the rest
//! to `run`.

use clap::{Parser, Subcommand};

use crate::config::GlobalArgs;

/// frontdesk: a keyboard-driven terminal inbox.
#[derive(Debug, Parser)]
#[command(name = "frontdesk", version, about)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    /// Open the TUI on the embedded demo server even if a key is configured
    #[arg(long)]
    pub demo: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the embedded reference server
    Serve(crate::server::ServeArgs),
}

/// Runs a non-interactive command; returns the process exit code (0 ok, 1
/// API or network error, 2 usage error).
pub async fn run(global: GlobalArgs, command: Command) -> i32 {
    let _ = (global, command);
    todo!()
}
