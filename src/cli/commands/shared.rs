//! What the commands share: the paging flags, walking and printing a list,
//! printing one object, checking a path argument.

use std::future::Future;

use clap::Args;
use futures::stream::BoxStream;
use futures::{Stream, StreamExt};

use crate::api::{ApiError, Page, PageRequest};
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::{ListWriter, Progress, Tabular};
use crate::index::IndexError;

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
        let page = one.await.map_err(crate::cli::error::api_err(what))?;
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
    let doc = crate::cli::output::list_doc(ctx.format, ctx.color, &page.items)?;
    ctx.emit(&doc)?;
    if ctx.format == crate::cli::output::Format::Table {
        // For a person: how to get the next batch (stderr keeps stdout clean).
        if let Some(next) = page.meta.next.as_deref() {
            let _ = writeln!(ctx.err, "more: --after {}", crate::cli::output::sanitize(next));
        } else if let (Some(p), Some(n)) = (page.meta.page, page.meta.pages)
            && p < n
        {
            let _ = writeln!(ctx.err, "more: --page {} (of {n}), or --all", p + 1);
        }
    }
    Ok(())
}

/// Prints one object as a record or JSON.
pub(crate) fn print_object<T: crate::cli::output::Recordable>(ctx: &mut Ctx<'_>, item: &T) -> Result<(), CliError> {
    let doc = crate::cli::output::object_doc(ctx.format, ctx.color, item)?;
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

/// An index failure as a command's error.
pub(crate) fn index_err(e: IndexError) -> CliError {
    CliError::Other(e.to_string())
}
