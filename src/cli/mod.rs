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

pub mod commands;
pub mod output;
mod parse;
pub mod serve;

pub use parse::{ServeCli, parse, parse_from};

use std::io::{IsTerminal, Write};

use clap::{Args, Parser, Subcommand};

use crate::api::{ApiError, Client};
use crate::config::{GlobalArgs, Settings};

pub use output::{Format, sanitize};

/// frontdesk: a keyboard-driven terminal inbox.
#[derive(Debug, Parser)]
#[command(name = "frontdesk", version, about)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Open the TUI on the embedded demo server even if a key is configured
    #[arg(long)]
    pub demo: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// How a command prints its answer (global flags).
#[derive(Debug, Clone, Copy, Default, Args)]
#[command(next_help_heading = crate::config::GLOBAL_HEADING)]
pub struct OutputArgs {
    /// Print one JSON document (an array for lists); nothing on failure
    #[arg(long, global = true, conflicts_with = "jsonl")]
    pub json: bool,
    /// Print one JSON object a line, streamed as pages arrive (a failed walk's output is partial)
    #[arg(long, global = true)]
    pub jsonl: bool,
}

impl OutputArgs {
    pub fn format(&self) -> Format {
        if self.jsonl {
            Format::Jsonl
        } else if self.json {
            Format::Json
        } else {
            Format::Table
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the embedded reference server
    Serve(serve::ServeArgs),
    /// Run the team hub (one live inbox for every agent), manage its agents, read its audit log
    Hub(crate::hub::cli::HubArgs),
    /// List, read, create and update contacts; close and reopen conversations
    #[command(subcommand)]
    Contacts(commands::contacts::ContactsCmd),
    /// List, send, delete messages and read a sent message's status
    #[command(subcommand)]
    Messages(commands::messages::MessagesCmd),
    /// Read, start and stop a contact's bot
    #[command(subcommand)]
    Bot(commands::bot::BotCmd),
    /// List, read and rename message templates
    #[command(subcommand)]
    Templates(commands::templates::TemplatesCmd),
    /// List and rename channels
    #[command(subcommand)]
    Channels(commands::channels::ChannelsCmd),
    /// List funnels
    #[command(subcommand)]
    Funnels(commands::funnels::FunnelsCmd),
    /// List teams, read a team and its members
    #[command(subcommand)]
    Teams(commands::teams::TeamsCmd),
    /// Show the account's plan
    Plan,
    /// List, read, create, update and delete custom statuses
    #[command(subcommand)]
    CustomStatuses(commands::custom_statuses::CustomStatusesCmd),
    /// Set your own availability and custom status
    #[command(subcommand)]
    Status(commands::status::StatusCmd),
    /// Read the webhook event log
    #[command(subcommand)]
    Webhooks(commands::webhooks::WebhooksCmd),
    /// Print a shell completion script
    Completions(commands::completions::CompletionsArgs),
    /// Print the man page (every command and option)
    Man,
    /// Check the config, the network path, the key, the clock and the
    /// terminal: one line each, with a fix for each problem
    Doctor,
    /// Print the keys in force (the config file's [keys] applied)
    Keys(commands::keys::KeysArgs),
    /// Canned replies (snippets.toml beside the config file): list, show one filled for a contact
    #[command(subcommand)]
    Snippets(commands::snippets::SnippetsCmd),
    /// Write, check or locate the config file
    #[command(subcommand)]
    Config(commands::config::ConfigCmd),
    /// The old name of `contacts search`, kept working
    #[command(hide = true)]
    Search(commands::search::SearchArgs),
    /// Sync the whole account into the local index
    Sync(commands::sync::SyncArgs),
    /// Where the local index is kept; delete it
    #[command(subcommand)]
    Cache(commands::cache::CacheCmd),
    /// The views (Mine, Unassigned, Waiting, Open, All and the config file's) and how many contacts each holds
    Views(commands::views::ViewsArgs),
    /// Opened and closed per day, first response and resolution times, what waits now; per agent, team or tag (from the local index, or the team's hub)
    Report(commands::report::ReportArgs),
    /// Serve the inbox to an AI assistant over the Model Context Protocol on stdio
    Mcp(commands::mcp::McpArgs),
    /// The bulk runs made from this machine, newest first, with what each did
    History(commands::history::HistoryArgs),
    /// Take a bulk run back, reverting only what is still as it left it
    Undo(commands::undo::UndoArgs),
}

/// Why a command failed, and so its exit code.
#[derive(Debug)]
pub enum CliError {
    /// Bad input or missing configuration: exit 2, no request was made.
    Usage(String),
    /// The service or the network failed: exit 1. `what` names the step.
    Api { what: String, source: ApiError },
    /// Another failure (writing output): exit 1.
    Other(String),
    /// stdout was closed (`| head`): end quietly.
    BrokenPipe,
}

/// The exit code a closed stdout ends with (as a process killed by SIGPIPE
/// would report in a shell).
pub const BROKEN_PIPE_EXIT: i32 = 141;

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Api { .. } | CliError::Other(_) => 1,
            CliError::BrokenPipe => BROKEN_PIPE_EXIT,
        }
    }

    /// The one line printed on stderr (without the `frontdesk: ` prefix).
    pub fn message(&self) -> Option<String> {
        match self {
            CliError::Usage(m) | CliError::Other(m) => Some(m.clone()),
            CliError::Api { what, source } => Some(format!("{what}: {source}")),
            CliError::BrokenPipe => None,
        }
    }

    pub fn usage(msg: impl Into<String>) -> CliError {
        CliError::Usage(msg.into())
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Other(format!("cannot write the output: {e}"))
        }
    }
}

