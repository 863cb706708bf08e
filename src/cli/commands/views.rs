//! `frontdesk views`: every view (built-in and from the config file) with
//! how many contacts it holds now; and reading a view from the local index
//! for the commands that act on one.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use clap::Args;
use serde::Serialize;

use super::cache::open_index;
use super::sync::{index_err, refresh, sync_client, sync_err};
use crate::api::Contact;
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::{Progress, Tabular, list_doc};
use crate::index::sync::{Budget, fetch_previews};
use crate::index::{Index, Order, Preview, Wanted};
use crate::triage::{Facts, View, builtin_views, count_views};

#[derive(Debug, Args)]
pub struct ViewsArgs {}

/// Last messages fetched between two updates of the progress bar.
const PREVIEW_BATCH: usize = 25;

/// The contacts of the index and their facts, side by side.
pub(crate) struct Loaded {
    pub contacts: Vec<Contact>,
    pub facts: Vec<Facts>,
}

/// Brings the index up to date, then reads every contact with the facts
/// `views` need. A view that depends on who wrote last gets the last
/// message of each of its candidates fetched first where the index lacks
/// it or has an older one (one request each, within the sync budget). So
/// does a view on how old the last activity is: the service tells none (no
/// `lastMessageAt`), and the activity the index learned can be older than
/// the truth until the thread's newest message is read.
pub(crate) async fn load(
    ctx: &mut Ctx<'_>,
    index: &mut Index,
    views: &[View],
    me: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Loaded, CliError> {
    refresh(ctx, index).await?;
    let mut contacts = index.list(Order::Activity, usize::MAX >> 1, 0).map_err(index_err)?;
    let mut previews: HashMap<String, Preview> = index.all_previews().map_err(index_err)?.into_iter().collect();
    let mut facts: Vec<Facts> = contacts.iter().map(|c| Facts::new(c, previews.get(&c.uuid))).collect();
    let wanting: Vec<&View> = views
        .iter()
        .filter(|v| v.filter.needs_last_message() || v.filter.older_than.is_some())
        .collect();
    if !wanting.is_empty() {
        let wanted: Vec<Wanted> = contacts
            .iter()
            .zip(&facts)
            .filter(|(c, f)| {
                let known = previews
                    .get(&c.uuid)
                    .is_some_and(|p| p.activity.is_none() || p.activity == c.last_activity());
                !known && wanting.iter().any(|v| v.filter.matches_but_waiting(*f, me, now))
            })
            .map(|(c, _)| (c.uuid.clone(), c.last_activity()))
            .collect();
        if !wanted.is_empty() {
            let client = sync_client(ctx)?;
            let budget = Budget::new(ctx.settings()?.sync_rate);
            let mut pb = Progress::new(ctx.progress, "reading who wrote last", "conversations");
            pb.set_length(wanted.len() as u64);
            // In batches, so the progress shows how far it got.
            for batch in wanted.chunks(PREVIEW_BATCH) {
                let (fetched, failed) = fetch_previews(&client, index, &budget, batch).await;
                pb.inc(batch.len() as u64);
                previews.extend(fetched);
                if let Some(e) = failed {
                    pb.finish_and_clear();
                    return Err(sync_err(e));
                }
            }
            pb.finish_and_clear();
            // A thread's newest message is activity the list never says:
            // the index learned it with the pages.
            contacts = index.list(Order::Activity, usize::MAX >> 1, 0).map_err(index_err)?;
            facts = contacts.iter().map(|c| Facts::new(c, previews.get(&c.uuid))).collect();
        }
    }
    Ok(Loaded { contacts, facts })
}

/// The built-in views and the config file's, and the agent's email.
pub(crate) fn all_views(ctx: &mut Ctx<'_>) -> Result<(Vec<View>, Option<String>), CliError> {
    let settings = ctx.settings()?;
    let mut views = builtin_views();
    views.extend(settings.views.iter().cloned());
    Ok((views, settings.user_email.clone()))
}

#[derive(Debug, Serialize)]
struct ViewRow {
    name: String,
    short: String,
    count: usize,
    /// The count is a lower bound: some conversations whose state (open or
    /// closed) is not known yet may belong (`≥` in the table).
    #[serde(rename = "atLeast", skip_serializing_if = "std::ops::Not::not")]
    at_least: bool,
    /// How many of those there are (`frontdesk sync` learns them).
    #[serde(rename = "stateUnknown", skip_serializing_if = "is_zero")]
    state_unknown: usize,
    /// The view's rules in words.
    rules: String,
    /// Why the view is empty whatever the account holds (no email for Mine).
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    /// Through a hub: whether it had walked the whole account when it
    /// counted (false: every count is a lower bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
}

impl Tabular for ViewRow {
    fn headers() -> &'static [&'static str] {
        &["VIEW", "TAB", "CONTACTS", "RULES", "NOTE"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.short.clone(),
            if self.at_least {
                format!("≥{}", self.count)
            } else {
                self.count.to_string()
            },
            self.rules.clone(),
            match (self.state_unknown, self.note.clone()) {
                (0, note) => note.unwrap_or_default(),
                (n, None) => format!("{n} of unknown state"),
                (n, Some(note)) => format!("{note}; {n} of unknown state"),
            },
        ]
    }
}

