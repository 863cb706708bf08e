//! The bulk forms of `contacts close|reopen|assign|unassign|tag|untag`:
//! `--view NAME` and/or `--older-than DURATION` choose the contacts from
//! the local index (brought up to date first), `--dry-run` lists them,
//! more than [`CONFIRM_ABOVE`] are confirmed on the terminal unless
//! `--yes`, and each contact's outcome is reported; exit 1 if any failed.
//!
//! The single forms (`contacts close UUID`) print the contact as before.

use std::io::{BufRead, IsTerminal};
use std::time::Duration;

use chrono::Utc;
use clap::Args;

use super::cache::{index_path, open_index};
use super::shared::print_object;
use super::sync::index_err;
use super::views::{all_views, load};
use crate::api::{Contact, split_list};
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::{Format, list_doc};
use crate::triage::bulk::Action;
use crate::triage::owner::{Checked, Seen, write_checked};
use crate::triage::write::{Chosen, Settled};
use crate::triage::{View, builtin_views, find_view, parse_duration, select};

mod act;
mod check;
use act::ResultRow;

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
    /// With a contact uuid: close, reopen, assign or unassign even when a
    /// colleague changed its owner or state since the local index saw it
    #[arg(long)]
    pub force: bool,
}

impl BulkArgs {
    fn is_bulk(&self) -> bool {
        self.view.is_some() || self.older_than.is_some()
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
        (None, true) if args.force => Err(CliError::usage(format!(
            "contacts {verb}: --force goes with a contact uuid"
        ))),
        (Some(uuid), false) => single(ctx, &uuid, &action, args.force).await,
        (None, true) => many(ctx, &action, &args).await,
    }
}

async fn single(ctx: &mut Ctx<'_>, uuid: &str, action: &Action, force: bool) -> Result<(), CliError> {
    let uuid = super::shared::non_empty("the contact uuid", uuid)?.to_string();
    let client = ctx.client()?;
    // `open`, as the command was called before `reopen` became its alias.
    let label = match action {
        Action::Reopen => "open",
        other => other.verb(),
    };
    let done = if force { None } else { seen(ctx, &uuid) };
    let me = ctx.settings().ok().and_then(|s| s.user_email.clone());
    let done = match write_checked(&client, &uuid, "", action, done.as_ref(), me.as_deref()).await {
        Ok(Checked::Done(d)) => *d,
        Ok(Checked::Changed(c)) => {
            return Err(CliError::Other(format!(
                "contacts {label} {uuid}: not done: {}; run it again with --force to {label} it anyway",
                crate::text::sanitize_line(&c.what)
            )));
        }
        Err(e) => return Err(CliError::Other(format!("contacts {label} {uuid}: {e}"))),
    };
    let c = match done.settled {
        Settled::Applied(c) | Settled::Skipped(c) => c,
        Settled::Failed(e) => return Err(CliError::Other(format!("contacts {label} {uuid}: {e}"))),
        Settled::Unknown(e) => {
            return Err(CliError::Other(format!(
                "contacts {label} {uuid}: {e}; whether it was applied is unknown: read the contact before trying again"
            )));
        }
    };
    remember(ctx, std::slice::from_ref(&c));
    print_object(ctx, &c)
}

/// What the local index last saw of `uuid`'s owner and state (`None`: no
/// index on disk, or the contact is not in it: nothing to compare with).
fn seen(ctx: &mut Ctx<'_>, uuid: &str) -> Option<Seen> {
    let on_disk = ctx.settings().is_ok_and(|s| s.cache) && index_path(ctx).is_ok_and(|p| p.exists());
    if !on_disk {
        return None;
    }
    let copy = open_index(ctx).ok()?.get(uuid).ok()??;
    Some(Seen::of(&copy))
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
    let me = super::whoami::me(ctx, me).await;
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
    // What the service would refuse, said before anything is written.
    for why in check::refusals(action, &loaded.contacts, me.as_deref()) {
        let _ = writeln!(ctx.err, "frontdesk: warning: {why}");
    }
    if args.dry_run {
        let doc = list_doc(ctx.format, ctx.color, &targets)?;
        ctx.emit(&doc)?;
        // Those already as the action leaves them change nothing: said
        // apart, as `history` and `undo` count them.
        let (_, no_ops) = check::split(action, &targets);
        let already = if no_ops > 0 {
            format!("; {no_ops} of them already so (no-op)")
        } else {
            String::new()
        };
        let _ = writeln!(
            ctx.err,
            "would {verb} {} contacts ({what}){already}; nothing changed",
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
        confirm(
            ctx,
            &format!("{verb} {} contacts ({what})?", targets.len()),
            "Pass --yes to go ahead, or --dry-run to list them first",
            "nothing changed",
        )?;
    }
    let chosen = Chosen {
        filter: view.filter.clone(),
        me: me.clone(),
        now,
    };
    let of = act::RunOf {
        action,
        what: &what,
        chosen,
    };
    act::run(ctx, &client, &mut index, &targets, of).await
}

/// Asks `question` on the terminal and goes ahead on y or yes. Without a
/// terminal it refuses, saying `go_ahead` (how to proceed without being
/// asked); a no is the usage error `declined`.
pub(crate) fn confirm(ctx: &mut Ctx<'_>, question: &str, go_ahead: &str, declined: &str) -> Result<(), CliError> {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(CliError::usage(format!(
            "{question} Not asking: standard input is not a terminal. {go_ahead}"
        )));
    }
    let _ = write!(ctx.err, "{question} [y/N] ");
    let _ = ctx.err.flush();
    let mut line = String::new();
    stdin.lock().read_line(&mut line)?;
    if matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
        Ok(())
    } else {
        Err(CliError::usage(declined))
    }
}
