//! The bulk forms of `contacts close|reopen|assign|unassign|tag|untag`:
//! `--view NAME` and/or `--older-than DURATION` choose the contacts from
//! the local index (brought up to date first), `--dry-run` lists them,
//! more than [`CONFIRM_ABOVE`] are confirmed on the terminal unless
//! `--yes`, and each contact's outcome is reported; exit 1 if any failed.
//!
//! The single forms (`contacts close UUID`) print the contact as before.

use std::collections::HashSet;
use std::io::{BufRead, IsTerminal};
use std::time::Duration;

use chrono::Utc;
use clap::Args;
use serde::Serialize;

use super::cache::{index_path, open_index};
use super::print_object;
use super::sync::index_err;
use super::views::{all_views, load};
use crate::api::{ApiError, Client, Contact, split_list};
use crate::cli::output::{Format, Progress, ProgressMode, Tabular, list_doc};
use crate::cli::{CliError, Ctx, api_err};
use crate::index::Index;
use crate::triage::bulk::{self, Action, Outcome};
use crate::triage::{View, builtin_views, find_view, parse_duration, select};

/// Above this many contacts, ask first (unless `--yes`).
pub const CONFIRM_ABOVE: usize = 20;

/// Which contacts a bulk action applies to, and how.
#[derive(Debug, Clone, Default, Args)]
pub struct BulkArgs {
    /// Act on every contact in this view: mine, unassigned, waiting, open,
    /// all, or a view from the config file (any case)
    #[arg(long, value_name = "NAME")]
    pub view: Option<String>,
    /// Only contacts whose last activity is older than this (30m, 2h, 7d)
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub older_than: Option<Duration>,
    /// List the contacts it would act on, and change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Act on more than 20 contacts without asking
    #[arg(long)]
    pub yes: bool,
}

impl BulkArgs {
    fn is_bulk(&self) -> bool {
        self.view.is_some() || self.older_than.is_some()
    }
}

/// One contact's outcome as printed.
#[derive(Debug, Serialize)]
struct ResultRow {
    uuid: String,
    name: String,
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl Tabular for ResultRow {
    fn headers() -> &'static [&'static str] {
        &["NAME", "UUID", "RESULT"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.uuid.clone(),
            self.error.clone().unwrap_or_else(|| "ok".into()),
        ]
    }
}

/// The tags of `tag`/`untag`: comma-separated, none empty.
pub(crate) fn tags_arg(verb: &str, tags: &str) -> Result<Vec<String>, CliError> {
    let tags = split_list(tags);
    if tags.is_empty() {
        return Err(CliError::usage(format!("contacts {verb}: give at least one tag")));
    }
    Ok(tags)
}

/// `assign EMAIL`: an email address, or `me` (the configured user_email).
pub(crate) fn assignee_arg(ctx: &mut Ctx<'_>, email: &str) -> Result<String, CliError> {
    let email = email.trim();
    if email.eq_ignore_ascii_case("me") {
        return ctx.settings()?.user_email.clone().ok_or_else(|| {
            CliError::usage(format!(
                "contacts assign me: your collaborator email is not set: {}",
                crate::triage::SET_EMAIL
            ))
        });
    }
    crate::config::checked_email(email).map_err(|p| CliError::usage(format!("contacts assign: {p}")))?;
    Ok(email.to_string())
}

/// `contacts VERB [UUID] [--view …]`: the single form when a uuid is
/// given, the bulk form otherwise.
pub async fn run(ctx: &mut Ctx<'_>, uuid: Option<String>, action: Action, args: BulkArgs) -> Result<(), CliError> {
    let verb = action.verb();
    match (uuid, args.is_bulk()) {
        (Some(_), true) => Err(CliError::usage(format!(
            "contacts {verb}: give a contact uuid, or --view/--older-than for many, not both"
        ))),
        (None, false) => Err(CliError::usage(format!(
            "contacts {verb}: give a contact uuid, or --view NAME and/or --older-than DURATION to act on many"
        ))),
        (Some(_), false) if args.dry_run || args.yes => Err(CliError::usage(format!(
            "contacts {verb}: --dry-run and --yes go with --view or --older-than"
        ))),
        (Some(uuid), false) => single(ctx, &uuid, &action).await,
        (None, true) => many(ctx, &action, &args).await,
    }
}

