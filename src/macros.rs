//! Macros: a name, a key, a label and a list of steps, from the config
//! file's `[macros.NAME]` tables.
//!
//! ```toml
//! [macros.escalate]
//! key = "E"
//! label = "Escalate to billing"
//! steps = ["tag urgent", "team Billing", "snippet escalated", "send", "snooze tomorrow", "close"]
//! ```
//!
//! A step is a verb and its argument. The writes among them (tag, untag,
//! assign, unassign, team, close, open, bot) become triage `Action`s and
//! run through the one write pipeline; `snooze` snoozes. A macro makes at
//! most one message: `snippet NAME` fills the named snippet for each
//! contact (its variables from that contact), and `send` sends it, or
//! `send TEXT` sends that text (variables filled too). A `snippet`
//! without `send` opens the composer on the one contact with the text in
//! it, for the agent to read and send. In the TUI the writes go first (one
//! run, one undo), then the message on each contact they all went through
//! on, then the snooze. A macro with a step that does not parse is left
//! out whole and named: half a macro is worse than none.

use chrono::{DateTime, TimeZone};

use crate::triage::bulk::Action;

/// One step of a macro.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A write on the contact, through the one write pipeline.
    Write(Action),
    /// A team by name or uuid: resolved against the account's teams when it runs.
    Team(String),
    /// Put this snippet (shortcode) in the composer, variables filled.
    Snippet(String),
    /// Send what the composer holds (this text when given).
    Send(Option<String>),
    /// Snooze, as `snooze::parse_until` reads it when the macro runs.
    Snooze(String),
}

/// A macro as the config file gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Macro {
    pub name: String,
    /// The key that runs it in the list and the thread (a keymap entry).
    pub key: Option<String>,
    /// What help and the palette show.
    pub label: String,
    pub steps: Vec<Step>,
}

impl Macro {
    /// True when running it sends a message (it then asks nothing more, but
    /// help says so).
    pub fn sends(&self) -> bool {
        self.steps.iter().any(|s| matches!(s, Step::Send(_)))
    }

    /// The writes it makes, in order (what undo takes back as one step).
    pub fn writes(&self) -> impl Iterator<Item = &Action> {
        self.steps.iter().filter_map(|s| match s {
            Step::Write(a) => Some(a),
            _ => None,
        })
    }
}

/// Reads one step: `tag urgent`, `untag vip`, `assign dana@example.com`,
/// `unassign`, `team Billing`, `snippet thanks`, `send`, `send Thanks!`,
/// `snooze tomorrow 9:00`, `close`, `open`, `bot start`, `bot stop`.
/// `now` checks a snooze's time reads (it is read again when the macro runs).
pub fn parse_step<Tz: TimeZone>(text: &str, now: &DateTime<Tz>) -> Result<Step, String> {
    let text = text.trim();
    let (verb, arg) = match text.split_once(char::is_whitespace) {
        Some((v, a)) => (v, a.trim()),
        None => (text, ""),
    };
    let shown = || crate::text::sanitize_line(text);
    let need = |what: &str| -> Result<String, String> {
        if arg.is_empty() {
            Err(format!("\"{}\" needs {what}", shown()))
        } else {
            Ok(arg.to_string())
        }
    };
    let none = |step: Step| -> Result<Step, String> {
        if arg.is_empty() {
            Ok(step)
        } else {
            Err(format!("\"{}\" takes nothing after {verb}", shown()))
        }
    };
    match verb.to_lowercase().as_str() {
        "tag" => Ok(Step::Write(Action::Tag(vec![need("a tag")?]))),
        "untag" => Ok(Step::Write(Action::Untag(vec![need("a tag")?]))),
        "assign" => {
            let who = need("an email")?;
            crate::api::model::checked_email(&who).map_err(|e| format!("\"{}\": {e}", shown()))?;
            Ok(Step::Write(Action::Assign(who)))
        }
        "unassign" => none(Step::Write(Action::Unassign)),
        "team" => Ok(Step::Team(need("a team's name")?)),
        "snippet" => Ok(Step::Snippet(need("a snippet's shortcode")?)),
        "send" => Ok(Step::Send(Some(arg.to_string()).filter(|a| !a.is_empty()))),
        "snooze" => {
            let when = need("a time (1h, tomorrow, fri 14:00, reply)")?;
            crate::snooze::parse_until(&when, now).map_err(|e| format!("\"{}\": {e}", shown()))?;
            Ok(Step::Snooze(when))
        }
        "close" => none(Step::Write(Action::Close)),
        "open" | "reopen" => none(Step::Write(Action::Reopen)),
        "bot" => match arg.to_lowercase().as_str() {
            "start" => Ok(Step::Write(Action::Bot(true))),
            "stop" => Ok(Step::Write(Action::Bot(false))),
            _ => Err(format!("\"{}\": write bot start or bot stop", shown())),
        },
        _ => Err(format!(
            "\"{}\": unknown step (tag, untag, assign, unassign, team, snippet, send, snooze, close, open, bot)",
            shown()
        )),
    }
}

