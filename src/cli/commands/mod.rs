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

use std::future::Future;

use clap::Args;
use futures::stream::BoxStream;
use futures::{Stream, StreamExt};

use super::output::{ListWriter, Progress, Tabular};
use super::{CliError, Command, Ctx};
use crate::api::{ApiError, Page, PageRequest};

pub(crate) async fn dispatch(ctx: &mut Ctx<'_>, command: Command) -> Result<(), CliError> {
    match command {
        Command::Serve(_) => Err(CliError::usage("`serve` is not a non-interactive command")),
        Command::Hub(h) => crate::hub::cli::run(ctx, h).await,
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

/// Where a cursor-paged list starts: `--page N | --after CURSOR | --all`.
#[derive(Debug, Clone, Default, Args)]
#[group(id = "position", multiple = false)]
pub struct CursorArgs {
    /// Page number (1-based)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub page: Option<u32>,
    /// Cursor from a previous answer's `meta.next`
    #[arg(long)]
    pub after: Option<String>,
    /// Walk every page to the end
    #[arg(long)]
    pub all: bool,
}

impl CursorArgs {
    /// The request for one page (when not `--all`).
    pub fn request(&self) -> PageRequest {
        match (&self.after, self.page) {
            (Some(c), _) => PageRequest::After(c.clone()),
            (None, Some(n)) => PageRequest::Number(n),
            (None, None) => PageRequest::First,
        }
    }
}

/// Where a numbered list starts: `--page N | --all`.
#[derive(Debug, Clone, Default, Args)]
#[group(id = "numbered", multiple = false)]
pub struct NumberedArgs {
    /// Page number (1-based)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub page: Option<u32>,
    /// Walk every page to the end
    #[arg(long)]
    pub all: bool,
}

/// Prints a page-numbered list: the one page `one` fetches, or with `all`
/// every page of the client's walk.
pub(crate) async fn numbered_list<T, Fut, W>(
    ctx: &mut Ctx<'_>,
    what: &str,
    all: bool,
    one: Fut,
    walk: W,
) -> Result<(), CliError>
where
    T: Tabular,
    Fut: Future<Output = Result<Page<T>, ApiError>>,
    W: FnOnce() -> BoxStream<'static, Result<Page<T>, ApiError>>,
{
    if all {
        walk_list(ctx, what, walk()).await
    } else {
        let page = one.await.map_err(super::api_err(what))?;
        print_page(ctx, page)
    }
}

/// Prints every page of a cursor walk, streaming JSON lines as pages arrive.
pub(crate) async fn walk_list<T, S>(ctx: &mut Ctx<'_>, what: &str, mut pages: S) -> Result<(), CliError>
where
    T: Tabular,
    S: Stream<Item = Result<Page<T>, ApiError>> + Unpin,
{
    let mut pb = Progress::new(ctx.progress, what, "received");
    let mut writer = ListWriter::new(ctx.format, ctx.color);
    while let Some(page) = pages.next().await {
        let page = match page {
            Ok(p) => p,
            Err(e) => {
                pb.finish_and_clear();
                return Err(CliError::Api {
                    what: format!("{what} (after {} items)", writer.count()),
                    source: e,
                });
            }
        };
        writer.push_page(ctx.out, page.items)?;
        pb.set_position(writer.count());
    }
    pb.finish_and_clear();
    writer.finish(ctx.out)
}

/// Prints one page of a list.
pub(crate) fn print_page<T: Tabular>(ctx: &mut Ctx<'_>, page: Page<T>) -> Result<(), CliError> {
    let doc = super::output::list_doc(ctx.format, ctx.color, &page.items)?;
    ctx.emit(&doc)?;
    if ctx.format == super::Format::Table {
        // For a person: how to get the next batch (stderr keeps stdout clean).
        if let Some(next) = page.meta.next.as_deref() {
            let _ = writeln!(ctx.err, "more: --after {}", super::sanitize(next));
        } else if let (Some(p), Some(n)) = (page.meta.page, page.meta.pages)
            && p < n
        {
            let _ = writeln!(ctx.err, "more: --page {} (of {n}), or --all", p + 1);
        }
    }
    Ok(())
}

/// Prints one object as a record or JSON.
pub(crate) fn print_object<T: super::output::Recordable>(ctx: &mut Ctx<'_>, item: &T) -> Result<(), CliError> {
    let doc = super::output::object_doc(ctx.format, ctx.color, item)?;
    ctx.emit(&doc)
}

/// Rejects an empty path argument before any request.
pub(crate) fn non_empty<'s>(what: &str, s: &'s str) -> Result<&'s str, CliError> {
    let t = s.trim();
    if t.is_empty() {
        Err(CliError::usage(format!("{what} must not be empty")))
    } else {
        Ok(t)
    }
}
