//! The command line's shape: `Cli`, its global output flags and every subcommand.

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::output::Format;
use crate::config::GlobalArgs;

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
    Serve(super::serve::ServeArgs),
    /// Run the team hub (one live inbox for every agent), manage its agents, read its audit log
    Hub(super::commands::hub::HubArgs),
    /// List, read, create and update contacts; close and reopen conversations
    #[command(subcommand)]
    Contacts(super::commands::contacts::ContactsCmd),
    /// List, send, delete messages and read a sent message's status
    #[command(subcommand)]
    Messages(super::commands::messages::MessagesCmd),
    /// Read, start and stop a contact's bot
    #[command(subcommand)]
    Bot(super::commands::bot::BotCmd),
    /// List, read and rename message templates
    #[command(subcommand)]
    Templates(super::commands::templates::TemplatesCmd),
    /// List and rename channels
    #[command(subcommand)]
    Channels(super::commands::channels::ChannelsCmd),
    /// List funnels
    #[command(subcommand)]
    Funnels(super::commands::funnels::FunnelsCmd),
    /// List teams, read a team and its members
    #[command(subcommand)]
    Teams(super::commands::teams::TeamsCmd),
    /// Show the account's plan
    Plan,
    /// List, read, create, update and delete custom statuses
    #[command(subcommand)]
    CustomStatuses(super::commands::custom_statuses::CustomStatusesCmd),
    /// Set your own availability and custom status
    #[command(subcommand)]
    Status(super::commands::status::StatusCmd),
    /// Read the webhook event log
    #[command(subcommand)]
    Webhooks(super::commands::webhooks::WebhooksCmd),
    /// Print a shell completion script
    Completions(CompletionsArgs),
    /// Print the man page (every command and option)
    Man,
    /// Check the config, the network path, the key, the clock and the
    /// terminal: one line each, with a fix for each problem
    Doctor,
    /// Print the keys in force (the config file's [keys] applied)
    Keys(super::commands::keys::KeysArgs),
    /// Canned replies (snippets.toml beside the config file): list, show one filled for a contact
    #[command(subcommand)]
    Snippets(super::commands::snippets::SnippetsCmd),
    /// Write, check or locate the config file
    #[command(subcommand)]
    Config(super::commands::config::ConfigCmd),
    /// The old name of `contacts search`, kept working
    #[command(hide = true)]
    Search(super::commands::search::SearchArgs),
    /// Sync the whole account into the local index
    Sync(super::commands::sync::SyncArgs),
    /// Where the local index is kept; delete it
    #[command(subcommand)]
    Cache(super::commands::cache::CacheCmd),
    /// The views (Mine, Unassigned, Waiting, Open, All and the config file's) and how many contacts each holds
    Views(super::commands::views::ViewsArgs),
    /// Opened and closed per day, first response and resolution times, what waits now; per agent, team or tag (from the local index, or the team's hub)
    Report(super::commands::report::ReportArgs),
    /// Serve the inbox to an AI assistant over the Model Context Protocol on stdio
    Mcp(super::commands::mcp::McpArgs),
    /// The bulk runs made from this machine, newest first, with what each did
    History(super::commands::history::HistoryArgs),
    /// Take a bulk run back, reverting only what is still as it left it
    Undo(super::commands::undo::UndoArgs),
}

/// `frontdesk completions SHELL`'s arguments.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write a completion script for
    pub shell: ShellArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShellArg {
    Bash,
    Zsh,
    Fish,
}