/// Wraps an API error with the step that failed.
pub(crate) fn api_err(what: impl Into<String>) -> impl FnOnce(ApiError) -> CliError {
    let what = what.into();
    move |source| CliError::Api { what, source }
}

/// What a command runs with: where to write, how, and (lazily) the client.
pub struct Ctx<'a> {
    pub global: GlobalArgs,
    pub format: Format,
    /// Colour in tables and records (stdout is a terminal, `NO_COLOR` unset).
    pub color: bool,
    /// Progress of long steps on stderr: a bar on a terminal, a line every
    /// few seconds off one.
    pub progress: output::ProgressMode,
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    settings: Option<Settings>,
    client: Option<Client>,
}

impl<'a> Ctx<'a> {
    /// The settings, loaded on first use (warnings go to `err`).
    pub fn settings(&mut self) -> Result<&Settings, CliError> {
        if self.settings.is_none() {
            let settings = crate::config::load(&self.global).map_err(|e| CliError::Usage(e.to_string()))?;
            for w in &settings.warnings {
                let _ = writeln!(self.err, "frontdesk: warning: {w}");
            }
            return Ok(self.settings.insert(settings));
        }
        match &self.settings {
            Some(s) => Ok(s),
            None => Err(CliError::Other("the settings could not be kept".into())),
        }
    }

    /// The API client, built on first use. No key configured is a usage
    /// error that says how to configure one.
    pub fn client(&mut self) -> Result<Client, CliError> {
        if let Some(c) = &self.client {
            return Ok(c.clone());
        }
        let settings = self.settings()?;
        if settings.is_demo() {
            return Err(CliError::usage(
                "no API key configured: set FRONTDESK_API_KEY, pass --api-key, or put api_key in the config file \
                 (or a hub: hub_url and hub_token; or run `frontdesk serve` for a local demo server and point \
                 --base-url at it)",
            ));
        }
        let client = match settings.client() {
            Ok(Some(c)) => c,
            Ok(None) => return Err(CliError::usage("no API key configured")),
            Err(e) => return Err(CliError::Usage(e.to_string())),
        };
        self.client = Some(client.clone());
        Ok(client)
    }

    /// Writes a finished document in one go, as it is: frontdesk's own
    /// text, line breaks and all. Whatever came from outside (the server,
    /// the config file, flags) must already be inert in it: build the
    /// document from pieces passed through [`sanitize`] (one line) or
    /// `output::sanitize_multiline`, never sanitize the whole document
    /// (that pictures its own line breaks as `⏎`).
    pub fn emit(&mut self, doc: &str) -> Result<(), CliError> {
        self.out.write_all(doc.as_bytes())?;
        self.out.flush()?;
        Ok(())
    }
}

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