async fn single(ctx: &mut Ctx<'_>, uuid: &str, action: &Action) -> Result<(), CliError> {
    let uuid = super::non_empty("the contact uuid", uuid)?.to_string();
    let client = ctx.client()?;
    // `open`, as the command was called before `reopen` became its alias.
    let label = match action {
        Action::Reopen => "open",
        other => other.verb(),
    };
    let c = bulk::apply_one(&client, &uuid, action)
        .await
        .map_err(api_err(format!("contacts {label} {uuid}")))?;
    remember(ctx, std::slice::from_ref(&c));
    print_object(ctx, &c)
}

/// Keeps contacts the API just returned in the account's index, when it
/// has one on disk, so the next command sees them (a one-contact command
/// never creates the file). A failure here only warns: the change itself
/// is made.
fn remember(ctx: &mut Ctx<'_>, contacts: &[Contact]) {
    let on_disk = ctx.settings().is_ok_and(|s| s.cache) && index_path(ctx).is_ok_and(|p| p.exists());
    if !on_disk {
        return;
    }
    let stored = open_index(ctx).and_then(|mut ix| ix.upsert_contacts(contacts, Utc::now()).map_err(index_err));
    if let Err(e) = stored
        && let Some(m) = e.message()
    {
        let _ = writeln!(ctx.err, "frontdesk: warning: the local index was not updated: {m}");
    }
}

/// The view `--view` names (All when only `--older-than` is given), with
/// `--older-than` added to its filter.
fn chosen_view(name: Option<&str>, older_than: Option<Duration>, custom: &[View]) -> Result<View, CliError> {
    let mut view = match name {
        None => find_view("all", &[]).ok_or_else(|| CliError::Other("the All view is missing".into()))?,
        Some(n) => find_view(n, custom).ok_or_else(|| {
            let known: Vec<String> = builtin_views()
                .iter()
                .chain(custom)
                .map(|v| v.name.to_lowercase())
                .collect();
            CliError::usage(format!(
                "there is no view named \"{}\"; the views are: {}",
                crate::text::sanitize_line(n),
                known.join(", ")
            ))
        })?,
    };
    if let Some(d) = older_than {
        view.filter.older_than = Some(view.filter.older_than.map_or(d, |v| v.max(d)));
    }
    Ok(view)
}

async fn many(ctx: &mut Ctx<'_>, action: &Action, args: &BulkArgs) -> Result<(), CliError> {
    let verb = action.verb();
    let (views, me) = all_views(ctx)?;
    let custom: Vec<View> = views.into_iter().skip(builtin_views().len()).collect();
    let view = chosen_view(args.view.as_deref(), args.older_than, &custom)?;
    if let Some(why) = view.why_empty(me.as_deref()) {
        return Err(CliError::usage(format!("contacts {verb} --view {}: {why}", view.name)));
    }
    let client = ctx.client()?;
    let mut index = open_index(ctx)?;
    let now = Utc::now();
    let loaded = load(ctx, &mut index, std::slice::from_ref(&view), me.as_deref(), now).await?;
    let targets: Vec<Contact> = select(&loaded.facts, &view, me.as_deref(), now)
        .into_iter()
        .filter_map(|i| loaded.contacts.get(i).cloned())
        .collect();
    let what = match args.older_than {
        Some(d) => format!("{} older than {}", view.name, crate::triage::format_duration(d)),
        None => view.name.clone(),
    };
    if args.dry_run {
        let doc = list_doc(ctx.format, ctx.color, &targets)?;
        ctx.emit(&doc)?;
        let _ = writeln!(
            ctx.err,
            "would {verb} {} contacts ({what}); nothing changed",
            targets.len()
        );
        return Ok(());
    }
    if targets.is_empty() {
        if ctx.format != Format::Table {
            let doc = list_doc::<ResultRow>(ctx.format, ctx.color, &[])?;
            ctx.emit(&doc)?;
        }
        let _ = writeln!(ctx.err, "no contacts to {verb} ({what})");
        return Ok(());
    }
    if targets.len() > CONFIRM_ABOVE && !args.yes {
        confirm(ctx, &format!("{verb} {} contacts ({what})?", targets.len()))?;
    }
    let outcomes = act(ctx, &client, &mut index, &targets, action).await;
    settle(ctx, &mut index, &outcomes);
    report(ctx, action, &what, outcomes)
}