/// Why the message steps do not make one message, if they do not: at
/// most one `snippet` and one `send`; a bare `send` needs the `snippet`
/// before it, and `send TEXT` has its own text.
fn message_problem(steps: &[Step]) -> Option<String> {
    let snippets = steps.iter().filter(|s| matches!(s, Step::Snippet(_))).count();
    let sends = steps.iter().filter(|s| matches!(s, Step::Send(_))).count();
    if snippets > 1 || sends > 1 {
        return Some("a macro sends at most one message: one snippet step, one send step".into());
    }
    let snippet_at = steps.iter().position(|s| matches!(s, Step::Snippet(_)));
    match steps.iter().position(|s| matches!(s, Step::Send(_))) {
        Some(i) if matches!(steps[i], Step::Send(None)) && snippet_at.is_none_or(|s| s > i) => {
            Some("\"send\" sends the snippet: put a snippet step before it, or write send TEXT".into())
        }
        Some(i) if matches!(steps[i], Step::Send(Some(_))) && snippet_at.is_some() => {
            Some("\"send TEXT\" has its own text: drop the snippet step, or write send alone".into())
        }
        _ => None,
    }
}

/// Reads the config file's `macros` table. Returns the macros in name
/// order and one warning (inert) per macro left out.
pub fn parse<Tz: TimeZone>(table: &toml::Table, now: &DateTime<Tz>) -> (Vec<Macro>, Vec<String>) {
    let mut macros = Vec::new();
    let mut warnings = Vec::new();
    for (name, value) in table {
        let shown = crate::text::sanitize_line(name);
        let mut warn = |why: String| warnings.push(format!("macro \"{shown}\" left out: {why}"));
        let Some(t) = value.as_table() else {
            warn("write it as a [macros.NAME] table with steps = [...]".into());
            continue;
        };
        if let Some(unknown) = t.keys().find(|k| !matches!(k.as_str(), "key" | "label" | "steps")) {
            warn(format!(
                "unknown setting \"{}\" (key, label, steps)",
                crate::text::sanitize_line(unknown)
            ));
            continue;
        }
        let Some(list) = t.get("steps").and_then(|s| s.as_array()).filter(|a| !a.is_empty()) else {
            warn("it has no steps = [\"...\"]".into());
            continue;
        };
        let mut steps = Vec::new();
        let mut bad = None;
        for item in list {
            match item.as_str().map(|s| parse_step(s, now)) {
                Some(Ok(step)) => steps.push(step),
                Some(Err(e)) => bad = bad.or(Some(e)),
                None => bad = bad.or(Some("a step is text, such as \"close\"".into())),
            }
        }
        if let Some(e) = bad.or_else(|| message_problem(&steps)) {
            warn(e);
            continue;
        }
        let key = match t.get("key") {
            None => None,
            Some(toml::Value::String(k)) if !k.trim().is_empty() => Some(k.trim().to_string()),
            Some(_) => {
                warn("its key is not a key name such as \"E\" or \"ctrl-e\"".into());
                continue;
            }
        };
        let label = t
            .get("label")
            .and_then(|l| l.as_str())
            .map(crate::text::sanitize_line)
            .unwrap_or_else(|| shown.clone());
        macros.push(Macro {
            name: name.clone(),
            key,
            label,
            steps,
        });
    }
    (macros, warnings)
}

#[cfg(test)]
mod tests;
