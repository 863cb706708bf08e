//! What a report reads of the index (see `crate::report`): per contact,
//! the conversation's times and groups, and the messages of its cached
//! page reduced to who wrote each and when. One query over every contact;
//! pages are only decoded for conversations active since the period
//! started (an older one cannot have a wait starting in it).

use chrono::{DateTime, Utc};
use serde::Deserialize;

use super::db::Index;
use super::error::IndexError;
use super::preview::Who;
use super::preview::{Author, Said, authors};
use super::stamps::{parse_stamp, stamp};
use crate::api::MessageStatus;

/// One message of a cached page, as a report sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldMessage {
    pub at: DateTime<Utc>,
    pub who: Who,
    /// A sent message the waiting rule takes as a bot's or an
    /// automation's (see `crate::index::preview::wait`): not a person's
    /// answer, so not a first response.
    pub automatic: bool,
}

/// The cached page of a conversation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeldPage {
    /// The contact's activity when the page was fetched (`None`: unknown).
    pub activity: Option<DateTime<Utc>>,
    /// Who wrote the page's last message, and when (`None`: empty page).
    pub last: Option<HeldMessage>,
    /// Its messages, oldest first; empty when not asked for (the
    /// conversation was not active since the period started).
    pub messages: Vec<HeldMessage>,
    /// How many messages the page holds, when `messages` were asked for
    /// (0 otherwise: counting them means reading the page).
    pub len: usize,
    /// What the page says about waiting (see [`crate::index::waiting`]).
    pub wait: crate::index::preview::Wait,
}

/// One contact, as a report sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReportRow {
    pub uuid: String,
    pub created_at: Option<DateTime<Utc>>,
    pub closed_at: Option<DateTime<Utc>>,
    /// The latest known activity (last message, else creation).
    pub activity: Option<DateTime<Utc>>,
    /// Email of the assigned agent.
    pub assignee: Option<String>,
    /// The team's name, else its uuid.
    pub team: Option<String>,
    pub tags: Vec<String>,
    /// The cached page, when the index holds one.
    pub page: Option<HeldPage>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Slim {
    #[serde(default, with = "crate::api::model::time::opt")]
    created_at: Option<DateTime<Utc>>,
    #[serde(default = "unknown_status")]
    status: MessageStatus,
    #[serde(default, rename = "sentBy")]
    sent_by: Option<String>,
}

fn unknown_status() -> MessageStatus {
    MessageStatus::Other(String::new())
}

fn who(status: &str) -> Option<Who> {
    match status {
        "received" => Some(Who::Customer),
        "sent" => Some(Who::Agent),
        "note" => Some(Who::Note),
        _ => None,
    }
}

/// A page's messages of a known kind and time, oldest first, each with
/// who wrote it under the waiting rule.
fn held(json: &str) -> Result<(Vec<HeldMessage>, usize), IndexError> {
    let mut slim: Vec<Slim> = serde_json::from_str(json)?;
    let len = slim.len();
    // Pages come newest first; equal stamps keep the page's order reversed
    // (the order the rule reads them in).
    slim.reverse();
    slim.sort_by_key(|m| m.created_at);
    let said = authors(slim.iter().map(|m| Said {
        status: &m.status,
        named: m.sent_by.as_deref().is_some_and(|s| !s.trim().is_empty()),
        at: m.created_at,
    }));
    let out = slim
        .iter()
        .zip(said)
        .filter_map(|(m, author)| {
            let who = match author? {
                Author::Customer => Who::Customer,
                Author::Person | Author::Automatic => Who::Agent,
                Author::Note => Who::Note,
            };
            Some(HeldMessage {
                at: m.created_at?,
                who,
                automatic: author == Some(Author::Automatic),
            })
        })
        .collect();
    Ok((out, len))
}

impl Index {
    /// Every contact with what a report needs; the messages of cached
    /// pages only for conversations active at or after `active_since`.
    pub fn report_rows(&self, active_since: DateTime<Utc>) -> Result<Vec<ReportRow>, IndexError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.uuid, c.created_at, c.closed_at, c.activity, c.assignee,
                 coalesce(json_extract(c.json, '$.team.name'), c.team_uuid), c.tags,
                 m.contact_uuid IS NOT NULL, m.activity, m.last_status, m.last_at,
                 CASE WHEN c.activity >= ?1 THEN m.json END, m.wait
             FROM contacts c LEFT JOIN messages m ON m.contact_uuid = c.uuid",
        )?;
        let mut rows = stmt.query([stamp(active_since)])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let tags: String = r.get(6)?;
            let page = if r.get::<_, bool>(7)? {
                let last_status: Option<String> = r.get(9)?;
                let last_at = parse_stamp(r.get(10)?);
                let last = match (last_status.as_deref().and_then(who), last_at) {
                    (Some(who), Some(at)) => Some(HeldMessage {
                        at,
                        who,
                        automatic: false,
                    }),
                    _ => None,
                };
                let json: Option<String> = r.get(11)?;
                let (messages, len) = match json {
                    Some(j) => held(&j)?,
                    None => (Vec::new(), 0),
                };
                Some(HeldPage {
                    activity: parse_stamp(r.get(8)?),
                    last,
                    messages,
                    len,
                    wait: crate::index::preview::Wait::from_stored(r.get::<_, Option<String>>(12)?.as_deref()),
                })
            } else {
                None
            };
            out.push(ReportRow {
                uuid: r.get(0)?,
                created_at: parse_stamp(r.get(1)?),
                closed_at: parse_stamp(r.get(2)?),
                activity: parse_stamp(r.get(3)?),
                assignee: r.get(4)?,
                team: r.get(5)?,
                tags: serde_json::from_str(&tags)?,
                page,
            });
        }
        Ok(out)
    }
}