/// Asks on the terminal; without one, refuses.
fn confirm(ctx: &mut Ctx<'_>, question: &str) -> Result<(), CliError> {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(CliError::usage(format!(
            "{question} Not asking: standard input is not a terminal. Pass --yes to go ahead, \
             or --dry-run to list them first"
        )));
    }
    let _ = write!(ctx.err, "{question} [y/N] ");
    let _ = ctx.err.flush();
    let mut line = String::new();
    stdin.lock().read_line(&mut line)?;
    if matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
        Ok(())
    } else {
        Err(CliError::usage("nothing changed"))
    }
}

/// Runs the action with a progress bar, writing each contact the API
/// returns into the index as it comes (so an interrupted run leaves the
/// index knowing what was done).
async fn act(
    ctx: &mut Ctx<'_>,
    client: &Client,
    index: &mut Index,
    targets: &[Contact],
    action: &Action,
) -> Vec<Outcome> {
    let bar = if ctx.progress == ProgressMode::Bar {
        let pb = indicatif::ProgressBar::with_draw_target(
            Some(targets.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} {pos}/{len} {wide_bar} {elapsed}") {
            pb.set_style(style);
        }
        pb.set_message(action.doing());
        pb
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut pb = Progress::with_bar(ctx.progress, bar, action.doing(), "contacts");
    pb.set_length(targets.len() as u64);
    let mut unstored = None;
    let outcomes = bulk::apply(client, targets, action, bulk::CONCURRENCY, &mut |o| {
        pb.inc(1);
        if let Ok(c) = &o.result
            && let Err(e) = index.upsert_contacts(std::slice::from_ref(c), Utc::now())
        {
            unstored = Some(e);
        }
    })
    .await;
    pb.finish_and_clear();
    if let Some(e) = unstored {
        let _ = writeln!(ctx.err, "frontdesk: warning: the local index was not updated: {e}");
    }
    outcomes
}

/// Forgets the contacts the server no longer has (404), so the next
/// command does not act on them again.
fn settle(ctx: &mut Ctx<'_>, index: &mut Index, outcomes: &[Outcome]) {
    let gone: HashSet<&str> = outcomes
        .iter()
        .filter(|o| matches!(o.result, Err(ApiError::NotFound { .. })))
        .map(|o| o.uuid.as_str())
        .collect();
    if gone.is_empty() {
        return;
    }
    // The index removes what a walk did not see: a "walk" that saw every
    // contact but the gone ones removes just those.
    let removed = index
        .list(crate::index::Order::Activity, usize::MAX >> 1, 0)
        .map(|all| {
            all.into_iter()
                .map(|c| c.uuid)
                .filter(|u| !gone.contains(u.as_str()))
                .collect()
        })
        .and_then(|keep: HashSet<String>| index.remove_missing(Utc::now(), &keep));
    if let Err(e) = removed {
        let _ = writeln!(ctx.err, "frontdesk: warning: the local index was not updated: {e}");
    }
}

fn report(ctx: &mut Ctx<'_>, action: &Action, what: &str, outcomes: Vec<Outcome>) -> Result<(), CliError> {
    let total = outcomes.len();
    let rows: Vec<ResultRow> = outcomes
        .into_iter()
        .map(|o| ResultRow {
            ok: o.result.is_ok(),
            error: o.result.err().map(|e| e.to_string()),
            uuid: o.uuid,
            name: o.name,
        })
        .collect();
    let failed = rows.iter().filter(|r| !r.ok).count();
    let summary = format!("{} {} of {total} contacts ({what})", action.done(), total - failed);
    match ctx.format {
        Format::Table => {
            let failures: Vec<ResultRow> = rows.into_iter().filter(|r| !r.ok).collect();
            let mut doc = String::new();
            if !failures.is_empty() {
                doc = list_doc(Format::Table, ctx.color, &failures)?;
            }
            doc.push_str(&summary);
            doc.push('\n');
            ctx.emit(&doc)?;
        }
        format => {
            let doc = list_doc(format, ctx.color, &rows)?;
            ctx.emit(&doc)?;
            let _ = writeln!(ctx.err, "{summary}");
        }
    }
    if failed > 0 {
        return Err(CliError::Other(format!(
            "{failed} of {total} contacts failed (listed above); the same command again retries them"
        )));
    }
    Ok(())
}
