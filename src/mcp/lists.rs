//! The listing tools, from the local index: `list_views`,
//! `list_contacts` and `search`, paged by opaque cursors with totals, each
//! result saying how fresh and complete the index is.

use std::collections::HashMap;

use chrono::Utc;
use serde_json::{Value, json};

use super::args::{self, Args};
use super::filters::{self, Filters};
use super::fresh;
use super::inbox::{Inbox, Reply, contact_json};
use crate::index::{Order, Preview, Wanted};
use crate::triage::Facts;

/// Most contacts one page gives.
pub const MAX_PAGE: usize = 100;
/// Most matches a search counts (its total says "at least" beyond).
pub const MAX_HITS: usize = 2000;
/// Last messages asked of the worker at once for a listing.
const WANT_AT_ONCE: usize = 200;

fn current(p: Option<&Preview>, c: &crate::api::Contact) -> bool {
    p.is_some_and(|p| p.activity.is_none() || p.activity == c.last_activity())
}

/// A page of `items` from `offset`, with its total and cursor.
fn page(items: Vec<Value>, offset: usize, limit: usize, tool: &str, key: &str) -> (Vec<Value>, Value) {
    let total = items.len();
    let shown: Vec<Value> = items.into_iter().skip(offset).take(limit).collect();
    let end = offset + shown.len();
    let next = (end < total).then(|| args::next_cursor(tool, key, end));
    (shown, json!(next))
}

