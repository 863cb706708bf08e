//! One module per resource. Each command checks its input first (usage
//! errors make no request), then calls the API, then prints.

pub mod bot;
pub mod bulk;
pub mod cache;
pub mod channels;
pub mod completions;
pub mod config;
pub mod contacts;
pub mod custom_statuses;
pub mod doctor;
pub mod funnels;
pub mod history;
pub mod hub;
pub mod keys;
pub mod man;
pub mod mcp;
pub mod messages;
pub mod plan;
pub mod report;
pub mod search;
pub mod send_media;
pub mod snippets;
pub mod status;
pub mod sync;
pub mod teams;
pub mod templates;
pub mod undo;
pub mod views;
pub mod webhooks;
pub mod whoami;

mod shared;

use crate::cli::args::Command;
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;

pub(crate) async fn dispatch(ctx: &mut Ctx<'_>, command: Command) -> Result<(), CliError> {
    match command {
        Command::Serve(_) => Err(CliError::usage("`serve` is not a non-interactive command")),
        Command::Hub(h) => hub::run(ctx, h).await,
        Command::Contacts(c) => contacts::run(ctx, c).await,
        Command::Messages(c) => messages::run(ctx, c).await,
        Command::Bot(c) => bot::run(ctx, c).await,
        Command::Templates(c) => templates::run(ctx, c).await,
        Command::Channels(c) => channels::run(ctx, c).await,
        Command::Funnels(c) => funnels::run(ctx, c).await,
        Command::Teams(c) => teams::run(ctx, c).await,
        Command::Plan => plan::run(ctx).await,
        Command::CustomStatuses(c) => custom_statuses::run(ctx, c).await,
        Command::Status(c) => status::run(ctx, c).await,
        Command::Webhooks(c) => webhooks::run(ctx, c).await,
        Command::Completions(c) => completions::run(ctx, c),
        Command::Man => man::run(ctx),
        Command::Doctor => doctor::run(ctx).await,
        Command::Keys(a) => keys::run(ctx, a),
        Command::Snippets(c) => snippets::run(ctx, c).await,
        Command::Config(c) => config::run(ctx, c),
        Command::Search(c) => search::run(ctx, c).await,
        Command::Sync(c) => sync::run(ctx, c).await,
        Command::Cache(c) => cache::run(ctx, c).await,
        Command::Views(c) => views::run(ctx, c).await,
        Command::Report(a) => report::run(ctx, a).await,
        Command::Mcp(a) => mcp::run(ctx, a).await,
        Command::History(c) => history::run(ctx, c).await,
        Command::Undo(c) => undo::run(ctx, c).await,
    }
}
