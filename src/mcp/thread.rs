//! One contact's tools, answered by the service: `read_thread` (paged
//! back to the oldest message), `contact_details`, `draft_reply` and
//! `send_reply`; and the writes through the one write pipeline.

use chrono::Utc;
use serde_json::{Value, json};

use super::args::{self, Args};
use super::inbox::{Inbox, Reply, contact_json, details_json};
use crate::api::{ContactId, Message, PageRequest, Pager, SendMessage};
use crate::drafts::ASSISTANT;
use crate::drafts::Draft;
use crate::triage::bulk::Action;
use crate::triage::write::{Settled, write_one};

/// Most messages one call gives.
pub const MAX_MESSAGES: usize = 100;
/// Pages of messages one call reads at most.
const MAX_PAGES_PER_CALL: usize = 10;
/// The service's limit on a message's text (the reference's 4,096).
pub const TEXT_MAX_CHARS: usize = 4096;

pub(super) fn message_json(m: &Message) -> Value {
    let mut v = json!({ "at": m.created_at, "from": m.status.to_string(), "text": m.text });
    if let Some(id) = &m.uuid {
        v["id"] = json!(id);
    }
    if let Some(by) = &m.sent_by {
        v["sentBy"] = json!(by);
    }
    v
}

fn encode(at: &PageRequest) -> Value {
    match at {
        PageRequest::First => json!("f"),
        PageRequest::Number(n) => json!(format!("n{n}")),
        PageRequest::After(c) => json!(format!("a{c}")),
    }
}

fn decode(v: &Value) -> Option<PageRequest> {
    let s = v.as_str()?;
    match s.split_at_checked(1)? {
        ("f", "") => Some(PageRequest::First),
        ("n", n) => n.parse().ok().map(PageRequest::Number),
        ("a", c) => Some(PageRequest::After(c.to_string())),
        _ => None,
    }
}

/// A reply's text: required, and within the service's limit.
fn reply_text(args: &Args) -> Result<String, String> {
    let body = match args.get("text") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        _ => return Err("`text` is required: the reply, a non-empty string".into()),
    };
    let n = body.chars().count();
    if n > TEXT_MAX_CHARS {
        return Err(format!(
            "`text` is {n} characters: the service takes at most {TEXT_MAX_CHARS} in a message"
        ));
    }
    Ok(body)
}

