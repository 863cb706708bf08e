//! Filters on a listing or a search: assignee, team, tag, state, and
//! activity since a date.

use chrono::{DateTime, NaiveDate, Utc};
use serde_json::{Value, json};

use super::args::{self, Args};
use crate::api::Contact;

/// The filter arguments a listing takes.
pub const NAMES: &[&str] = &["assignee", "team", "tag", "state", "since"];

#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// An email, or "none" for unassigned.
    assignee: Option<String>,
    team: Option<String>,
    tag: Option<String>,
    open: Option<bool>,
    since: Option<DateTime<Utc>>,
}

impl Filters {
    pub fn read(args: &Args) -> Result<Filters, String> {
        let open = match args::opt_text(args, "state")?.as_deref() {
            None => None,
            Some("open") => Some(true),
            Some("closed") => Some(false),
            Some(_) => return Err("`state` must be \"open\" or \"closed\"".into()),
        };
        let since = match args::opt_text(args, "since")? {
            None => None,
            Some(s) => Some(
                DateTime::parse_from_rfc3339(&s)
                    .map(|d| d.with_timezone(&Utc))
                    .or_else(|_| {
                        NaiveDate::parse_from_str(&s, "%Y-%m-%d")
                            .map(|d| d.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc())
                    })
                    .map_err(|_| "`since` must be a date (2026-11-27) or an RFC 3339 time".to_string())?,
            ),
        };
        Ok(Filters {
            assignee: args::opt_text(args, "assignee")?.map(|s| s.to_lowercase()),
            team: args::opt_text(args, "team")?.map(|s| s.to_lowercase()),
            tag: args::opt_text(args, "tag")?.map(|s| s.to_lowercase()),
            open,
            since,
        })
    }

    /// The arguments, for tying a cursor to them.
    pub fn key(&self) -> String {
        format!("{self:?}")
    }

    pub fn keep(&self, c: &Contact) -> bool {
        let assignee_ok = match self.assignee.as_deref() {
            None => true,
            Some("none") => c.assigned_user.as_deref().is_none_or(|a| a.trim().is_empty()),
            Some(a) => c.assigned_user.as_deref().is_some_and(|x| x.eq_ignore_ascii_case(a)),
        };
        let team_ok = self.team.as_deref().is_none_or(|t| {
            c.team.as_ref().is_some_and(|x| {
                x.uuid.as_deref().is_some_and(|u| u.eq_ignore_ascii_case(t))
                    || x.name.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(t))
            })
        });
        let tag_ok = self
            .tag
            .as_deref()
            .is_none_or(|t| c.tags.iter().any(|x| x.eq_ignore_ascii_case(t)));
        let state_ok = self.open.is_none_or(|o| c.is_open() == o);
        let since_ok = self.since.is_none_or(|s| c.last_activity().is_some_and(|a| a >= s));
        assignee_ok && team_ok && tag_ok && state_ok && since_ok
    }
}

/// The filters' input schema properties.
pub fn schema() -> Value {
    json!({
        "assignee": { "type": "string", "description": "A collaborator's email, or \"none\" for unassigned" },
        "team": { "type": "string", "description": "A team's name or uuid" },
        "tag": { "type": "string" },
        "state": { "type": "string", "enum": ["open", "closed"] },
        "since": { "type": "string", "description": "Latest activity on or after this date (2026-11-27) or time (RFC 3339)" }
    })
}