pub async fn run(ctx: &mut Ctx<'_>, _args: ViewsArgs) -> Result<(), CliError> {
    let (views, me) = all_views(ctx)?;
    if let Some(rows) = from_hub(ctx, &views).await? {
        let doc = list_doc(ctx.format, ctx.color, &rows)?;
        return ctx.emit(&doc);
    }
    let me = super::whoami::me(ctx, me).await;
    let mut index = open_index(ctx)?;
    let now = Utc::now();
    let loaded = load(ctx, &mut index, &views, me.as_deref(), now).await?;
    let counts = count_views(&loaded.facts, &views, me.as_deref(), now);
    let rows: Vec<ViewRow> = views
        .iter()
        .zip(counts)
        .map(|(v, count)| {
            let unknown = loaded
                .facts
                .iter()
                .filter(|f| v.filter.may_match_unknown_state(*f, me.as_deref(), now))
                .count();
            (v, count, unknown)
        })
        .map(|(v, count, unknown)| ViewRow {
            name: v.name.clone(),
            short: v.short.clone(),
            count,
            at_least: unknown > 0,
            state_unknown: unknown,
            rules: v.filter.describe(),
            note: v.why_empty(me.as_deref()),
            complete: None,
        })
        .collect();
    let doc = list_doc(ctx.format, ctx.color, &rows)?;
    ctx.emit(&doc)
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Through a hub, the views (built-in, and those of the config file, sent
/// to it as the file writes them) are counted by the hub from its facts
/// (Mine: the agent's email as the hub knows it) and nothing waits for a
/// local index to fill. `None`: no hub, a config file that cannot be read
/// again, or a hub too old to count: then the index is filled from the
/// hub's snapshot as before.
async fn from_hub(ctx: &mut Ctx<'_>, views: &[View]) -> Result<Option<Vec<ViewRow>>, CliError> {
    let settings = ctx.settings()?;
    let Some(hub) = settings.hub().map_err(|e| CliError::Usage(e.to_string()))? else {
        return Ok(None);
    };
    // Views of the config file go to the hub as the file writes them, and
    // it counts them with the built-in ones.
    let own = if settings.views.is_empty() {
        None
    } else {
        let text = settings
            .config_path
            .as_deref()
            .and_then(|p| std::fs::read_to_string(p).ok());
        match text.as_deref().and_then(crate::config::views_toml) {
            Some(t) => Some(t),
            None => return Ok(None),
        }
    };
    let asked = match &own {
        Some(t) => hub.counts_with(t).await,
        None => hub.counts().await,
    };
    let counts = match asked {
        Ok(c) => c,
        Err(crate::api::ApiError::NotOffered { .. }) => return Ok(None),
        // A hub from before it counted the agent's own views.
        Err(crate::api::ApiError::Rejected { status: 405, .. }) if own.is_some() => return Ok(None),
        Err(source) => {
            return Err(CliError::Api {
                what: "asking the hub how many contacts each view holds".into(),
                source,
            });
        }
    };
    let me = counts.me.as_deref().map(crate::text::sanitize_line);
    let mut rows = Vec::with_capacity(views.len());
    for v in views {
        let Some(c) = counts.views.iter().find(|c| c.name == v.name) else {
            return Ok(None);
        };
        let unknown = usize::try_from(c.state_unknown).unwrap_or(usize::MAX);
        rows.push(ViewRow {
            name: v.name.clone(),
            short: v.short.clone(),
            count: usize::try_from(c.count).unwrap_or(usize::MAX),
            at_least: unknown > 0 || c.last_unknown > 0 || !counts.complete,
            state_unknown: unknown,
            rules: v.filter.describe(),
            note: match (v.why_empty(me.as_deref()), c.last_unknown) {
                (why, 0) => why,
                (None, n) => Some(format!("{n} whose last message the hub has not read yet")),
                (Some(why), n) => Some(format!("{why}; {n} whose last message the hub has not read yet")),
            },
            complete: Some(counts.complete),
        });
    }
    Ok(Some(rows))
}