impl Inbox {
    pub(super) fn list_views(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &[])?;
        let me = self.me.as_deref();
        let views: Vec<Value> = self
            .views
            .iter()
            .map(|v| {
                let mut out = json!({ "name": v.name, "rules": v.filter.describe() });
                if let Some(why) = v.why_empty(me) {
                    out["note"] = json!(why);
                }
                out
            })
            .collect();
        let n = views.len();
        Ok(Reply::quoted(format!("{n} views"), json!({ "views": views })))
    }

    pub(super) async fn list_contacts(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &[&["view", "query", "limit", "cursor"], filters::NAMES].concat())?;
        if args.get("query").is_some_and(|q| !q.is_null()) {
            return self.search(args, "list_contacts").await;
        }
        let (limit, capped) = args::limit(args, 20, MAX_PAGE)?;
        let view =
            match args::opt_text(args, "view")? {
                None => None,
                Some(name) => Some(self.views.iter().find(|v| v.is_named(&name)).cloned().ok_or_else(|| {
                    format!("no view called {:?}: see list_views", crate::text::sanitize_line(&name))
                })?),
            };
        let filters = Filters::read(args)?;
        let key = format!(
            "{}{}",
            view.as_ref().map(|v| v.name.clone()).unwrap_or_default(),
            filters.key()
        );
        let offset = args::cursor(args, "list_contacts", &key)?;
        let me = self.me.clone();
        if let Some(v) = &view
            && let Some(why) = v.why_empty(me.as_deref())
        {
            return Err(why);
        }
        let seen = self.fresh.seen();
        let wanting = view.as_ref().is_some_and(|v| v.filter.needs_last_message());
        let shown_view = view.as_ref().map(|v| format!(" in {}", v.name)).unwrap_or_default();
        let (rows, wanted, empty) = self
            .read(move |ix| {
                let previews: HashMap<String, Preview> = ix.all_previews()?.into_iter().collect();
                let now = Utc::now();
                let (mut rows, mut wanted) = (Vec::new(), Vec::<Wanted>::new());
                let all = ix.list(Order::Activity, usize::MAX >> 1, 0)?;
                let empty = all.is_empty();
                for c in all.into_iter().filter(|c| filters.keep(c)) {
                    let p = previews.get(&c.uuid);
                    let f = Facts::new(&c, p);
                    match &view {
                        None => rows.push(contact_json(&c)),
                        Some(v) => {
                            if v.filter.matches(&f, me.as_deref(), now) {
                                rows.push(contact_json(&c));
                            } else if wanting && !current(p, &c) && v.filter.matches_but_waiting(&f, me.as_deref(), now)
                            {
                                wanted.push((c.uuid.clone(), c.last_activity()));
                            }
                        }
                    }
                }
                Ok((rows, wanted, empty))
            })
            .await?;
        if let Some(why) = fresh::cannot_answer(&seen, &self.fresh.service, empty) {
            return Err(why);
        }
        let mut missing = Vec::new();
        if !wanted.is_empty() {
            missing.push(format!(
                "last messages: {} conversations' last messages are not read yet, and the view depends on who \
                 wrote last: they are being read now, ask again shortly",
                wanted.len()
            ));
            self.fresh.want(wanted.into_iter().take(WANT_AT_ONCE).collect());
        }
        let total = rows.len();
        let (shown, next) = page(rows, offset, limit, "list_contacts", &key);
        let mut data = fresh::meta(&seen, missing);
        let summary = format!(
            "{} of {total} contacts{}{}",
            shown.len(),
            shown_view,
            if data["complete"] == json!(true) {
                ""
            } else {
                " (partial: see missing)"
            }
        );
        data["contacts"] = json!(shown);
        data["total"] = json!(total);
        data["nextCursor"] = next;
        if let Some(note) = capped {
            data["limitNote"] = json!(note);
        }
        Ok(Reply::quoted(summary, data))
    }

    /// Full-text search of the index (names, phones, tags, notes, and the
    /// messages read so far), best match first.
    pub(super) async fn search(&self, args: &Args, tool: &str) -> Result<Reply, String> {
        args::only(args, &[&["query", "view", "limit", "cursor"], filters::NAMES].concat())?;
        let query = args::query(args, "query")?;
        let filters = Filters::read(args)?;
        if args::opt_text(args, "view")?.is_some() {
            return Err("`view` and `query` do not go together: search, or list a view".into());
        }
        let (limit, capped) = args::limit(args, 20, MAX_PAGE)?;
        let key = format!("{query}{}", filters.key());
        let offset = args::cursor(args, tool, &key)?;
        let seen = self.fresh.seen();
        let q = query.clone();
        let (rows, unread, empty) = self
            .read(move |ix| {
                let previews: HashMap<String, Preview> = ix.all_previews()?.into_iter().collect();
                let all = ix.list(Order::Activity, usize::MAX >> 1, 0)?;
                let empty = all.is_empty();
                let unread = all
                    .iter()
                    .filter(|c| c.is_open() && !current(previews.get(&c.uuid), c))
                    .count();
                let mut rows = Vec::new();
                for (uuid, _) in ix.search(&q, MAX_HITS)? {
                    if let Some(c) = ix.get(&uuid)?.filter(|c| filters.keep(c)) {
                        rows.push(contact_json(&c));
                    }
                }
                Ok((rows, unread, empty))
            })
            .await?;
        if let Some(why) = fresh::cannot_answer(&seen, &self.fresh.service, empty) {
            return Err(why);
        }
        let mut missing = Vec::new();
        if unread > 0 {
            missing.push(format!(
                "messages: {unread} open conversations' latest messages are not read yet: words in them are not found"
            ));
        }
        let total = rows.len();
        let (shown, next) = page(rows, offset, limit, tool, &key);
        let mut data = fresh::meta(&seen, missing);
        let summary = format!(
            "{} of {}{total} matches{}",
            shown.len(),
            if total >= MAX_HITS { "at least " } else { "" },
            if data["complete"] == json!(true) {
                ""
            } else {
                " (partial: see missing)"
            }
        );
        data["contacts"] = json!(shown);
        data["total"] = json!(total);
        data["totalIsAtLeast"] = json!(total >= MAX_HITS);
        data["nextCursor"] = next;
        if let Some(note) = capped {
            data["limitNote"] = json!(note);
        }
        Ok(Reply::quoted(summary, data))
    }
}
