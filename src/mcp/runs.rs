//! `history` (this machine's runs, newest first, naming each contact) and
//! `send_template` (a template with its values: a preview unless
//! `confirm` is true, then sent).

use serde_json::{Value, json};

use super::args::{self, Args};
use super::inbox::{Inbox, Reply};
use crate::api::{ContactId, SendMessage};

/// Runs one `history` page gives at most.
const MAX_RUNS: usize = 50;

/// `text` with `{{1}}`, `{{2}}`… replaced by `values`; the placeholders
/// left without a value.
pub fn fill(text: &str, values: &[String]) -> (String, Vec<usize>) {
    let mut out = text.to_string();
    for (i, v) in values.iter().enumerate() {
        out = out.replace(&format!("{{{{{}}}}}", i + 1), v);
    }
    let unfilled = (1..=20).filter(|n| out.contains(&format!("{{{{{n}}}}}"))).collect();
    (out, unfilled)
}

impl Inbox {
    pub(super) fn history(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["limit", "cursor"])?;
        let (limit, capped) = args::limit(args, 10, MAX_RUNS)?;
        let offset = args::cursor(args, "history", "")?;
        let runs = match &self.remote {
            // Through the hub: this agent's writes in the hub's audit.
            Some(remote) => (remote.history)()?,
            None => self.local_runs()?,
        };
        let total = runs.len();
        let shown: Vec<Value> = runs.into_iter().skip(offset).take(limit).collect();
        let end = offset + shown.len();
        let mut data = json!({
            "runs": shown,
            "total": total,
            "nextCursor": (end < total).then(|| args::next_cursor("history", "", end)),
            "asOf": chrono::Utc::now().to_rfc3339(),
            "complete": true,
            "missing": [],
        });
        if let Some(note) = capped {
            data["limitNote"] = json!(note);
        }
        Ok(Reply::quoted(
            format!("{} of {total} runs, newest first", end - offset),
            data,
        ))
    }

    /// This machine's run history, newest first.
    fn local_runs(&self) -> Result<Vec<Value>, String> {
        let (base_url, profile) = &self.account;
        let mut runs = crate::triage::history::load(base_url, profile)?;
        runs.reverse();
        Ok(runs
            .iter()
            .map(|r| {
                let contacts: Vec<Value> = r
                    .contacts
                    .iter()
                    .map(|e| json!({ "uuid": e.uuid, "name": e.name, "outcome": e.outcome, "error": e.error }))
                    .collect();
                json!({ "id": r.id, "at": r.at, "action": r.action.done(), "what": r.what, "total": r.total,
                    "interrupted": r.interrupted, "undoOf": r.undo_of, "contacts": contacts })
            })
            .collect())
    }

    pub(super) async fn send_template(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["contact", "template", "values", "confirm"])?;
        let uuid = args::text(args, "contact")?;
        let wanted = args::text(args, "template")?;
        let values = match args.get("values") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(list)) => list
                .iter()
                .map(|v| v.as_str().map(String::from).ok_or("`values` must hold strings only"))
                .collect::<Result<Vec<_>, _>>()?,
            Some(_) => return Err("`values` must be a list of strings".into()),
        };
        let confirm = match args.get("confirm") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err("`confirm` must be true or false".into()),
        };
        let page = self.client.list_templates(None).await.map_err(|e| e.to_string())?;
        let t = page
            .items
            .iter()
            .find(|t| t.uuid == wanted || t.title.eq_ignore_ascii_case(&wanted))
            .ok_or_else(|| {
                format!(
                    "no template called {:?}: see list_templates",
                    crate::text::sanitize_line(&wanted)
                )
            })?;
        let (text, unfilled) = fill(&t.text, &values);
        if !unfilled.is_empty() {
            return Err(format!(
                "template {:?} needs a value for {{{{{}}}}}: give `values` in order",
                crate::text::sanitize_line(&t.title),
                unfilled[0]
            ));
        }
        let mut data = json!({ "contact": uuid, "template": t.uuid, "title": t.title, "text": text, "sent": false });
        if !confirm {
            let summary = format!(
                "Preview only, nothing sent: call again with confirm: true to send {:?}",
                t.title
            );
            return Ok(Reply::quoted(summary, data));
        }
        let contact = self
            .client
            .get_contact(&ContactId::from(uuid.as_str()), false)
            .await
            .map_err(|e| e.to_string())?;
        let request = SendMessage::template(&contact.phone_number, &contact.source, &t.uuid, values);
        let sent = self.client.send_to(&contact, request).await.map_err(|e| {
            format!(
                "the send failed ({}): read_thread shows whether it arrived before sending again",
                crate::text::sanitize_line(&e.to_string())
            )
        })?;
        self.fresh.nudge();
        data["sent"] = json!(true);
        data["message"] = json!(sent.uuid);
        Ok(Reply::quoted(format!("Sent template {:?} to {uuid}", t.title), data))
    }
}

impl Inbox {
    /// The canned replies: snippets.toml beside the config file and the
    /// config's `[snippets]`, with the team's from the hub when one is
    /// configured.
    pub(super) async fn snippets(&self) -> Result<Vec<crate::snippets::Snippet>, String> {
        let (config, table) = &self.snippets;
        let mut s = crate::snippets::load_all(config.as_deref(), table)?;
        if let Some(hub) = &self.hub {
            let team = hub
                .snippets()
                .await
                .map_err(|e| format!("the team's snippets from the hub: {e}"))?;
            crate::snippets::merge_team(&mut s, team);
        }
        Ok(s.items)
    }

    pub(super) async fn list_snippets(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &[])?;
        let items: Vec<Value> = self
            .snippets()
            .await?
            .iter()
            .map(|s| json!({ "name": s.name, "label": s.label, "text": s.text }))
            .collect();
        let summary = format!("{} snippets", items.len());
        Ok(Reply::quoted(
            summary,
            json!({ "snippets": items, "asOf": chrono::Utc::now().to_rfc3339(), "complete": true, "missing": [] }),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn placeholders_are_filled_in_order_and_the_missing_named() {
        let (t, left) = fill("Hi {{1}}, order {{2}} shipped", &["Ana".into(), "42".into()]);
        assert_eq!((t.as_str(), left.is_empty()), ("Hi Ana, order 42 shipped", true));
        let (_, left) = fill("Hi {{1}}, order {{2}} shipped", &["Ana".into()]);
        assert_eq!(left, vec![2]);
    }
}
