//! The account's lists an assistant needs beside the contacts:
//! `list_tags` (from the index, with counts), `list_teams`,
//! `list_collaborators` (availability and open load), `list_templates`,
//! and a sent message's delivery status (`message_status`).

use std::collections::{BTreeMap, HashMap};

use chrono::Utc;
use serde_json::{Value, json};

use super::args::{self, Args};
use super::fresh;
use super::inbox::{Inbox, Reply};
use crate::api::{ApiError, MessageId, Page};
use crate::index::Order;

/// Pages of an account list read at most in one call.
const MAX_PAGES: u32 = 20;

/// Every page of a numbered list, up to [`MAX_PAGES`]: the items, and
/// whether the list was read to its end.
async fn all_pages<T, F, Fut>(mut fetch: F) -> Result<(Vec<T>, bool), String>
where
    F: FnMut(Option<u32>) -> Fut,
    Fut: std::future::Future<Output = Result<Page<T>, ApiError>>,
{
    let mut out = Vec::new();
    for n in 1..=MAX_PAGES {
        let page = fetch(Some(n)).await.map_err(|e| e.to_string())?;
        let last = page.items.is_empty() || page.meta.pages.is_some_and(|p| n >= p);
        out.extend(page.items);
        if last {
            return Ok((out, true));
        }
    }
    Ok((out, false))
}

fn read_meta(complete: bool, what: &str) -> Value {
    let missing: Vec<String> = if complete {
        Vec::new()
    } else {
        vec![format!("{what}: only the first {MAX_PAGES} pages were read")]
    };
    json!({ "asOf": Utc::now().to_rfc3339(), "complete": complete, "missing": missing })
}

impl Inbox {
    pub(super) async fn list_tags(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &[])?;
        let seen = self.fresh.seen();
        let counts = self
            .read(|ix| {
                let mut counts: BTreeMap<String, (u64, u64)> = BTreeMap::new();
                for c in ix.list(Order::Activity, usize::MAX >> 1, 0)? {
                    for t in &c.tags {
                        let e = counts.entry(t.clone()).or_default();
                        e.0 += 1;
                        if c.is_open() {
                            e.1 += 1;
                        }
                    }
                }
                Ok(counts)
            })
            .await?;
        let tags: Vec<Value> = counts
            .into_iter()
            .map(|(tag, (all, open))| json!({ "tag": tag, "contacts": all, "open": open }))
            .collect();
        let mut data = fresh::meta(&seen, Vec::new());
        let summary = format!("{} tags", tags.len());
        data["tags"] = json!(tags);
        Ok(Reply::quoted(summary, data))
    }

    pub(super) async fn list_teams(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &[])?;
        let (teams, complete) = all_pages(|p| self.client.list_teams(p)).await?;
        let teams: Vec<Value> = teams
            .iter()
            .map(|t| json!({ "uuid": t.uuid, "name": t.name, "default": t.default, "members": t.members }))
            .collect();
        let mut data = read_meta(complete, "teams");
        let summary = format!("{} teams", teams.len());
        data["teams"] = json!(teams);
        Ok(Reply::quoted(summary, data))
    }

    /// Every team's members, once each: availability as the service says
    /// it, and how many open conversations each has assigned (the index).
    pub(super) async fn list_collaborators(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &[])?;
        let (teams, mut complete) = all_pages(|p| self.client.list_teams(p)).await?;
        let mut people: BTreeMap<String, Value> = BTreeMap::new();
        for t in &teams {
            let (members, all) = all_pages(|p| self.client.team_members(&t.uuid, p, None)).await?;
            complete &= all;
            for m in members {
                let e = people.entry(m.email.to_lowercase()).or_insert_with(
                    || json!({ "email": m.email, "name": m.name, "available": m.available, "teams": [] }),
                );
                if let Some(s) = &m.user_custom_status {
                    e["status"] = json!(s.label());
                }
                if let Some(list) = e["teams"].as_array_mut() {
                    list.push(json!(t.name));
                }
            }
        }
        let load: HashMap<String, u64> = self
            .read(|ix| {
                let mut load = HashMap::new();
                for c in ix.list(Order::Activity, usize::MAX >> 1, 0)? {
                    if let Some(a) = c.assigned_user.as_deref().filter(|_| c.is_open()) {
                        *load.entry(a.to_lowercase()).or_insert(0) += 1;
                    }
                }
                Ok(load)
            })
            .await?;
        let seen = self.fresh.seen();
        let people: Vec<Value> = people
            .into_iter()
            .map(|(email, mut v)| {
                v["openAssigned"] = json!(load.get(&email).copied().unwrap_or(0));
                v
            })
            .collect();
        let mut data = fresh::meta(&seen, Vec::new());
        if !complete {
            data["complete"] = json!(false);
            if let Some(m) = data["missing"].as_array_mut() {
                m.push(json!(format!(
                    "teams or members: only the first {MAX_PAGES} pages were read"
                )));
            }
        }
        let summary = format!("{} collaborators", people.len());
        data["collaborators"] = json!(people);
        Ok(Reply::quoted(summary, data))
    }

    pub(super) async fn list_templates(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &[])?;
        let (templates, complete) = all_pages(|p| self.client.list_templates(p)).await?;
        let templates: Vec<Value> = templates
            .iter()
            .map(|t| {
                json!({ "uuid": t.uuid, "title": t.title, "category": t.category,
                    "status": t.status.to_string(), "text": t.text })
            })
            .collect();
        let mut data = read_meta(complete, "templates");
        let summary = format!("{} templates", templates.len());
        data["templates"] = json!(templates);
        Ok(Reply::quoted(summary, data))
    }

    pub(super) async fn message_status(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["message"])?;
        let id = args::text(args, "message")?;
        let r = self
            .client
            .message_status(&MessageId::new(id.clone()))
            .await
            .map_err(|e| e.to_string())?;
        let status = r.status.to_string();
        let data = json!({ "message": r.uuid, "status": status, "asOf": Utc::now().to_rfc3339(), "complete": true });
        Ok(Reply::plain(format!("Message {id}: {status}"), data))
    }
}