impl Inbox {
    pub(super) async fn read_thread(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["contact", "limit", "cursor"])?;
        let uuid = args::text(args, "contact")?;
        let (limit, capped) = args::limit(args, 20, MAX_MESSAGES)?;
        let bad = "`cursor` is not one this listing gave";
        let (mut at, mut skip) = match args::cursor_value(args, "read_thread", &uuid)? {
            None => (PageRequest::First, 0),
            Some(v) => (decode(&v["p"]).ok_or(bad)?, v["o"].as_u64().ok_or(bad)? as usize),
        };
        let id = ContactId::from(uuid.as_str());
        let mut pager = Pager::new();
        let mut got: Vec<Value> = Vec::new();
        // Where the next call starts (`None`: the oldest was reached).
        let mut next: Option<(PageRequest, usize)> = Some((at.clone(), skip));
        for _ in 0..MAX_PAGES_PER_CALL {
            let page = self.client.list_messages(&id, &at).await.map_err(|e| e.to_string())?;
            let room = limit - got.len();
            got.extend(page.items.iter().skip(skip).take(room).map(message_json));
            let used = (skip + room).min(page.items.len());
            if used < page.items.len() {
                next = Some((at, used));
                break;
            }
            match pager.next(&at, &page).map_err(|e| e.to_string())? {
                None => {
                    next = None;
                    break;
                }
                Some(n) => {
                    (at, skip) = (n, 0);
                    next = Some((at.clone(), 0));
                    if got.len() >= limit {
                        break;
                    }
                }
            }
        }
        // Oldest first in the answer; the cursor leads to older ones.
        got.reverse();
        let oldest = next.is_none();
        let cursor = next.map(|(p, o)| args::make_cursor("read_thread", &uuid, json!({ "p": encode(&p), "o": o })));
        let first_call = args.get("cursor").is_none_or(Value::is_null);
        let summary = format!(
            "{} messages of {uuid}{}",
            got.len(),
            if oldest {
                ", back to the first"
            } else {
                "; nextCursor gives older ones"
            }
        );
        let mut data = json!({
            "contact": uuid,
            "messages": got,
            "nextCursor": cursor,
            "oldestReached": oldest,
            "asOf": Utc::now().to_rfc3339(),
            "complete": true,
        });
        if oldest && first_call {
            data["total"] = json!(data["messages"].as_array().map_or(0, Vec::len));
        }
        if let Some(note) = capped {
            data["limitNote"] = json!(note);
        }
        Ok(Reply::quoted(summary, data))
    }

    pub(super) async fn contact_details(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["contact"])?;
        let uuid = args::text(args, "contact")?;
        let c = self
            .client
            .get_contact(&ContactId::from(uuid.as_str()), false)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Reply::quoted(format!("Contact {uuid}"), details_json(&c)))
    }

    /// Keeps a draft for a contact the service knows, within its text
    /// limit. Nothing is sent.
    pub(super) async fn draft(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["contact", "text"])?;
        let contact = args::text(args, "contact")?;
        let body = reply_text(args)?;
        let drafts = self.drafts.as_ref().ok_or("no home directory to keep drafts in")?;
        self.contact(&contact).await?;
        let draft = Draft {
            contact: contact.clone(),
            text: body,
            saved_at: Utc::now(),
            by: ASSISTANT.into(),
        };
        drafts
            .save(&draft)
            .map_err(|e| format!("the draft could not be kept: {e}"))?;
        let said = format!("Draft kept for {contact}: the agent sees it in the composer. Nothing was sent.");
        Ok(Reply::plain(
            said.clone(),
            json!({ "drafted": contact, "sent": false, "note": said }),
        ))
    }

    /// Sends a text reply; the contact's draft, if any, is removed once
    /// the service took the message.
    pub(super) async fn send_reply(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["contact", "text"])?;
        let uuid = args::text(args, "contact")?;
        let body = reply_text(args)?;
        let contact = self
            .client
            .get_contact(&ContactId::from(uuid.as_str()), false)
            .await
            .map_err(|e| e.to_string())?;
        if contact.phone_number.trim().is_empty() && contact.bsuid.as_deref().is_none_or(|b| b.trim().is_empty()) {
            return Err(crate::api::NO_RECIPIENT.into());
        }
        // From the contact's channel, to its number or else its bsuid.
        let request = SendMessage::text(&contact.phone_number, &contact.source, body);
        let sent = match self.client.send_to(&contact, request).await {
            Ok(sent) => sent,
            Err(e) => {
                return Err(format!(
                    "the send failed ({}): read_thread shows whether it arrived before sending again",
                    crate::text::sanitize_line(&e.to_string())
                ));
            }
        };
        if let Some(d) = &self.drafts {
            let _ = d.remove(&uuid);
        }
        self.fresh.nudge();
        let status = sent.status.to_string();
        Ok(Reply::plain(
            format!("Sent to {uuid} ({status}); message_status follows its delivery."),
            json!({ "sent": uuid, "message": sent.uuid, "status": status }),
        ))
    }

    /// `assign`'s action: to a collaborator (`email`) or a team (`team`,
    /// its name or uuid), one of the two.
    pub(super) async fn assignment(&self, args: &Args) -> Result<Action, String> {
        match (args::opt_text(args, "email")?, args::opt_text(args, "team")?) {
            (Some(email), None) => Ok(Action::Assign(email)),
            (None, Some(team)) => {
                let page = self.client.list_teams(None).await.map_err(|e| e.to_string())?;
                let found = page
                    .items
                    .iter()
                    .find(|t| t.uuid == team || t.name.eq_ignore_ascii_case(&team))
                    .ok_or_else(|| format!("no team called {:?}: see list_teams", crate::text::sanitize_line(&team)))?;
                Ok(Action::Team(found.uuid.clone()))
            }
            _ => Err("give one of `email` (a collaborator) or `team` (a team's name or uuid)".into()),
        }
    }

    pub(super) async fn write(&self, args: &Args, allowed: &[&str], action: Action) -> Result<Reply, String> {
        args::only(args, allowed)?;
        let uuid = args::text(args, "contact")?;
        let mut done = write_one(&self.client, &uuid, "", &action, None).await;
        // The history names the contact, as it was before the write (or
        // its number when it has no name).
        if let Some(c) = done.before.as_ref().or(done.after()) {
            done.name = if c.name.trim().is_empty() {
                c.phone_number.clone()
            } else {
                c.name.clone()
            };
        }
        (self.record)(&action, &done);
        match &done.settled {
            Settled::Applied(c) => {
                self.fresh.store(c);
                Ok(Reply::quoted(
                    format!("{} {uuid}", action.done()),
                    json!({ "done": action.done(), "contact": contact_json(c) }),
                ))
            }
            Settled::Skipped(_) => Err("the contact changed since: nothing was done".into()),
            Settled::Failed(e) => Err(format!("failed: {}", crate::text::sanitize_line(e))),
            Settled::Unknown(e) => Err(format!(
                "whether it was done is unknown: {}",
                crate::text::sanitize_line(e)
            )),
        }
    }
}
